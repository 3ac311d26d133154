package io.winstats.exporter.sampling;

import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.perfcounters.NodeSample;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/** The one published {@link Snapshot}. Writers are the sampling loops; readers are request handlers. Thread-safe. */
public final class SnapshotStore {
  private final AtomicReference<Snapshot> current = new AtomicReference<>(Snapshot.EMPTY);

  /** The newest snapshot. Never blocks. */
  public Snapshot current() {
    // Starts at EMPTY and is only replaced by new snapshots; NullAway models AtomicReference.get() as nullable.
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

  /** Records a failed runtime round; the previous runtime sample stays, stale by its own timestamp. */
  public void runtimeFailed(String reason) {
    current.updateAndGet(s -> new Snapshot(s.version() + 1, s.node(), s.previousNode(), s.runtime(), reason, s.cgroups()));
  }
}
