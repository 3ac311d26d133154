package io.winstats.exporter;

import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.sources.NodeSourceSpec;
import io.winstats.perfcounters.win32.ServiceFilter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.PatternSyntaxException;

/**
 * The node counters' settings ({@code node.*}), and {@code --record}, which writes the node's samples as a counter log
 * that {@code --node.source=replay:FILE} replays; in {@link #ALL}.
 */
final class NodeSettings {
  private NodeSettings() {}

  static final Setting<NodeSourceSpec> SOURCE =
      Setting.valued(
          "node.source",
          "SOURCE",
          "auto",
          "Node counter source: auto (pdh on Windows, procfs on Linux), procfs, procfs:PROC[,rootfs=DIR] (in a"
              + " container: the host's proc tree, and the host root for filesystems), pdh, or"
              + " replay:FILE[,speed=N|max][,bias=MINUTES][,time=replay|recorded] for a typeperf/relog CSV.",
          text -> NodeSourceSpec.parse(text, HostOs.current().isWindows()))
          .withExample("pdh");

  static final Setting<WorkingSetDefinition> MEMORY_WORKING_SET =
      Setting.valued(
          "node.memory.working-set",
          "DEFINITION",
          "kubelet",
          "The Windows node working set (pdh source): kubelet, the sum of private working sets"
              + " (\\Process(_Total)\\Working Set - Private) as the kubelet reports it, which reads low; or physical,"
              + " total physical memory - \\Memory\\Available Bytes, as Task Manager and windows_exporter show it.",
          WorkingSetDefinition::parse,
          c -> c.settings().value(NodeSettings.MEMORY_WORKING_SET).flagValue())
          .withChoices(Arrays.stream(WorkingSetDefinition.values()).map(WorkingSetDefinition::flagValue).toList())
          .withExample(WorkingSetDefinition.PHYSICAL.flagValue());

  static final Setting<Path> KUBELET_ROOT_DIR =
      Setting.valued(
          "node.kubelet-root-dir",
          "DIR",
          "C:\\var\\lib\\kubelet",
          "The kubelet's --root-dir (pdh source): the Summary's node filesystem, and the capacity of container logs"
              + " and pod ephemeral storage, are read live from its volume (GetDiskFreeSpaceExW), as the kubelet"
              + " reads them.",
          Path::of)
          .withExample("D:\\kubelet");

  /**
   * The services a Kubernetes node depends on: its node agents, its container runtime (containerd, or Docker with
   * cri-dockerd), the Host Network and Host Compute Services every Windows container needs, the CSI proxy and the
   * Calico and flannel daemons that run as services. Selecting all (windows_exporter's default, {@code .+}) serves 13
   * to 14 series per service, about 3,300 on a node with 250 Win32 services.
   */
  static final String KUBERNETES_SERVICES =
      "kubelet|kube-proxy|containerd|docker|cri-dockerd|hns|vmcompute|csi-proxy|CalicoNode|CalicoFelix|flanneld";

  static final Setting<String> SERVICE_INCLUDE =
      Setting.valued(
          "node.service.include",
          "REGEX",
          KUBERNETES_SERVICES,
          "The Windows services whose windows_service_* series are served (pdh source): a service name (not the"
              + " display name) must match it whole and not match the exclude pattern, as with windows_exporter's"
              + " collector.service.include; '.+' for every service (13-14 series each).",
          NodeSettings::servicePattern)
          .withExample(".+");

  static final Setting<String> SERVICE_EXCLUDE =
      Setting.valued(
          "node.service.exclude",
          "REGEX",
          "",
          "The Windows services left out (pdh source), matched whole, as with windows_exporter's"
              + " collector.service.exclude.",
          NodeSettings::servicePattern)
          .withExample("WSearch|Spooler");

  private static String servicePattern(String text) {
    try {
      new ServiceFilter(text, "");
      return text;
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("'" + text + "' is not a regular expression: " + e.getDescription(), e);
    }
  }

  static final Setting<String> NAME =
      Setting.valued(
          "node.name",
          "NAME",
          null,
          "Node name in the Summary API. Default: $NODE_NAME, else the host name.",
          text -> text,
          ExporterConfig::nodeName)
          .withExample("win-node-1");

  static final Setting<Path> RECORD =
      Setting.valued(
          "record",
          "FILE",
          null,
          "Also record every node sample to FILE as a PDH-CSV counter log that --node.source=replay:FILE replays.",
          Path::of)
          .withExample("node-samples.csv");

  /** The group's settings, in usage order ({@code --help}'s). */
  static final List<Setting<?>> ALL =
      List.of(SOURCE, MEMORY_WORKING_SET, KUBELET_ROOT_DIR, SERVICE_INCLUDE, SERVICE_EXCLUDE, NAME, RECORD);
}
