package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.exporter.sampling.Snapshot;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A collector whose series depend only on the published snapshot: built once per {@link Snapshot#version()} and
 * reused by every scrape and exposition format of that version. Thread-safe: a race builds twice, never wrongly.
 */
abstract class PerVersionCollector implements MultiCollector {
  private record Cached(long version, MetricSnapshots snapshots) {}

  private final Supplier<Snapshot> snapshots;
  private volatile @Nullable Cached cached;

  PerVersionCollector(Supplier<Snapshot> snapshots) {
    this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
  }

  @Override
  public final MetricSnapshots collect() {
    Snapshot snapshot = snapshots.get();
    Cached c = cached;
    if (c != null && c.version() == snapshot.version()) {
      return c.snapshots();
    }
    MetricSnapshots built = build(snapshot);
    cached = new Cached(snapshot.version(), built);
    return built;
  }

  /** The series of one snapshot. */
  abstract MetricSnapshots build(Snapshot snapshot);
}
