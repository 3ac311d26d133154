package io.winstats.cri.testing;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A pod that {@link CriTestClient#runPod} started. Closing it removes the pod (idempotent).
 *
 * <p>Cgroup layout (verified against runc with containerd's cgroupfs driver on cgroup v1): every pod gets its own
 * {@code cgroup_parent} {@code /<harness root>/pod<uid>}, and runc puts each container, the pause sandbox included,
 * in {@code /sys/fs/cgroup/<controller>/<cgroup_parent>/<container id>}. containerd's pod-level stats read the
 * {@code cgroup_parent} directory itself.
 */
public final class PodHandle implements AutoCloseable {
  private final CriTestClient client;
  private final String name;
  private final String namespace;
  private final String uid;
  private final String sandboxId;
  private final String cgroupParent;
  private final Map<String, String> containerIds;

  PodHandle(
      CriTestClient client,
      String name,
      String namespace,
      String uid,
      String sandboxId,
      String cgroupParent,
      Map<String, String> containerIds) {
    this.client = client;
    this.name = name;
    this.namespace = namespace;
    this.uid = uid;
    this.sandboxId = sandboxId;
    this.cgroupParent = cgroupParent;
    this.containerIds = new LinkedHashMap<>(containerIds);
  }

  public String name() {
    return name;
  }

  public String namespace() {
    return namespace;
  }

  /** The pod uid, unique per pod. */
  public String uid() {
    return uid;
  }

  /** The runtime's pod sandbox id. */
  public String sandboxId() {
    return sandboxId;
  }

  /** The pod's {@code linux.cgroup_parent}, such as {@code /winstats-ab12cd/pod<uid>}. */
  public String cgroupParent() {
    return cgroupParent;
  }

  /** The container names, in creation order. */
  public Set<String> containerNames() {
    return containerIds.keySet();
  }

  /**
   * The runtime's id of a container.
   *
   * @throws IllegalArgumentException if the pod has no such container
   */
  public String containerId(String containerName) {
    String id = containerIds.get(containerName);
    if (id == null) {
      throw new IllegalArgumentException("pod " + name + " has no container " + containerName);
    }
    return id;
  }

  /** The container's cgroup directory for one controller, e.g. {@code containerCgroup("cpuacct", "burn")}. */
  public Path containerCgroup(String controller, String containerName) {
    return cgroupOf(controller, containerId(containerName));
  }

  /** The cgroup directory of any container of this pod by id, such as a restarted one. */
  public Path cgroupOf(String controller, String containerId) {
    return podCgroup(controller).resolve(containerId);
  }

  /** The pod's cgroup directory for one controller (its cgroup parent). */
  public Path podCgroup(String controller) {
    Objects.requireNonNull(controller, "controller");
    return Cgroups.ROOT.resolve(controller).resolve(cgroupParent.substring(1));
  }

  /** Removes the pod: stop and remove the sandbox, then its cgroup directories. Idempotent. */
  @Override
  public void close() {
    client.removePod(this);
  }

  @Override
  public String toString() {
    return namespace + "/" + name + " (" + sandboxId + ")";
  }
}
