package io.winstats.exporter;

import java.time.Duration;
import java.util.Locale;

/**
 * The OTLP push's settings (listed in {@link Settings#ALL}). Where to push and how (endpoint, protocol, headers,
 * timeout, compression, certificates) are the standard {@code OTEL_EXPORTER_OTLP_*} variables, read by the
 * OpenTelemetry SDK itself only when the push is on (docs/OTLP.md).
 */
final class OtlpSettings {
  private OtlpSettings() {}

  static final Setting<Boolean> ENABLED =
      new Setting<>(
          "otlp.enabled",
          "",
          "false",
          "Also push the figures /metrics serves over OTLP (gRPC or HTTP/protobuf), names mapped to OpenTelemetry's"
              + " semantic conventions, to the endpoint the standard OTEL_EXPORTER_OTLP_* variables name. Off: no"
              + " OpenTelemetry class is loaded.",
          true,
          OtlpSettings::bool,
          ExporterConfig::otlpEnabled);

  static final Setting<Duration> INTERVAL =
      new Setting<>(
          "otlp.interval",
          "DURATION",
          null,
          "How often to push (at least 1s). Default: $OTEL_METRIC_EXPORT_INTERVAL, else 60s.",
          true,
          OtlpSettings::interval,
          c -> c.otlpInterval() == null ? null : DurationFlag.format(c.otlpInterval()));

  private static Boolean bool(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> throw new IllegalArgumentException("'" + text + "' is not true or false");
    };
  }

  private static Duration interval(String text) {
    Duration d = DurationFlag.parse(text);
    if (d.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(text + " is shorter than the minimum 1s");
    }
    return d;
  }
}
