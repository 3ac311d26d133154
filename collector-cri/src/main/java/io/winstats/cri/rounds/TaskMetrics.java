package io.winstats.cri.rounds;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import io.grpc.Channel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.winstats.cri.api.containerd.Metric;
import io.winstats.cri.api.containerd.MetricsRequest;
import io.winstats.cri.api.containerd.Statistics;
import io.winstats.cri.api.containerd.TasksGrpc;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * containerd's own {@code Tasks.Metrics} over the CRI endpoint's channel: one call for a set of task ids, in the
 * namespace the CRI plugin keeps its tasks in. containerd's Windows CRI code makes the same call for a pod ({@code
 * listWindowsMetricsForSandbox}, internal/cri/server/sandbox_stats_windows.go:250-269@v2.3.4: one {@code id==<id>}
 * filter per container and one for the sandbox); this asks for every live task of the node at once.
 *
 * <p>The Tasks service answers ({@code local.Metrics} and {@code getTasksMetrics},
 * plugins/services/tasks/local.go:649-661,684-712@v2.3.4): the filters are OR-ed ({@code filters.ParseAll}); a task
 * whose shim fails or is gone is left out of the answer, not an error; a filter that does not parse, or a call without
 * the {@code containerd-namespace} header, fails the call as {@code UNKNOWN} (the error is returned unwrapped); a
 * namespace that holds no such tasks answers {@code OK} with no metrics. Each {@code Metric} carries the time
 * containerd asked the shim ({@code collected}) and the shim's {@code Any}, whose type URL is the bare message name
 * {@value #STATISTICS_TYPE} (typeurl's name for a proto message, no {@code type.googleapis.com/} prefix), so {@code
 * Any.is()} would answer false and {@code unpack()} throw: the URL is compared and the value parsed here.
 */
final class TaskMetrics {
  /**
   * The namespace containerd's CRI plugin creates its containers and tasks in ({@code
   * constants.K8sContainerdNamespace}).
   */
  static final String NAMESPACE = "k8s.io";

  /** containerd's namespace header on gRPC ({@code GRPCHeader}, pkg/namespaces/grpc.go). */
  static final Metadata.Key<String> NAMESPACE_HEADER =
      Metadata.Key.of("containerd-namespace", Metadata.ASCII_STRING_MARSHALLER);

  /** The runhcs shim's statistics message (cmd/containerd-shim-runhcs-v1/stats/stats.proto:3,10@v0.13.0). */
  static final String STATISTICS_TYPE = "containerd.runhcs.stats.v1.Statistics";

  static final String METHOD = "Tasks.Metrics";

  private final TasksGrpc.TasksBlockingStub tasks;
  private final RuntimeContext context;

  TaskMetrics(RuntimeContext context, Channel channel) {
    Metadata headers = new Metadata();
    headers.put(NAMESPACE_HEADER, NAMESPACE);
    this.tasks =
        TasksGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    this.context = Objects.requireNonNull(context, "context");
  }

  /** A task's decoded statistics, or why they could not be read. */
  record Reading(String taskId, Instant collectedAt, Statistics statistics) {}

  /** A task whose answer is not the runhcs statistics (another shim, a Linux task) or does not parse. */
  static final class UndecodableTask extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UndecodableTask(String message, @org.jspecify.annotations.Nullable Throwable cause) {
      super(message, cause, false, false);
    }
  }

  /**
   * One {@code Metrics} call for {@code taskIds}.
   *
   * @return the readings by task id; a task the runtime left out is absent
   * @throws RuntimeCalls.RpcFailure when the call fails
   * @throws UndecodableTask when a task's data is not the runhcs statistics
   */
  Map<String, Reading> read(Collection<String> taskIds) {
    MetricsRequest.Builder request = MetricsRequest.newBuilder();
    for (String id : taskIds) {
      request.addFilters("id==" + id);
    }
    java.util.List<Metric> metrics;
    try {
      metrics =
          context.withDeadline(tasks).metrics(request.build()).getMetricsList();
    } catch (StatusRuntimeException e) {
      throw new RuntimeCalls.RpcFailure(METHOD, e);
    }
    Map<String, Reading> readings = new HashMap<>();
    for (Metric m : metrics) {
      Instant collectedAt;
      try {
        collectedAt = instant(m.getTimestamp());
      } catch (IllegalArgumentException e) {
        throw new UndecodableTask("task " + m.getId() + ": " + e.getMessage(), e);
      }
      readings.put(m.getId(), new Reading(m.getId(), collectedAt, decode(m)));
    }
    return readings;
  }

  /**
   * The runhcs statistics of {@code m}: its type URL must name {@link #STATISTICS_TYPE}, bare as containerd sends it or
   * behind a prefix ending in {@code /} as {@code Any.pack} would write it.
   */
  static Statistics decode(Metric m) {
    if (!m.hasData()) {
      throw new UndecodableTask("task " + m.getId() + " sent no data", null);
    }
    String url = m.getData().getTypeUrl();
    if (!url.equals(STATISTICS_TYPE) && !url.endsWith("/" + STATISTICS_TYPE)) {
      throw new UndecodableTask("task " + m.getId() + " sent " + url + ", not " + STATISTICS_TYPE, null);
    }
    try {
      return Statistics.parseFrom(m.getData().getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new UndecodableTask("task " + m.getId() + ": " + STATISTICS_TYPE + " does not parse: " + e.getMessage(), e);
    }
  }

  /**
   * @throws IllegalArgumentException when the timestamp is past what an Instant holds (a shim's garbage, not a time):
   *     the container is skipped, or, for the metric's own timestamp, the task is undecodable
   */
  static Instant instant(Timestamp t) {
    try {
      return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
    } catch (DateTimeException | ArithmeticException e) {
      throw new IllegalArgumentException("timestamp out of range: " + t.getSeconds() + " s " + t.getNanos() + " ns", e);
    }
  }
}
