/**
 * Sampling on the daemon's own clock: one {@link io.winstats.exporter.sampling.SamplingLoop} per source publishes
 * into the {@link io.winstats.exporter.sampling.SnapshotStore}; HTTP readers only ever read the published
 * {@link io.winstats.exporter.sampling.Snapshot}.
 */
@NullMarked
package io.winstats.exporter.sampling;

import org.jspecify.annotations.NullMarked;
