/**
 * One binding table per Windows perf object: each counter, the node-model figure it fills, and the kind of value
 * that connects them (gauge, cumulative count, timer). Each table's class also declares its object's counters, as a
 * public nested enum first in the class ({@code MemoryBinding.MemoryCounter}, {@code SystemBinding.SystemCounter},
 * {@code ProcessorBinding.ProcessorInformationCounter}, {@code NetworkInterfaceBinding.NetworkInterfaceCounter},
 * {@code LogicalDiskBinding.LogicalDiskCounter}, {@code PhysicalDiskBinding.PhysicalDiskCounter}), so a new counter
 * is its constant and its row in one file. The PDH source ({@code …perfcounters.pdh}), the counter-log replay and the
 * recorder ({@code …perfcounters.replay}) all iterate these tables, so a counter bound here is read live, written by
 * {@code --record} and read back from a log without an edit in either package; the readers keep only the real special
 * cases (the working-set definition, usage = commit, the physical size from {@code GlobalMemoryStatusEx}, per-core CPU
 * and its busy time, the volume space from {@code % Free Space}, the boot time).
 *
 * <p>Below {@code pdh} and {@code replay}, above the node model and {@code …perfcounters.counters} (the counters'
 * generic types): pure data, no I/O.
 */
@NullMarked
package io.winstats.perfcounters.binding;

import org.jspecify.annotations.NullMarked;
