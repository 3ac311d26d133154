package io.winstats.cri.cgroups;

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
public record CgroupSample(
    Instant timestamp,
    CgroupVersion version,
    Map<String, CgroupStats> containers,
    Map<String, CgroupStats> pods,
    Map<String, List<NetDevInterface>> podNetworks,
    List<String> missing,
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

  /** A sample without a {@code kubepods} cgroup. */
  public CgroupSample(
      Instant timestamp,
      CgroupVersion version,
      Map<String, CgroupStats> containers,
      Map<String, CgroupStats> pods,
      Map<String, List<NetDevInterface>> podNetworks,
      List<String> missing,
      NodePressure node) {
    this(timestamp, version, containers, pods, podNetworks, missing, node, null);
  }

  /** A sample without pod networks (tests of the cgroup figures alone). */
  public CgroupSample(
      Instant timestamp,
      CgroupVersion version,
      Map<String, CgroupStats> containers,
      Map<String, CgroupStats> pods,
      List<String> missing,
      NodePressure node) {
    this(timestamp, version, containers, pods, Map.of(), missing, node);
  }

  /**
   * A builder for the CgroupSample of {@code timestamp}, {@code version}, {@code node}, every other component 0, empty
   * or absent until set by name.
   */
  public static Builder builder(Instant timestamp, CgroupVersion version, NodePressure node) {
    return new Builder(timestamp, version, node);
  }

  /** Names each component of a {@link CgroupSample}; not thread-safe. */
  public static final class Builder {
    private final Instant timestamp;
    private final CgroupVersion version;
    private Map<String, CgroupStats> containers = Map.of();
    private Map<String, CgroupStats> pods = Map.of();
    private Map<String, List<NetDevInterface>> podNetworks = Map.of();
    private List<String> missing = List.of();
    private final NodePressure node;
    private @Nullable KubepodsCgroup kubepods;

    private Builder(Instant timestamp, CgroupVersion version, NodePressure node) {
      this.timestamp = Objects.requireNonNull(timestamp, "timestamp");
      this.version = Objects.requireNonNull(version, "version");
      this.node = Objects.requireNonNull(node, "node");
    }

    public Builder containers(Map<String, CgroupStats> value) {
      this.containers = value;
      return this;
    }

    public Builder pods(Map<String, CgroupStats> value) {
      this.pods = value;
      return this;
    }

    public Builder podNetworks(Map<String, List<NetDevInterface>> value) {
      this.podNetworks = value;
      return this;
    }

    public Builder missing(List<String> value) {
      this.missing = value;
      return this;
    }

    public Builder kubepods(@Nullable KubepodsCgroup value) {
      this.kubepods = value;
      return this;
    }

    public CgroupSample build() {
      return new CgroupSample(timestamp, version, containers, pods, podNetworks, missing, node, kubepods);
    }
  }
}
