package io.winstats.exporter.metrics;

import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.jspecify.annotations.Nullable;

/**
 * Writes metric snapshots in the format a client asks for, with client_java's own exposition writers (Prometheus text
 * 0.0.4, OpenMetrics 1.0, Prometheus protobuf): no format code of ours.
 */
public final class MetricsRenderer {
  /** A rendered body and its content type. */
  public record Rendered(byte[] body, String contentType) {}

  /**
   * Text 0.0.4 timestamps are integer milliseconds; client_java writes seconds unless told otherwise, which
   * Prometheus rejects.
   */
  private final ExpositionFormats formats =
      ExpositionFormats.init(ExporterProperties.builder().prometheusTimestampsInMs(true).build());
  private final PrometheusTextFormatWriter text = formats.getPrometheusTextFormatWriter();

  /** The registry's current snapshots, in the format {@code accept} prefers (text when it names none we write). */
  public Rendered render(PrometheusRegistry registry, @Nullable String accept) {
    ExpositionFormatWriter writer = formats.findWriter(accept);
    return write(writer, registry.scrape());
  }

  /** Prometheus text 0.0.4, as the kubelet serves {@code /metrics/resource}. */
  public Rendered renderText(MetricSnapshots snapshots) {
    return write(text, snapshots);
  }

  private static Rendered write(ExpositionFormatWriter writer, MetricSnapshots snapshots) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    try {
      writer.write(out, snapshots);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Rendered(out.toByteArray(), writer.getContentType());
  }
}
