/**
 * Replay and recording of PDH-CSV 4.0 counter logs, the format typeperf, relog and Performance Monitor data collector
 * sets write. {@link io.winstats.perfcounters.replay.ReplayNodeSource} turns a log into node samples marked {@link
 * io.winstats.perfcounters.ValueOrigin#FORMATTED}, integrating the logged per-second values over the logged intervals;
 * {@link io.winstats.perfcounters.replay.CounterLogRecorder} writes node samples in the same format. Both directions go
 * through the binding tables of {@code …perfcounters.binding} ({@code BoundColumns} reads a table's columns,
 * {@code RecordedColumn.Columns#addFigures} writes them). {@code PdhCsv} is the package's one parse utility.
 */
@NullMarked
package io.winstats.perfcounters.replay;

import org.jspecify.annotations.NullMarked;
