/**
 * The Windows performance counters the node model reads, declared once as data and shared by the live PDH source
 * ({@code …perfcounters.pdh}) and the counter-log replay ({@code …perfcounters.replay}).
 *
 * <p>One enum per perf object ({@code ProcessorInformationCounter}, {@code MemoryCounter}, {@code ProcessCounter},
 * {@code NetworkInterfaceCounter}, {@code LogicalDiskCounter}, {@code SystemCounter}), each implementing
 * {@link io.winstats.perfcounters.counters.PerfCounter}. Each constant carries one
 * {@link io.winstats.perfcounters.counters.CounterSpec}: the English object and counter names, verbatim, the instance
 * filter, the raw kind PDH reads and what the formatted value in a typeperf or relog log means.
 * {@link io.winstats.perfcounters.counters.NodeExtraCounter} names the columns of the recorder's own {@code \Winstats
 * Node} object. {@link io.winstats.perfcounters.counters.CounterPath} is the counter path syntax both sources use.
 * Which counters a source reads, how PDH raw types are interpreted and how log columns are matched stay in the
 * source's own package; which model figure each counter fills is in {@code …perfcounters.binding}.
 * The operator's own counters ({@link io.winstats.perfcounters.counters.CustomCounter}, their
 * {@link io.winstats.perfcounters.counters.InstanceValue}s) and the health of every path
 * ({@link io.winstats.perfcounters.counters.CounterHealth}) live here too, so the exporter never imports a source's
 * implementation package. Pure data: no JNA, no I/O.
 */
@NullMarked
package io.winstats.perfcounters.counters;

import org.jspecify.annotations.NullMarked;
