package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.counters.RawKind;
import java.util.Locale;

/**
 * Winperf counter type constants ({@code dwType} of {@code PDH_COUNTER_INFO_W}) and the flag tests this package needs.
 * Values are the {@code winperf.h} macros (mingw-w64 {@code mingw-w64-headers/include/winperf.h}; Microsoft Learn,
 * "Counter Types", https://learn.microsoft.com/windows/win32/perfctrs/counter-types).
 */
final class PerfCounterType {
  static final int PERF_SIZE_LARGE = 0x00000100;
  static final int PERF_TIMER_100NS = 0x00100000;
  static final int PERF_OBJECT_TIMER = 0x00200000;
  static final int PERF_DELTA_COUNTER = 0x00400000;
  static final int PERF_INVERSE_COUNTER = 0x01000000;

  static final int PERF_COUNTER_RAWCOUNT = 0x00010000;
  static final int PERF_COUNTER_RAWCOUNT_HEX = 0x00000000;
  static final int PERF_COUNTER_LARGE_RAWCOUNT = 0x00010100;
  static final int PERF_COUNTER_COUNTER = 0x10410400;
  static final int PERF_COUNTER_BULK_COUNT = 0x10410500;
  static final int PERF_100NSEC_TIMER = 0x20510500;
  static final int PERF_100NSEC_TIMER_INV = 0x21510500;
  static final int PERF_RAW_FRACTION = 0x20020400;
  static final int PERF_LARGE_RAW_FRACTION = 0x20020500;
  static final int PERF_AVERAGE_TIMER = 0x30020400;
  static final int PERF_ELAPSED_TIME = 0x30240500;
  static final int PERF_AVERAGE_BULK = 0x40020500;
  static final int PERF_PRECISION_100NS_TIMER = 0x20570500;
  static final int PERF_COUNTER_100NS_QUEUELEN_TYPE = 0x00550500;

  private PerfCounterType() {}

  /**
   * The type the documentation gives for a declared kind. The source reads the actual {@code dwType} when it adds a
   * counter, lets its size bit decide 32- or 64-bit wrap, and logs once at INFO when it differs from this.
   */
  static int documented(RawKind kind) {
    return switch (kind) {
      case TIMER_100NS -> PERF_100NSEC_TIMER;
      case TIMER_100NS_INVERSE -> PERF_100NSEC_TIMER_INV;
      case PRECISION_TIMER_100NS -> PERF_PRECISION_100NS_TIMER;
      case BULK_COUNT -> PERF_COUNTER_BULK_COUNT;
      case COUNT -> PERF_COUNTER_COUNTER;
      case RAW -> PERF_COUNTER_RAWCOUNT;
      case RAW_LARGE -> PERF_COUNTER_LARGE_RAWCOUNT;
      case RAW_FRACTION -> PERF_RAW_FRACTION;
      case AVERAGE_TIMER -> PERF_AVERAGE_TIMER;
      case AVERAGE_BULK -> PERF_AVERAGE_BULK;
      case QUEUE_LENGTH_100NS -> PERF_COUNTER_100NS_QUEUELEN_TYPE;
      case ELAPSED_TIME -> PERF_ELAPSED_TIME;
    };
  }

  /** Whether the data is 64 bits wide; otherwise it is a {@code DWORD} and wraps at 2^32. */
  static boolean is64Bit(int type) {
    return (type & PERF_SIZE_LARGE) != 0;
  }

  /** Whether a display value needs two samples. */
  static boolean isDelta(int type) {
    return (type & PERF_DELTA_COUNTER) != 0;
  }

  /** Whether the time base is 100 ns. */
  static boolean is100Ns(int type) {
    return (type & PERF_TIMER_100NS) != 0;
  }

  /** {@code 0x%08X}. */
  static String hex(int type) {
    return String.format(Locale.ROOT, "0x%08X", type);
  }
}
