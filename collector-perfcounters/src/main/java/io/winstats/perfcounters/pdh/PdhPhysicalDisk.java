package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.fill;
import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.require;
import static io.winstats.perfcounters.pdh.PdhReadings.ticksToNanos;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.PhysicalDiskCountersBuilder;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.binding.PhysicalDiskBinding;
import io.winstats.perfcounters.binding.PhysicalDiskBinding.PhysicalDiskCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code \PhysicalDisk(*)} as {@link PhysicalDiskCounters} per disk but {@code _Total}, which windows_exporter v0.31.8
 * leaves out too ({@code internal/pdh/collector.go:380-382@v0.31.8}: an instance ending in {@code _Total} unless it
 * was asked for). Confined to the sampling thread.
 *
 * <p>The counts and the queue are what {@link PhysicalDiskBinding#DISK} binds. The three {@code %} timers are their
 * FirstValue, 100 ns units for the {@code PERF_PRECISION_100NS_TIMER} type ({@code collector.go:421-424@v0.31.8},
 * which multiplies it by 1e-7). The {@code Avg. Disk sec/…} totals are the FirstValue of a {@code PERF_AVERAGE_TIMER},
 * cumulative ticks of the counter's time base: windows_exporter serves them as FirstValue × 1e-7 ({@code
 * physical_disk.go:307-326@v0.31.8}), which is the same figure when the time base is 10 MHz, as it is on Windows 10 and
 * later; here the time base PDH reports divides, and the 32-bit value is carried across its 2^32 wrap (429.5 s of I/O
 * time at 10 MHz, which a busy disk passes in seconds), where windows_exporter's series drops. A total PDH does not
 * give is left out (null), the disk is not.
 */
final class PdhPhysicalDisk {
  private static final List<PhysicalDiskCounter> LATENCY_TOTALS =
      List.of(
          PhysicalDiskCounter.AVG_DISK_SEC_PER_READ,
          PhysicalDiskCounter.AVG_DISK_SEC_PER_WRITE,
          PhysicalDiskCounter.AVG_DISK_SEC_PER_TRANSFER);

  /** Every PhysicalDisk counter. */
  static final Set<? extends PerfCounter> COUNTERS = EnumSet.allOf(PhysicalDiskCounter.class);

  private final CumulativeCounters<String> counts = new CumulativeCounters<>();

  @Nullable List<PhysicalDiskCounters> read(Collected c, Map<NodePart, String> missing) {
    List<Reading> readings = new ArrayList<>();
    for (Figure<PhysicalDiskCounter, ?, ?> f : PhysicalDiskBinding.DISK.figures()) {
      readings.add(reading(c, f.counter()));
    }
    if (!require(NodePart.PHYSICAL_DISK, missing, readings.toArray(Reading[]::new))) {
      return null;
    }
    Reading readTime = reading(c, PhysicalDiskCounter.DISK_READ_TIME);
    Reading writeTime = reading(c, PhysicalDiskCounter.DISK_WRITE_TIME);
    Reading idleTime = reading(c, PhysicalDiskCounter.IDLE_TIME);
    for (Reading r : List.of(readTime, writeTime, idleTime)) {
      if (!PerfCounterType.is100Ns(r.type()) && r.timeBase() <= 0) {
        missing.put(NodePart.PHYSICAL_DISK, r.path() + " NO_TIME_BASE");
        return null;
      }
    }
    List<Reading> latencies = LATENCY_TOTALS.stream().map(counter -> reading(c, counter)).toList();
    List<PhysicalDiskCounters> out = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (String instance : readings.get(0).items().keySet()) {
      if (InstanceNames.isTotal(instance)) {
        continue;
      }
      PhysicalDiskCountersBuilder builder = PhysicalDiskCounters.builder(instance);
      Long read = timerNanos(readTime, instance, keys);
      Long write = timerNanos(writeTime, instance, keys);
      Long idle = timerNanos(idleTime, instance, keys);
      if (read == null || write == null || idle == null
          || fill(builder, PhysicalDiskBinding.DISK, c, instance, counts, keys) != null) {
        continue;
      }
      out.add(
          builder
              .readTimeNanos(read)
              .writeTimeNanos(write)
              .idleTimeNanos(idle)
              .readLatencyNanos(latencyNanos(latencies.get(0), instance, keys))
              .writeLatencyNanos(latencyNanos(latencies.get(1), instance, keys))
              .transferLatencyNanos(latencyNanos(latencies.get(2), instance, keys))
              .build());
    }
    counts.retainOnly(keys);
    return out;
  }

  /** A {@code %} timer's FirstValue in nanoseconds: 100 ns units for the 100 ns types, else ticks of its time base. */
  private @Nullable Long timerNanos(Reading r, String instance, Set<String> keys) {
    RawCounter item = r.items().get(instance);
    if (item == null) {
      return null;
    }
    String key = PdhReadings.key(r, instance);
    keys.add(key);
    long ticks = counts.update(key, item.firstValue(), r.type());
    return PerfCounterType.is100Ns(r.type()) ? Math.multiplyExact(ticks, 100L) : ticksToNanos(ticks, r.timeBase());
  }

  /** An average timer's FirstValue, its total time, in nanoseconds; null when PDH does not give it. */
  private @Nullable Long latencyNanos(Reading r, String instance, Set<String> keys) {
    RawCounter item = r.ok() && r.timeBase() > 0 ? r.items().get(instance) : null;
    if (item == null) {
      return null;
    }
    String key = PdhReadings.key(r, instance);
    keys.add(key);
    return ticksToNanos(counts.update(key, item.firstValue(), r.type()), r.timeBase());
  }
}
