package io.winstats.perfcounters;

import java.util.Optional;

/**
 * A source of node-level counters: one implementation per platform (PDH on Windows, procfs on Linux) plus the replay
 * of a recorded counter log.
 *
 * <p>Implementations are called from one sampling thread at a time; they need not be thread-safe. A source opens its
 * OS handles in its factory or constructor and frees them in {@link #close()}.
 */
public interface NodeCounterSource extends AutoCloseable {

  /** A short stable name for logs and self-metrics, such as {@code procfs}, {@code pdh} or {@code replay}. */
  String name();

  /** The kind of node the samples describe: procfs a Linux node; PDH and Windows counter logs a Windows node. */
  NodePlatform platform();

  /**
   * Reads every counter once and returns an immutable sample stamped with the source's own time.
   *
   * <p>A part that could not be read (CPU, memory, network, filesystems, system) is left out of the sample and named in
   * {@link NodeSample#missing()} with its reason; the rest is still returned.
   *
   * @throws NodeSourceException when nothing at all could be read
   */
  NodeSample sample();

  /** Counter health and custom counter values, for a source that reads counters by path; empty for the others. */
  default Optional<PerfCounterReadings> perfCounterReadings() {
    return Optional.empty();
  }

  @Override
  void close();
}
