/**
 * Prometheus exposition: the cAdvisor-compatible container series, node series, the kubelet's resource metrics, and
 * the daemon's own metrics through Micrometer. All series are built from a published snapshot, never from the OS.
 */
@NullMarked
package io.winstats.exporter.metrics;

import org.jspecify.annotations.NullMarked;
