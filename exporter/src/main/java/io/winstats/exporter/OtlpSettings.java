package io.winstats.exporter;

import java.time.Duration;
import java.util.List;

/**
 * The OTLP push's settings ({@code otlp.*}), in {@link #ALL}. Where to push and how (endpoint, protocol, headers,
 * timeout, compression, certificates) are the standard {@code OTEL_EXPORTER_OTLP_*} variables, read by the
 * OpenTelemetry SDK itself only when the push is on (docs/OTLP.md).
 */
final class OtlpSettings {
  private OtlpSettings() {}

  static final Setting<Boolean> ENABLED =
      Setting.offSwitch(
          "otlp.enabled",
          "Also push the figures /metrics serves over OTLP (gRPC or HTTP/protobuf), names mapped to OpenTelemetry's"
              + " semantic conventions, to the endpoint the standard OTEL_EXPORTER_OTLP_* variables name. Off: no"
              + " OpenTelemetry class is loaded.");

  static final Setting<Duration> INTERVAL =
      Setting.valued(
          "otlp.interval",
          "DURATION",
          null,
          "How often to push (at least 1s). Default: $OTEL_METRIC_EXPORT_INTERVAL, else 60s.",
          text -> SettingChecks.duration(text, Duration.ofSeconds(1)))
          .withExample("30s");

  /** The group's settings, in usage order ({@code --help}'s). */
  static final List<Setting<?>> ALL = List.of(ENABLED, INTERVAL);
}
