package io.winstats.perfcounters.pdh;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The narrow port to PDH (plus the two kernel32 calls the node source needs), in Java terms.
 *
 * <p>Handles are opaque values; results are immutable records; every failure is a {@link PdhException} carrying the
 * status, the PDH function and the counter path. The size-probe protocol of the array calls, native buffers and string
 * decoding are the implementation's business, so everything above the port is testable with a hand-written fake.
 *
 * <p>Thread safety: implementations are <b>not</b> thread-safe. PDH makes no thread-safety promise, so all calls for
 * one instance must come from one thread (the node source's sampling thread).
 */
public interface PdhLibrary extends AutoCloseable {

  /** {@code PDH_FMT_LONG}: read the 32-bit member of the value union. */
  int PDH_FMT_LONG = 0x100;
  /** {@code PDH_FMT_DOUBLE}: read the double member of the value union. */
  int PDH_FMT_DOUBLE = 0x200;
  /** {@code PDH_FMT_LARGE}: read the 64-bit member of the value union. */
  int PDH_FMT_LARGE = 0x400;
  /** {@code PDH_FMT_NOSCALE}: ignore the counter's default scale. */
  int PDH_FMT_NOSCALE = 0x1000;
  /** {@code PDH_FMT_NOCAP100}: do not cap percentages at 100. */
  int PDH_FMT_NOCAP100 = 0x8000;

  /** An open query ({@code PDH_HQUERY}), opaque. */
  record PdhQuery(long handle) {}

  /**
   * A counter added to a query ({@code PDH_HCOUNTER}), opaque.
   *
   * @param path the English path it was added with, kept for error reports
   */
  record PdhCounter(long handle, String path) {
    public PdhCounter {
      Objects.requireNonNull(path, "path");
    }
  }

  /**
   * One {@code PDH_RAW_COUNTER}.
   *
   * @param cStatus the item's data status ({@link PdhStatus#isValidItemStatus(int)})
   * @param localFileTime the collection time as PDH gives it: a FILETIME (100 ns since 1601) in <b>local</b> time
   * @param firstValue the counter data (N); a 32-bit counter is zero-extended into the 64 bits
   * @param secondValue the time or base value (D or B)
   * @param multiCount the multi-counter base, used only by {@code PERF_MULTI_COUNTER} types
   */
  record RawCounter(int cStatus, long localFileTime, long firstValue, long secondValue, int multiCount) {}

  /**
   * One item of a raw counter array.
   *
   * @param instance the instance name as PDH returns it (duplicates are not suffixed with {@code #n} by PDH); empty
   *     for an object without instances
   */
  record RawCounterItem(String instance, RawCounter value) {
    public RawCounterItem {
      Objects.requireNonNull(instance, "instance");
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * One {@code PDH_FMT_COUNTERVALUE}: the member of the union selected by the format, widened.
   *
   * @param cStatus the data status
   * @param doubleValue the value as a double (exact for {@code PDH_FMT_DOUBLE})
   * @param longValue the value as a long (exact for {@code PDH_FMT_LONG} and {@code PDH_FMT_LARGE}; truncated from the
   *     double for {@code PDH_FMT_DOUBLE})
   */
  record FormattedValue(int cStatus, double doubleValue, long longValue) {}

  /** One item of a formatted counter array. */
  record FormattedCounterItem(String instance, FormattedValue value) {
    public FormattedCounterItem {
      Objects.requireNonNull(instance, "instance");
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * The fixed part of {@code PDH_COUNTER_INFO_W} that callers use.
   *
   * @param type the winperf counter type ({@code dwType}), see {@link PerfCounterType}
   * @param defaultScale the counter's default power-of-ten scale
   * @param fullPath the counter's full (localized) path, or {@code null} if PDH returned none
   */
  record CounterInfo(int type, int defaultScale, @Nullable String fullPath) {}

  /** {@code PdhOpenQueryW(NULL, 0, &query)}: a real-time query. */
  PdhQuery openQuery();

  /**
   * {@code PdhAddEnglishCounterW}. A wildcard instance ({@code (*)}) makes the array calls return every instance.
   *
   * @throws PdhException with {@code PDH_CSTATUS_NO_OBJECT}, {@code PDH_CSTATUS_NO_COUNTER},
   *     {@code PDH_CSTATUS_BAD_COUNTERNAME} and so on; the counter is then not in the query
   */
  PdhCounter addEnglishCounter(PdhQuery query, String englishPath);

  /** {@code PdhRemoveCounter}; the handle is dead afterwards. */
  void removeCounter(PdhCounter counter);

  /** {@code PdhCollectQueryData}. {@code PDH_NO_DATA} is thrown like any other failure. */
  void collectQueryData(PdhQuery query);

  /**
   * {@code PdhGetRawCounterArrayW}: every instance as of the last collect, in PDH's order, names decoded.
   *
   * @return the items; empty when the counter has no instances now
   */
  List<RawCounterItem> rawCounterArray(PdhCounter counter);

  /**
   * {@code PdhGetFormattedCounterArrayW}.
   *
   * @param format one of {@link #PDH_FMT_LONG}, {@link #PDH_FMT_DOUBLE}, {@link #PDH_FMT_LARGE}, optionally or-ed with
   *     {@link #PDH_FMT_NOSCALE} and {@link #PDH_FMT_NOCAP100}
   */
  List<FormattedCounterItem> formattedCounterArray(PdhCounter counter, int format);

  /** {@code PdhGetCounterInfoW} without the explain text. */
  CounterInfo counterInfo(PdhCounter counter);

  /**
   * {@code PdhCalculateCounterFromRawValue}.
   *
   * @param newer the later sample
   * @param older the earlier sample, or {@code null} for a type that needs one value
   * @param format as for {@link #formattedCounterArray(PdhCounter, int)}
   * @throws PdhException when the function fails; a calculation problem of the data itself (negative value, invalid
   *     data) comes back in {@link FormattedValue#cStatus()} or as the thrown status, depending on the Windows release
   */
  FormattedValue calculateFromRaw(PdhCounter counter, int format, RawCounter newer, @Nullable RawCounter older);

  /**
   * {@code PdhGetCounterTimeBase}: ticks per second of the counter's time base.
   *
   * @throws PdhException {@code PDH_INVALID_ARGUMENT} when the counter has no time base
   */
  long counterTimeBase(PdhCounter counter);

  /** {@code PdhCloseQuery}: closes the query and all its counters; their handles are dead afterwards. */
  void closeQuery(PdhQuery query);

  /**
   * {@code GlobalMemoryStatusEx}: the fields of {@code MEMORYSTATUSEX} the node reads, in one call.
   *
   * @throws PdhException with call {@code GlobalMemoryStatusEx} and the Win32 error code if the call fails
   */
  GlobalMemoryStatus globalMemoryStatus();

  /**
   * {@code GetActiveProcessorCount(ALL_PROCESSOR_GROUPS)}: logical processors over all processor groups.
   *
   * @return the count, or 0 if the call failed
   */
  int activeProcessorCount();

  /** Frees what the implementation holds (buffers); does not close queries. Idempotent. */
  @Override
  void close();
}
