package io.winstats.exporter.otlp;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The one map from {@code /metrics} families to OpenTelemetry semantic-convention names (docs/OTLP.md lists the same
 * rows; {@code OtlpNamesDocTest} fails when they differ). A family with no row keeps its Prometheus name. A point is a
 * container's, a pod's or the node's by its labels ({@link OtlpResources}); a row names the metric for each level a
 * convention exists for, and a level it leaves null keeps the Prometheus name there.
 */
public final class OtlpNames {
  private OtlpNames() {}

  /** How a mapped metric is sent: the convention's instrument. */
  public enum Instrument {
    /** A monotonic cumulative sum. */
    COUNTER,
    /** A non-monotonic cumulative sum (a figure that goes up and down, as the conventions send memory and bytes). */
    UPDOWNCOUNTER
  }

  /**
   * One row.
   *
   * @param prometheus the family as {@code /metrics} names it
   * @param container the metric for a container's points, or null
   * @param pod the metric for a pod's points, or null
   * @param node the metric for the node's points, or null
   * @param unit the convention's unit (UCUM)
   * @param instrument the convention's instrument
   * @param direction the {@code network.io.direction} the family stands for, or null
   */
  public record Row(
      String prometheus,
      @Nullable String container,
      @Nullable String pod,
      @Nullable String node,
      String unit,
      Instrument instrument,
      @Nullable String direction) {
    public Row {
      Objects.requireNonNull(prometheus, "prometheus");
      Objects.requireNonNull(unit, "unit");
      Objects.requireNonNull(instrument, "instrument");
    }

    /** The metric for a point of {@code level}, or null where the Prometheus name stays. */
    public @Nullable String name(OtlpResources.Level level) {
      return switch (level) {
        case CONTAINER -> container;
        case POD -> pod;
        case NODE -> node;
      };
    }
  }

  private static final Instrument C = Instrument.COUNTER;
  private static final Instrument U = Instrument.UPDOWNCOUNTER;

  /** Every row, in docs/OTLP.md's order. */
  public static final List<Row> ROWS =
      List.of(
          new Row("container_cpu_usage_seconds_total", "container.cpu.time", "k8s.pod.cpu.time", "k8s.node.cpu.time",
              "s", C, null),
          new Row("container_memory_usage_bytes", "container.memory.usage", "k8s.pod.memory.usage",
              "k8s.node.memory.usage", "By", U, null),
          new Row("container_memory_working_set_bytes", "container.memory.working_set", "k8s.pod.memory.working_set",
              "k8s.node.memory.working_set", "By", U, null),
          new Row("container_memory_rss", "container.memory.rss", "k8s.pod.memory.rss", "k8s.node.memory.rss", "By",
              U, null),
          new Row("container_network_receive_bytes_total", "container.network.io", "k8s.pod.network.io",
              "k8s.node.network.io", "By", C, "receive"),
          new Row("container_network_transmit_bytes_total", "container.network.io", "k8s.pod.network.io",
              "k8s.node.network.io", "By", C, "transmit"),
          new Row("container_network_receive_errors_total", null, "k8s.pod.network.errors", "k8s.node.network.errors",
              "{error}", C, "receive"),
          new Row("container_network_transmit_errors_total", null, "k8s.pod.network.errors",
              "k8s.node.network.errors", "{error}", C, "transmit"),
          new Row("container_fs_usage_bytes", "container.filesystem.usage", null, null, "By", U, null),
          new Row("container_fs_limit_bytes", "container.filesystem.capacity", null, null, "By", U, null),
          new Row("winstats_pod_ephemeral_storage_used_bytes", null, "k8s.pod.filesystem.usage", null, "By", U, null),
          new Row("winstats_pod_ephemeral_storage_capacity_bytes", null, "k8s.pod.filesystem.capacity", null, "By", U,
              null));

  private static final Map<String, Row> BY_PROMETHEUS =
      ROWS.stream().collect(Collectors.toUnmodifiableMap(Row::prometheus, Function.identity()));

  /** The row of a {@code /metrics} family, or null when it keeps its name everywhere. */
  public static @Nullable Row row(String prometheus) {
    return BY_PROMETHEUS.get(prometheus);
  }
}
