package io.winstats.exporter.otlp;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured OTLP exporter, counting each export and each failed one. A failure is logged once, when the push
 * starts failing, and once more when it recovers; the periodic reader pushes again next interval, and nothing else in
 * the daemon waits for it.
 */
final class CountingExporter implements MetricExporter {
  private static final Logger LOG = LoggerFactory.getLogger(CountingExporter.class);

  private final MetricExporter delegate;
  private final Runnable exported;
  private final Runnable failed;
  private final AtomicBoolean failing = new AtomicBoolean();

  CountingExporter(MetricExporter delegate, Runnable exported, Runnable failed) {
    this.delegate = delegate;
    this.exported = exported;
    this.failed = failed;
  }

  @Override
  public CompletableResultCode export(Collection<MetricData> metrics) {
    exported.run();
    CompletableResultCode result = delegate.export(metrics);
    result.whenComplete(
        () -> {
          if (result.isSuccess()) {
            if (failing.compareAndSet(true, false)) {
              LOG.info("event=otlp_export_recovered");
            }
            return;
          }
          failed.run();
          if (failing.compareAndSet(false, true)) {
            Throwable cause = result.getFailureThrowable();
            LOG.warn(
                "event=otlp_export_failed error=\"{}\" msg=\"pushing again every interval; /metrics is unaffected\"",
                cause == null ? "refused or timed out" : String.valueOf(cause.getMessage()).replace('"', '\''));
          }
        });
    return result;
  }

  @Override
  public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
    return delegate.getAggregationTemporality(instrumentType);
  }

  @Override
  public Aggregation getDefaultAggregation(InstrumentType instrumentType) {
    return delegate.getDefaultAggregation(instrumentType);
  }

  @Override
  public MemoryMode getMemoryMode() {
    return delegate.getMemoryMode();
  }

  @Override
  public CompletableResultCode flush() {
    return delegate.flush();
  }

  @Override
  public CompletableResultCode shutdown() {
    return delegate.shutdown();
  }
}
