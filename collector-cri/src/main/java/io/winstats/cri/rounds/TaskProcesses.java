package io.winstats.cri.rounds;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.grpc.Channel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.winstats.cri.api.containerd.ListPidsRequest;
import io.winstats.cri.api.containerd.TasksGrpc;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pod's process count as containerd's Windows CRI code counts it, without a CRI stats call: {@code len(task.Pids)}
 * of the sandbox's task plus that of each running container's ({@code getSandboxPidCount},
 * internal/cri/server/sandbox_stats_windows.go:389-443@v2.3.4, 401-447@v2.0.0), each through the Tasks service's
 * {@code ListPids} ({@code local.ListPids}, plugins/services/tasks/local.go:490-516@v2.3.4), which asks the shim. The
 * runhcs shim lists every process HCS reports in the container ({@code hcsTask.Pids}, a {@code ProcessList} query,
 * cmd/containerd-shim-runhcs-v1/task_hcs.go:559-600@v0.13.0), a HostProcess container's job-object processes
 * (internal/jobcontainers/jobcontainer.go:572-600), and one process, its own, for a sandbox task that is no
 * container (a HostProcess or Hyper-V pod's, {@code wcowPodSandboxTask.Pids}, task_wcow_podsandbox.go:162-169).
 *
 * <p>As containerd counts: a sandbox whose task is gone makes the pod's count 0 (the early {@code return 0, nil} on
 * {@code NotFound}); a container whose task is gone adds nothing. containerd asks anew on every stats call; this class
 * keeps each task's count for {@link #REFRESH}, so a task is asked at most once per {@link #REFRESH} whatever the
 * sampling interval. Each ask is a query of the shim (on Windows an HCS process list per task; here, through runc's
 * shim, 0.37 ms of the daemon's CPU and 0.62 ms of containerd's per call, about 22 mCPU at 110 pods every 10 s), for
 * a figure that moves when processes start or end: 30 s costs a third of that and is still within three sampling
 * rounds.
 *
 * <p>A {@code ListPids} that fails for another reason (a shim that does not answer in time, an HCS error) leaves the
 * pod's count unmeasured, kept so until {@link #REFRESH}; it never drops the CPU and memory {@code Tasks.Metrics} gave
 * for the pod, nor the other pods'. containerd's own {@code getSandboxPidCount} returns such an error, which fails that
 * pod's {@code podSandboxStats} (sandbox_stats_windows.go:79-82@v2.3.4) and with it the whole {@code
 * ListPodSandboxStats} answer (sandbox_stats_list.go:50-66): the one figure lost here is the count. Not thread-safe:
 * one round at a time.
 */
final class TaskProcesses {
  static final String METHOD = "Tasks.ListPids";

  /** How long a task's count is served before it is asked again. */
  static final Duration REFRESH = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(TaskProcesses.class);

  /** The count kept for a task whose {@code ListPids} failed: unmeasured until {@link #REFRESH}. */
  private static final int UNMEASURED = -1;

  private final TasksGrpc.TasksBlockingStub tasks;
  private final RuntimeContext context;
  private final Cache<String, Integer> counted;
  private @Nullable String failure;

  TaskProcesses(RuntimeContext context, Channel channel) {
    Metadata headers = new Metadata();
    headers.put(TaskMetrics.NAMESPACE_HEADER, TaskMetrics.NAMESPACE);
    this.tasks =
        TasksGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    this.context = Objects.requireNonNull(context, "context");
    this.counted =
        Caffeine.newBuilder()
            .expireAfterWrite(REFRESH)
            .maximumSize(RuntimeStatsReader.CACHE_MAXIMUM_SIZE)
            .ticker(context.ticker())
            .executor(Runnable::run)
            .<String, Integer>build();
  }

  /**
   * The processes of the pod whose sandbox task is {@code sandboxId} and whose running containers are {@code
   * runningIds}.
   *
   * @return the count; {@code null} when one of the tasks' {@code ListPids} failed for another reason than the task
   *     being gone
   */
  @Nullable Long podCount(String sandboxId, Collection<String> runningIds) {
    Integer sandbox = count(sandboxId);
    if (sandbox == null) {
      return 0L;
    }
    if (sandbox == UNMEASURED) {
      return null;
    }
    long total = sandbox;
    for (String id : runningIds) {
      Integer n = count(id);
      if (n != null && n == UNMEASURED) {
        return null;
      }
      if (n != null) {
        total += n;
      }
    }
    return total;
  }

  /** Forgets every kept count, and so every kept failure: the tasks are asked anew. */
  void forget() {
    counted.invalidateAll();
  }

  /** The last {@code ListPids} failure since the previous call, then forgotten; {@code null} without one. */
  @Nullable String takeFailure() {
    String last = failure;
    failure = null;
    return last;
  }

  /** Entries kept: one count per task read within {@link #REFRESH}. */
  long size() {
    counted.cleanUp();
    return counted.estimatedSize();
  }

  private @Nullable Integer count(String taskId) {
    Integer known = counted.getIfPresent(taskId);
    if (known != null) {
      return known;
    }
    int n;
    try {
      n =
          context
              .withDeadline(tasks)
              .listPids(ListPidsRequest.newBuilder().setContainerId(taskId).build())
              .getProcessesCount();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return null;
      }
      LOG.debug("event=cri_process_count_unmeasured task={} cause={}", taskId, e.getStatus());
      failure = "task " + taskId + ": " + e.getStatus().getCode() + ": " + e.getStatus().getDescription();
      n = UNMEASURED;
    }
    counted.put(taskId, n);
    return n;
  }
}
