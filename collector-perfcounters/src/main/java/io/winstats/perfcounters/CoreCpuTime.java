package io.winstats.perfcounters;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Cumulative CPU time of one logical processor by mode, in nanoseconds since boot.
 *
 * @param core the processor's name as the platform gives it: {@code "0"} on Linux, {@code "0,3"} (group,index) on
 *     Windows
 * @param nanosByMode cumulative nanoseconds per mode; modes the platform lacks are absent
 */
public record CoreCpuTime(String core, Map<CpuMode, Long> nanosByMode) {
  public CoreCpuTime {
    Objects.requireNonNull(core, "core");
    EnumMap<CpuMode, Long> copy = new EnumMap<>(CpuMode.class);
    nanosByMode.forEach(
        (mode, nanos) -> {
          if (nanos < 0) {
            throw new IllegalArgumentException("negative CPU time for " + core + " " + mode + ": " + nanos);
          }
          copy.put(mode, nanos);
        });
    nanosByMode = Collections.unmodifiableMap(copy);
  }

  /** Nanoseconds spent in {@code mode}, or 0 where the platform has no such mode. */
  public long nanos(CpuMode mode) {
    return nanosByMode.getOrDefault(mode, 0L);
  }
}
