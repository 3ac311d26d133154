/**
 * The generic types of the Windows performance counters the node model reads, shared by the live PDH source ({@code
 * …perfcounters.pdh}) and the counter-log replay ({@code …perfcounters.replay}).
 *
 * <p>{@link io.winstats.perfcounters.counters.PerfCounter} is implemented by one enum per perf object; each constant
 * carries one {@link io.winstats.perfcounters.counters.CounterSpec}: the English object and counter names, verbatim,
 * the instance filter, the raw kind ({@link io.winstats.perfcounters.counters.RawKind}) PDH reads and what the
 * formatted value in a typeperf or relog log means ({@link io.winstats.perfcounters.counters.FormattedUnit}). The
 * enums of the bound objects ({@code MemoryCounter}, {@code SystemCounter}, {@code ProcessorInformationCounter},
 * {@code NetworkInterfaceCounter}, {@code LogicalDiskCounter}, {@code PhysicalDiskCounter}) are nested in their
 * binding tables in {@code …perfcounters.binding}, so that a counter and the figure it fills are one file; here stay
 * {@link io.winstats.perfcounters.counters.ProcessCounter} (the kubelet's working set, a special case of the memory
 * readers) and {@link io.winstats.perfcounters.counters.NodeExtraCounter}, the columns of the recorder's own {@code
 * \Winstats Node} object. {@link io.winstats.perfcounters.counters.CounterPath} is the counter path syntax both
 * sources use. Which counters a source reads, how PDH raw types are interpreted and how log columns are matched stay
 * in the source's own package. The operator's own counters ({@link io.winstats.perfcounters.counters.CustomCounter},
 * their {@link io.winstats.perfcounters.counters.InstanceValue}s) and the health of every path
 * ({@link io.winstats.perfcounters.counters.CounterHealth}) live here too, so the exporter never imports a source's
 * implementation package. Pure data: no JNA, no I/O; nothing here depends on {@code …perfcounters.binding}.
 */
@NullMarked
package io.winstats.perfcounters.counters;

import org.jspecify.annotations.NullMarked;
