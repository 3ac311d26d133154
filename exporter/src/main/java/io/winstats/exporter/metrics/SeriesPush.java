package io.winstats.exporter.metrics;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A push of the scrape's families to somewhere else, running on its own schedule until closed. The OTLP push is the
 * one implementation; the daemon finds it through {@link java.util.ServiceLoader} only when a push is turned on, so
 * that with it off none of its classes (nor its library's) is loaded.
 */
public interface SeriesPush extends AutoCloseable {
  /** Stops pushing; a push under way is given a moment to finish. */
  @Override
  void close();

  /**
   * What a push needs from the daemon.
   *
   * @param nodeName the node the figures describe
   * @param serviceVersion the daemon's version
   * @param interval how often to push, or null for the library's own setting (its environment variable, else its
   *     default)
   * @param series the families of the newest snapshot, built as {@code /metrics} serves them
   * @param exported called once for each push attempted
   * @param failed called once for each push that failed
   */
  record Target(
      String nodeName,
      String serviceVersion,
      @Nullable Duration interval,
      Supplier<ServedFamilies> series,
      Runnable exported,
      Runnable failed) {
    public Target {
      Objects.requireNonNull(nodeName, "nodeName");
      Objects.requireNonNull(serviceVersion, "serviceVersion");
      Objects.requireNonNull(series, "series");
      Objects.requireNonNull(exported, "exported");
      Objects.requireNonNull(failed, "failed");
    }
  }

  /** Starts a push; registered as a service. */
  interface Provider {
    /**
     * Starts pushing {@code target}'s series.
     *
     * @throws IllegalArgumentException for a configuration the push refuses (its message names the setting)
     */
    SeriesPush start(Target target);
  }
}
