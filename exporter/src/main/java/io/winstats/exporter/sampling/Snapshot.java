package io.winstats.exporter.sampling;

import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.perfcounters.NodeSample;
import org.jspecify.annotations.Nullable;

/**
 * Everything the daemon serves, as of one moment. Immutable; a new version is published whenever a source publishes.
 *
 * @param version increases by one with every publication; render caches key on it
 * @param node the newest node sample, {@code null} until the first one
 * @param previousNode the node sample before it, for rates
 * @param runtime the newest runtime sample; kept (and growing stale by its timestamp) while the runtime fails
 * @param runtimeError why the latest runtime round failed, {@code null} while it succeeds
 * @param cgroups the cgroups of {@code runtime}'s containers and pods, read and published right after its round (until
 *     then, the previous round's, joined by id); {@code null} on hosts without cgroups (Windows) and until the first
 *     round
 */
public record Snapshot(
    long version,
    @Nullable NodeSample node,
    @Nullable NodeSample previousNode,
    @Nullable RuntimeSample runtime,
    @Nullable String runtimeError,
    @Nullable CgroupSample cgroups) {

  static final Snapshot EMPTY = new Snapshot(0, null, null, null, "no runtime sample yet");

  /** A snapshot without cgroup figures (Windows nodes, tests of the CRI-derived series). */
  public Snapshot(
      long version,
      @Nullable NodeSample node,
      @Nullable NodeSample previousNode,
      @Nullable RuntimeSample runtime,
      @Nullable String runtimeError) {
    this(version, node, previousNode, runtime, runtimeError, null);
  }

  /** Whether the daemon has anything to serve: a first node sample exists. */
  public boolean ready() {
    return node != null;
  }

  /** Whether the latest runtime round failed ({@code container_scrape_error}). */
  public boolean runtimeFailing() {
    return runtimeError != null;
  }
}
