/**
 * The OTLP push (off by default, {@code --otlp.enabled}): the OpenTelemetry SDK's exporters, configured by the standard
 * {@code OTEL_*} variables, push the families {@code /metrics} serves, renamed by {@link OtlpNames}. The only package
 * that uses the OpenTelemetry SDK; the daemon loads it through {@link java.util.ServiceLoader} only when the push is
 * on.
 */
@NullMarked
package io.winstats.exporter.otlp;

import org.jspecify.annotations.NullMarked;
