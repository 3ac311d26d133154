package io.winstats.exporter.sampling;

import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupSample;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Publishes each successful runtime round, then the cgroups of its pods and containers as a second publication. The
 * cgroup read runs on the CRI sampling thread but after the round is served, so it never delays the CRI figures (a
 * new pod, a deleted pod gone); until it lands, the previous cgroup sample stays, joined by id with the new round.
 */
public final class RuntimePublisher implements Consumer<RuntimeSample> {
  private final SnapshotStore store;
  private final Function<RuntimeSample, @Nullable CgroupSample> cgroups;

  /**
   * @param cgroups reads the cgroups of a round's pods and containers; {@code null} loses that round's cgroup series
   */
  public RuntimePublisher(SnapshotStore store, Function<RuntimeSample, @Nullable CgroupSample> cgroups) {
    this.store = Objects.requireNonNull(store, "store");
    this.cgroups = Objects.requireNonNull(cgroups, "cgroups");
  }

  @Override
  public void accept(RuntimeSample round) {
    store.publishRuntime(round);
    store.publishCgroups(cgroups.apply(round));
  }
}
