package io.winstats.cri.cgroups;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.PodSampleBuilder;
import io.winstats.cri.RuntimeSample;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The pod figures a {@code ListContainerStats} round lacks on Linux, from the cgroup round read after it: what
 * {@code ListPodSandboxStats} would have cost containerd 1.6 a {@code runc ps} per sandbox and container for.
 *
 * <ul>
 *   <li>Network: the {@code eth0} line of the pod's {@code /proc/<pause pid>/net/dev}, the interface and kernel
 *       counters containerd reads for {@code ListPodSandboxStats} ({@code getContainerNetIO}: netlink's statistics of
 *       {@code eth0} in the pod's namespace), stamped with the cgroup read's own time.
 *   <li>Process count: the lines of {@code cgroup.procs} summed over the pod's containers, the processes {@code runc
 *       ps} lists for each; containerd 1.6 gives the same count for the same pods (ExporterEndToEndIT).
 * </ul>
 *
 * A figure the round already has (Windows, {@code ListPodSandboxStats}) is kept; one the cgroups lack stays absent.
 */
public final class CgroupPodFigures {
  /** The interface containerd names the pod's default one on Linux ({@code defaultIfName}). */
  static final String DEFAULT_INTERFACE = "eth0";

  private CgroupPodFigures() {}

  /** {@code round} with the missing pod figures from {@code cgroups}; {@code null} when it gained none. */
  public static @Nullable RuntimeSample join(RuntimeSample round, CgroupSample cgroups) {
    List<PodSample> pods = new ArrayList<>(round.pods().size());
    boolean changed = false;
    for (PodSample pod : round.pods()) {
      NetworkUsage network = pod.network() != null ? null : network(pod, cgroups);
      Long processes = pod.processCount() != null ? null : processes(pod, cgroups);
      if (network == null && processes == null) {
        pods.add(pod);
        continue;
      }
      PodSampleBuilder joined = pod.toBuilder();
      if (network != null) {
        joined.network(network);
      }
      if (processes != null) {
        joined.processCount(processes);
      }
      pods.add(joined.build());
      changed = true;
    }
    return changed ? round.toBuilder().pods(pods).build() : null;
  }

  private static @Nullable NetworkUsage network(PodSample pod, CgroupSample cgroups) {
    List<NetDevInterface> interfaces = cgroups.podNetworks().get(pod.sandboxId());
    if (interfaces == null) {
      return null;
    }
    for (NetDevInterface nic : interfaces) {
      if (nic.name().equals(DEFAULT_INTERFACE)) {
        return new NetworkUsage(
            cgroups.timestamp(),
            List.of(
                InterfaceUsage.builder(nic.name())
                    .rxBytes(nic.rxBytes())
                    .rxErrors(nic.rxErrors())
                    .txBytes(nic.txBytes())
                    .txErrors(nic.txErrors())
                    .build()));
      }
    }
    return null;
  }

  private static @Nullable Long processes(PodSample pod, CgroupSample cgroups) {
    long sum = 0;
    for (ContainerSample c : pod.containers()) {
      CgroupStats stats = cgroups.containers().get(c.id());
      CgroupProcesses p = stats == null ? null : stats.processes();
      if (p == null) {
        return null; // a partial sum would read as fewer processes
      }
      sum += p.processes();
    }
    return pod.containers().isEmpty() ? null : sum;
  }
}
