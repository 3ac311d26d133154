package io.winstats.exporter;

import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.sources.NodeSourceSpec;
import java.nio.file.Path;

/** The node counters' settings ({@code node.*}), listed in {@link Settings#ALL}. */
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
          text -> NodeSourceSpec.parse(text, HostOs.current().isWindows()),
          c -> c.nodeSource().toString());

  static final Setting<WorkingSetDefinition> MEMORY_WORKING_SET =
      Setting.valued(
          "node.memory.working-set",
          "DEFINITION",
          "kubelet",
          "The Windows node working set (pdh source): kubelet, the sum of private working sets"
              + " (\\Process(_Total)\\Working Set - Private) as the kubelet reports it, which reads low; or physical,"
              + " total physical memory - \\Memory\\Available Bytes, as Task Manager and windows_exporter show it.",
          WorkingSetDefinition::parse,
          c -> c.nodeWorkingSet().flagValue());

  static final Setting<Path> KUBELET_ROOT_DIR =
      Setting.valued(
          "node.kubelet-root-dir",
          "DIR",
          "C:\\var\\lib\\kubelet",
          "The kubelet's --root-dir (pdh source): the Summary's node filesystem, and the capacity of container logs"
              + " and pod ephemeral storage, are read live from its volume (GetDiskFreeSpaceExW), as the kubelet"
              + " reads them.",
          Path::of,
          c -> c.kubeletRootDir().toString());

  static final Setting<String> NAME =
      Setting.valued(
          "node.name",
          "NAME",
          null,
          "Node name in the Summary API. Default: $NODE_NAME, else the host name.",
          text -> text,
          ExporterConfig::nodeName);
}
