package io.winstats.exporter;

import java.time.Duration;
import java.util.List;

/** How often the sources are sampled ({@code sampling.*}), in {@link #ALL}. */
final class SamplingSettings {
  private SamplingSettings() {}

  static final Setting<Duration> INTERVAL =
      Setting.valued(
          "sampling.interval",
          "DURATION",
          "10s",
          "How often node counters and the runtime are sampled (at least 1s).",
          text -> SettingChecks.duration(text, Duration.ofSeconds(1)))
          .withExample("30s");

  /** The group's settings, in usage order ({@code --help}'s). */
  static final List<Setting<?>> ALL = List.of(INTERVAL);
}
