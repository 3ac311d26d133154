package io.winstats.exporter.otlp;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.View;
import io.opentelemetry.sdk.resources.Resource;
import io.winstats.exporter.metrics.SeriesPush;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OTLP push: the SDK's autoconfiguration reads the standard variables
 * ({@code OTEL_EXPORTER_OTLP_[METRICS_]ENDPOINT},
 * {@code _PROTOCOL} grpc or http/protobuf, {@code _HEADERS}, {@code _TIMEOUT}, {@code _COMPRESSION}, {@code
 * _CERTIFICATE}, {@code OTEL_METRIC_EXPORT_INTERVAL}, {@code OTEL_RESOURCE_ATTRIBUTES}, {@code OTEL_SERVICE_NAME}) and
 * runs its periodic reader on its own thread, which collects {@link OtlpMetrics} and exports through the OTLP
 * exporter. Only metrics: traces and logs exporters are off whatever the environment says. The SDK's own
 * java.util.logging lines are off; a failed export is one line here and a count ({@link CountingExporter}).
 */
public final class OtlpPush implements SeriesPush.Provider {
  private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(OtlpPush.class);

  /** Held: java.util.logging keeps its loggers weakly, and a collected one forgets its level. */
  private static final Logger SDK_LOGGING = Logger.getLogger("io.opentelemetry");

  /** For {@link java.util.ServiceLoader}. */
  public OtlpPush() {}

  @Override
  public SeriesPush start(SeriesPush.Target target) {
    SDK_LOGGING.setLevel(Level.OFF);
    Resource node = Resource.create(
            Attributes.builder()
                .put("k8s.node.name", target.nodeName())
                .put("service.version", target.serviceVersion())
                .build());
    OtlpMetrics producer = new OtlpMetrics(target.series(), node, target.serviceVersion(), Clock.systemUTC());
    AtomicReference<ConfigProperties> effective = new AtomicReference<>();
    AutoConfiguredOpenTelemetrySdk configured;
    try {
      configured =
          AutoConfiguredOpenTelemetrySdk.builder()
              .addPropertiesSupplier(
                  () -> Map.of("otel.service.name", "winstats-exporter"))
              .addPropertiesCustomizer(
                  config -> {
                    Map<String, String> forced = new HashMap<>();
                    forced.put("otel.metrics.exporter", "otlp");
                    forced.put("otel.traces.exporter", "none");
                    forced.put("otel.logs.exporter", "none");
                    if (target.interval() != null) {
                      forced.put("otel.metric.export.interval", target.interval().toMillis() + "ms");
                    }
                    return forced;
                  })
              // The exporter's own instruments (otlp.exporter.seen/exported) are dropped: the push carries the
              // scrape's figures only, and the daemon counts its exports itself.
              .addMeterProviderCustomizer(
                  (builder, config) ->
                      builder
                          .registerMetricProducer(producer)
                          .registerView(
                              InstrumentSelector.builder().setName("*").build(),
                              View.builder().setAggregation(Aggregation.drop()).build()))
              .addMetricExporterCustomizer(
                  (exporter, config) -> {
                    effective.set(config);
                    return new CountingExporter(exporter, target.exported(), target.failed());
                  })
              .disableShutdownHook()
              .build();
    } catch (ConfigurationException e) {
      throw new IllegalArgumentException("--otlp.enabled: the OTEL_* settings are refused: " + e.getMessage(), e);
    }
    OpenTelemetrySdk sdk = configured.getOpenTelemetrySdk();
    ConfigProperties config = effective.get();
    if (config != null) {
      LOG.info(
          "event=otlp_push_started endpoint={} protocol={} interval={}",
          config.getString("otel.exporter.otlp.metrics.endpoint",
              config.getString("otel.exporter.otlp.endpoint", "default")),
          config.getString(
              "otel.exporter.otlp.metrics.protocol", config.getString("otel.exporter.otlp.protocol", "grpc")),
          config.getString("otel.metric.export.interval", "60000ms"));
    }
    return () -> sdk.shutdown().join(5, TimeUnit.SECONDS);
  }
}
