package io.winstats.exporter.sampling;

import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupPodFigures;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.perfcounters.NodeSample;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/** The one published {@link Snapshot}. Writers are the sampling loops; readers are request handlers. Thread-safe. */
public final class SnapshotStore {
  private final AtomicReference<Snapshot> current;

  /** A store that waits for a runtime: until its first round, the runtime counts as failing. */
  public SnapshotStore() {
    this(Snapshot.EMPTY);
  }

  private SnapshotStore(Snapshot first) {
    current = new AtomicReference<>(first);
  }

  /**
   * A store for a daemon that reads no runtime ({@code --no-collector.cri}): no runtime sample ever comes, and none
   * is missing, so {@code container_scrape_error} and {@code resource_scrape_error} stay 0.
   */
  public static SnapshotStore withoutRuntime() {
    return new SnapshotStore(new Snapshot(0, null, null, null, null));
  }

  /** The newest snapshot. Never blocks. */
  public Snapshot current() {
    // Starts at a first snapshot and is only replaced by new ones; NullAway models AtomicReference.get() as nullable.
    return Objects.requireNonNull(current.get(), "current");
  }

  /** Publishes a node sample; the one it replaces becomes {@link Snapshot#previousNode()}. */
  public void publishNode(NodeSample sample) {
    current.updateAndGet(
        s -> new Snapshot(s.version() + 1, sample, s.node(), s.runtime(), s.runtimeError(), s.cgroups()));
  }

  /** Publishes a successful runtime round; the cgroup sample stays until {@link #publishCgroups} replaces it. */
  public void publishRuntime(RuntimeSample sample) {
    current.updateAndGet(s -> new Snapshot(s.version() + 1, s.node(), s.previousNode(), sample, null, s.cgroups()));
  }

  /** Publishes the cgroups read after the latest runtime round ({@code null} where they could not be read). */
  public void publishCgroups(@Nullable CgroupSample cgroups) {
    current.updateAndGet(
        s -> new Snapshot(s.version() + 1, s.node(), s.previousNode(), s.runtime(), s.runtimeError(), cgroups));
  }

  /** Publishes a runtime round again, joined with the cgroups read after it ({@link CgroupPodFigures}), at once. */
  public void publishRuntimeAndCgroups(RuntimeSample sample, CgroupSample cgroups) {
    current.updateAndGet(
        s -> new Snapshot(s.version() + 1, s.node(), s.previousNode(), sample, s.runtimeError(), cgroups));
  }

  /** Records a failed runtime round; the previous runtime sample stays, stale by its own timestamp. */
  public void runtimeFailed(String reason) {
    current.updateAndGet(
        s -> new Snapshot(s.version() + 1, s.node(), s.previousNode(), s.runtime(), reason, s.cgroups()));
  }
}
