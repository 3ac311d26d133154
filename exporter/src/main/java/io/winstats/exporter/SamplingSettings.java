package io.winstats.exporter;

import java.nio.file.Path;
import java.time.Duration;

/** How often the sources are sampled, and where node samples are recorded; listed in {@link Settings#ALL}. */
final class SamplingSettings {
  private SamplingSettings() {}

  static final Setting<Duration> INTERVAL =
      Setting.valued(
          "sampling.interval",
          "DURATION",
          "10s",
          "How often node counters and the runtime are sampled (at least 1s).",
          text -> SettingChecks.duration(text, Duration.ofSeconds(1)),
          c -> DurationFlag.format(c.samplingInterval()));

  static final Setting<Path> RECORD =
      Setting.valued(
          "record",
          "FILE",
          null,
          "Also record every node sample to FILE as a PDH-CSV counter log that --node.source=replay:FILE replays.",
          Path::of,
          c -> c.recordFile() == null ? null : c.recordFile().toString());
}
