package io.winstats.cri.cgroups;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The cgroups of one runtime round's containers and pods.
 *
 * @param timestamp when the reads finished (our clock)
 * @param version the host's cgroup layout
 * @param containers by container id
 * @param pods by pod sandbox id: the cgroup that holds the sandbox's and the containers' cgroups
 * @param podNetworks by pod sandbox id: the interfaces of the pod's network namespace, read through the pause
 *     process; a pod is absent when its sandbox has no process to read through
 * @param missing ids without a readable cgroup, each as {@code id: reason}
 * @param node the node's own pressure stall information, read in the same round
 * @param kubepods the cgroup above every pod cgroup ({@code /kubepods} with the cgroupfs driver, {@code
 *     /kubepods.slice} with systemd's), which the Linux kubelet reports as its {@code pods} system container; {@code
 *     null} when the pods' cgroups are not under one (a runtime not run by a kubelet) or it could not be read
 */
@RecordBuilder
public record CgroupSample(
    Instant timestamp,
    CgroupVersion version,
    @RecordBuilder.Initializer(source = Map.class, value = "of") Map<String, CgroupStats> containers,
    @RecordBuilder.Initializer(source = Map.class, value = "of") Map<String, CgroupStats> pods,
    @RecordBuilder.Initializer(source = Map.class, value = "of") Map<String, List<NetDevInterface>> podNetworks,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<String> missing,
    NodePressure node,
    @Nullable KubepodsCgroup kubepods) {
  public CgroupSample {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(version, "version");
    containers = java.util.Collections.unmodifiableMap(new TreeMap<>(containers));
    pods = java.util.Collections.unmodifiableMap(new TreeMap<>(pods));
    TreeMap<String, List<NetDevInterface>> copied = new TreeMap<>();
    podNetworks.forEach((id, interfaces) -> copied.put(id, List.copyOf(interfaces)));
    podNetworks = java.util.Collections.unmodifiableMap(copied);
    missing = List.copyOf(missing);
    Objects.requireNonNull(node, "node");
  }

  /**
   * A builder for the CgroupSample of {@code timestamp}, {@code version}, {@code node}, every other component 0, empty
   * or absent until set by name.
   */
  public static CgroupSampleBuilder builder(Instant timestamp, CgroupVersion version, NodePressure node) {
    return CgroupSampleBuilder.builder().timestamp(timestamp).version(version).node(node);
  }
}
