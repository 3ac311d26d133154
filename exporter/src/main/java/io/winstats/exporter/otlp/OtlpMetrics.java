package io.winstats.exporter.otlp;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.Data;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.GaugeData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.data.SumData;
import io.opentelemetry.sdk.metrics.export.MetricProducer;
import io.opentelemetry.sdk.resources.Resource;
import io.winstats.exporter.metrics.ServedFamilies;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The SDK's metric producer: at each collection, the families of the newest snapshot as {@code /metrics} serves them
 * (no second collection), one OTLP metric per name and resource. A counter is a monotonic cumulative sum, a gauge a
 * gauge and an info family a gauge of 1; a family with a row in {@link OtlpNames} takes the row's name, unit and
 * instrument at the levels the row names. A point's time is its sample's where {@code /metrics} writes one, else the
 * collection's, as a scrape would stamp it; cumulative sums start when the push started.
 */
final class OtlpMetrics implements MetricProducer {
  private final Supplier<ServedFamilies> series;
  private final Resource node;
  private final InstrumentationScopeInfo scope;
  private final Clock clock;
  private final long startNanos;

  /**
   * @param series the newest snapshot's families
   * @param node the node's attributes, merged into the SDK's resource at each collection
   */
  OtlpMetrics(Supplier<ServedFamilies> series, Resource node, String version, Clock clock) {
    this.series = series;
    this.node = node;
    this.scope = InstrumentationScopeInfo.builder("io.winstats.exporter").setVersion(version).build();
    this.clock = clock;
    this.startNanos = nanos(clock.millis());
  }

  private record Key(Resource resource, String name) {}

  /** The points of one metric and resource, with the family that named it. */
  private static final class Metric {
    final String help;
    final String unit;
    final MetricDataType type;
    final boolean monotonic;
    final List<DoublePointData> points = new ArrayList<>();

    Metric(String help, String unit, MetricDataType type, boolean monotonic) {
      this.help = help;
      this.unit = unit;
      this.type = type;
      this.monotonic = monotonic;
    }
  }

  @Override
  public Collection<MetricData> produce(Resource sdkResource) {
    return toMetricData(series.get(), sdkResource);
  }

  /** The families as OTLP metrics under the SDK's resource plus the node's and each pod's or container's. */
  List<MetricData> toMetricData(ServedFamilies pushed, Resource sdkResource) {
    long now = nanos(clock.millis());
    OtlpResources resources = new OtlpResources(sdkResource.merge(node), pushed.families());
    Map<Key, Metric> metrics = new LinkedHashMap<>();
    for (ServedFamilies.Family family : pushed.families()) {
      OtlpNames.Row row = OtlpNames.row(family.name());
      for (ServedFamilies.Point p : family.points()) {
        OtlpResources.Placed placed = resources.place(p.labels());
        String mapped = row == null ? null : row.name(placed.level());
        Metric metric;
        AttributesBuilder attributes = Attributes.builder();
        if (row != null && mapped != null) {
          boolean counter = row.instrument() == OtlpNames.Instrument.COUNTER;
          metric =
              metrics.computeIfAbsent(
                  new Key(placed.resource(), mapped),
                  k -> new Metric(family.help(), row.unit(), MetricDataType.DOUBLE_SUM, counter));
          placed.attributes().forEach(
              (name, value) -> {
                String label = mappedLabel(name, value, row);
                if (label != null) {
                  attributes.put(label, value);
                }
              });
          if (row.direction() != null) {
            attributes.put("network.io.direction", row.direction());
          }
        } else {
          boolean counter = family.type() == ServedFamilies.Type.COUNTER;
          metric =
              metrics.computeIfAbsent(
                  new Key(placed.resource(), family.name()),
                  k -> new Metric(family.help(), "", counter ? MetricDataType.DOUBLE_SUM : MetricDataType.DOUBLE_GAUGE,
                      true));
          placed.attributes().forEach(attributes::put);
        }
        long at = p.timestampMillis() == 0 ? now : nanos(p.timestampMillis());
        metric.points.add(DoublePointData.create(startNanos, at, attributes.build(), p.value(), List.of()));
      }
    }
    List<MetricData> out = new ArrayList<>(metrics.size());
    metrics.forEach(
        (key, m) -> out.add(new OtlpMetric(key.resource(), scope, key.name(), m.help, m.unit, m.type, data(m))));
    return out;
  }

  /**
   * A mapped family's label under the conventions' name: {@code interface} is {@code network.interface.name}; the
   * cAdvisor CPU total's constant {@code cpu="total"} goes (the convention's total has no mode), others stay.
   */
  private static @Nullable String mappedLabel(String label, String value, OtlpNames.Row row) {
    if (label.equals("cpu") && value.equals("total") && row.unit().equals("s")) {
      return null;
    }
    return label.equals("interface") && row.direction() != null ? "network.interface.name" : label;
  }

  private static Data<?> data(Metric m) {
    if (m.type == MetricDataType.DOUBLE_GAUGE) {
      return GaugeData.createDoubleGaugeData(m.points);
    }
    return SumData.createDoubleSumData(m.monotonic, AggregationTemporality.CUMULATIVE, m.points);
  }

  private static long nanos(long millis) {
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }

  /** One OTLP metric; the SDK offers no public factory for its {@link MetricData}. */
  private record OtlpMetric(
      Resource resource,
      InstrumentationScopeInfo scope,
      String name,
      String description,
      String unit,
      MetricDataType type,
      Data<?> data)
      implements MetricData {
    @Override
    public Resource getResource() {
      return resource;
    }

    @Override
    public InstrumentationScopeInfo getInstrumentationScopeInfo() {
      return scope;
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public String getDescription() {
      return description;
    }

    @Override
    public String getUnit() {
      return unit;
    }

    @Override
    public MetricDataType getType() {
      return type;
    }

    @Override
    public Data<?> getData() {
      return data;
    }
  }
}
