package io.winstats.cri.testing;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A Windows pod as containerd's stores hold it: its sandbox task's statistics, its containers and its HNS endpoints.
 *
 * @param id the sandbox id
 * @param name the pod name
 * @param namespace the pod namespace
 * @param uid the pod uid
 * @param createdNanos creation time, nanoseconds since the epoch
 * @param hostProcess a HostProcess pod: its sandbox has no statistics ({@code convertMetricsToWindowsStats} keeps a
 *     nil entry for it) and no network namespace
 * @param sandbox the sandbox task's statistics; {@code null} for HostProcess pods
 * @param containers every container containerd holds for the pod, running or not
 * @param endpoints the endpoints of the pod's network namespace; {@code null} when HNS cannot list them (containerd
 *     then sends no network at all)
 * @param processCount {@code len(task.Pids)} summed over the sandbox and its running containers, as containerd's
 *     {@code getSandboxPidCount} sends it (internal/cri/server/sandbox_stats_windows.go:389-443@v2.3.4); the sandbox
 *     task's own share is what the running containers' {@link WindowsContainer#processes()} leave of it ({@link
 *     #sandboxProcesses()})
 * @param hyperV a Hyper-V isolated pod: its sandbox task is the utility VM's ({@code wcowPodSandboxTask} with a host,
 *     hcsshim cmd/containerd-shim-runhcs-v1/pod.go:203-214@v0.13.0), whose task statistics are {@code vm} only; CRI
 *     then has no sandbox figures ({@code convertToCRIStats} reads {@code windows} only)
 */
public record WindowsPod(
    String id,
    String name,
    String namespace,
    String uid,
    long createdNanos,
    boolean hostProcess,
    @Nullable HcsReading sandbox,
    List<WindowsContainer> containers,
    @Nullable List<HnsEndpoint> endpoints,
    long processCount,
    boolean hyperV) {
  public WindowsPod {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(uid, "uid");
    containers = List.copyOf(containers);
    endpoints = endpoints == null ? null : List.copyOf(endpoints);
    if (hostProcess && sandbox != null) {
      throw new IllegalArgumentException("a HostProcess sandbox has no statistics of its own");
    }
    if (hyperV && hostProcess) {
      throw new IllegalArgumentException("a HostProcess pod runs on the host, not in a utility VM");
    }
    if (processCount < containers.stream().filter(WindowsPod::hasTask).mapToLong(WindowsContainer::processes).sum()) {
      throw new IllegalArgumentException("processCount is below the running containers' processes");
    }
  }

  /** Whether the container's task runs, so that {@code Tasks.ListPids} and {@code getSandboxPidCount} count it. */
  static boolean hasTask(WindowsContainer c) {
    return c.running() && c.reading() != null;
  }

  /** The processes the sandbox's own task lists: {@link #processCount} less the running containers'. */
  public long sandboxProcesses() {
    return processCount - containers.stream().filter(WindowsPod::hasTask).mapToLong(WindowsContainer::processes).sum();
  }

  /** A process-isolated or HostProcess pod. */
  public WindowsPod(
      String id,
      String name,
      String namespace,
      String uid,
      long createdNanos,
      boolean hostProcess,
      @Nullable HcsReading sandbox,
      List<WindowsContainer> containers,
      @Nullable List<HnsEndpoint> endpoints,
      long processCount) {
    this(id, name, namespace, uid, createdNanos, hostProcess, sandbox, containers, endpoints, processCount, false);
  }

  /**
   * A Hyper-V isolated pod with one HNS endpoint: {@code vm} is its utility VM's reading (total CPU and working set:
   * {@code VirtualMachineStatistics}), which only containerd's Tasks service passes on.
   */
  public static WindowsPod hyperV(
      String id, String name, String namespace, long createdNanos, HcsReading vm, List<WindowsContainer> containers) {
    return new WindowsPod(
        id,
        name,
        namespace,
        "uid-" + id,
        createdNanos,
        false,
        vm,
        containers,
        List.of(new HnsEndpoint("ep-" + id, 1000, 2000, 1, 2)),
        // wcowPodSandboxTask.Pids lists its one (faked init) process
        // (cmd/containerd-shim-runhcs-v1/task_wcow_podsandbox.go:162-169@v0.13.0), plus the containers'.
        1 + containers.stream().filter(WindowsPod::hasTask).mapToLong(WindowsContainer::processes).sum(),
        true);
  }

  /** A process-isolated pod with one HNS endpoint named {@code ep-<id>}. */
  public static WindowsPod isolated(
      String id, String name, String namespace, long createdNanos, HcsReading sandbox, List<WindowsContainer> containers) {
    return new WindowsPod(
        id,
        name,
        namespace,
        "uid-" + id,
        createdNanos,
        false,
        sandbox,
        containers,
        List.of(new HnsEndpoint("ep-" + id, 1000, 2000, 1, 2)),
        1 + containers.stream().filter(WindowsPod::hasTask).mapToLong(WindowsContainer::processes).sum());
  }

  /** A HostProcess pod: no sandbox statistics, host network (no endpoints of its own). */
  public static WindowsPod hostProcess(
      String id, String name, String namespace, long createdNanos, List<WindowsContainer> containers) {
    return new WindowsPod(
        id,
        name,
        namespace,
        "uid-" + id,
        createdNanos,
        true,
        null,
        containers,
        List.of(),
        // The job container's sandbox is a faked wcowPodSandboxTask (pod.go:147-149@v0.13.0), whose Pids lists one
        // process (task_wcow_podsandbox.go:162-169), plus the containers'.
        1 + containers.stream().filter(WindowsPod::hasTask).mapToLong(WindowsContainer::processes).sum());
  }

  /**
   * The same pod with its sandbox reading and containers replaced; its process count follows the containers whose
   * tasks run, the sandbox's own share kept.
   */
  public WindowsPod with(@Nullable HcsReading nextSandbox, UnaryOperator<List<WindowsContainer>> nextContainers) {
    List<WindowsContainer> next = nextContainers.apply(containers);
    long count = sandboxProcesses() + next.stream().filter(WindowsPod::hasTask).mapToLong(WindowsContainer::processes).sum();
    return new WindowsPod(
        id, name, namespace, uid, createdNanos, hostProcess, nextSandbox, next, endpoints, count, hyperV);
  }
}
