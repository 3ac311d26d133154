package io.winstats.perfcounters.pdh.jna;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import com.sun.jna.win32.StdCallLibrary;
import com.sun.jna.win32.W32APIOptions;
import io.winstats.perfcounters.pdh.GlobalMemoryStatus;
import io.winstats.perfcounters.pdh.PdhException;
import io.winstats.perfcounters.pdh.PdhLibrary;
import io.winstats.perfcounters.pdh.PdhStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The only JNA implementation of {@link PdhLibrary}.
 *
 * <p>{@code pdh.dll} and {@code kernel32.dll} are loaded on the first call that needs them, never in a static
 * initializer, so constructing this class (or any of its {@code Structure} classes) is safe off Windows. Functions are
 * bound by their explicit {@code W} names with {@link W32APIOptions#UNICODE_OPTIONS} ({@code String} arguments travel
 * as UTF-16 {@code LPCWSTR}, {@code boolean} as a 4-byte {@code BOOL}). Names that PDH writes into our buffers are
 * decoded from UTF-16LE by hand, independent of the platform's {@code wchar_t}.
 *
 * <p>Array calls follow the documented size-probe protocol: probe with size 0 and a NULL buffer, which answers
 * {@code PDH_MORE_DATA} and the size in bytes; allocate with headroom; call again. The buffer is kept per counter and
 * reused by later calls. When a reused buffer is too small PDH may answer {@code PDH_MORE_DATA} with an unreliable size
 * or, on some releases, {@code PDH_INVALID_ARGUMENT}; either way the buffer is freed and the probe repeated, at most
 * {@value #MAX_ARRAY_ATTEMPTS} times. Buffers are freed when their counter is removed, when its query is closed, and
 * by {@link #close()}.
 *
 * <p>Not thread-safe: use one instance from one thread.
 */
public final class JnaPdhLibrary implements PdhLibrary {

  static final int MAX_ARRAY_ATTEMPTS = 4;
  /** x64 sizes of the array items and of the fixed counter-info part; the layout test pins them. */
  static final int RAW_ITEM_SIZE = 48;

  static final int FMT_ITEM_SIZE = 24;
  static final int FIXED_COUNTER_INFO_SIZE = 112;
  private static final int ERROR_SUCCESS = 0;
  private static final short ALL_PROCESSOR_GROUPS = (short) 0xFFFF;

  /**
   * The PDH functions we call, bound by their exact {@code W} names. Internal; public because JNA proxies it.
   * Arguments: handles as {@link Pointer}, {@code DWORD_PTR} as {@link Pointer}, sizes as {@link IntByReference}.
   */
  public interface PdhNative extends StdCallLibrary {
    int PdhOpenQueryW(@Nullable String szDataSource, @Nullable Pointer dwUserData, PointerByReference phQuery);

    int PdhAddEnglishCounterW(
        Pointer hQuery, String szFullCounterPath, @Nullable Pointer dwUserData, PointerByReference phCounter);

    int PdhRemoveCounter(Pointer hCounter);

    int PdhCollectQueryData(Pointer hQuery);


    int PdhGetRawCounterArrayW(
        Pointer hCounter, IntByReference lpdwBufferSize, IntByReference lpdwItemCount, @Nullable Pointer itemBuffer);

    int PdhGetFormattedCounterArrayW(
        Pointer hCounter,
        int dwFormat,
        IntByReference lpdwBufferSize,
        IntByReference lpdwItemCount,
        @Nullable Pointer itemBuffer);

    /** {@code bRetrieveExplainText} is a 1-byte {@code BOOLEAN}, hence {@code byte}. */
    int PdhGetCounterInfoW(
        Pointer hCounter, byte bRetrieveExplainText, IntByReference pdwBufferSize, @Nullable Pointer lpBuffer);

    int PdhCalculateCounterFromRawValue(
        Pointer hCounter,
        int dwFormat,
        PdhRawCounter rawValue1,
        @Nullable PdhRawCounter rawValue2,
        PdhFmtCounterValue fmtValue);

    int PdhGetCounterTimeBase(Pointer hCounter, LongByReference pTimeBase);

    int PdhCloseQuery(Pointer hQuery);
  }

  /** The two kernel32 functions we call. Internal; public because JNA proxies it. */
  public interface Kernel32Native extends StdCallLibrary {
    boolean GlobalMemoryStatusEx(MemoryStatusEx lpBuffer);

    /** {@code WORD GroupNumber}; {@code 0xFFFF} is {@code ALL_PROCESSOR_GROUPS}. */
    int GetActiveProcessorCount(short groupNumber);
  }

  private final Supplier<PdhNative> pdhLoader;
  private final Supplier<Kernel32Native> kernel32Loader;
  private final Supplier<Integer> lastError;
  private @Nullable PdhNative pdh;
  private @Nullable Kernel32Native kernel32;
  private final Map<Long, Memory> rawBuffers = new HashMap<>();
  private final Map<Long, Memory> formattedBuffers = new HashMap<>();
  private final Map<Long, Long> queryOfCounter = new HashMap<>();

  /** Binds to the real {@code pdh.dll} and {@code kernel32.dll}, loaded lazily on first use. */
  public JnaPdhLibrary() {
    this(
        () -> Native.load("pdh", PdhNative.class, W32APIOptions.UNICODE_OPTIONS),
        () -> Native.load("kernel32", Kernel32Native.class, W32APIOptions.UNICODE_OPTIONS),
        Native::getLastError);
  }

  /** For tests: binds to the given implementations of the native interfaces. */
  JnaPdhLibrary(Supplier<PdhNative> pdhLoader, Supplier<Kernel32Native> kernel32Loader, Supplier<Integer> lastError) {
    this.pdhLoader = pdhLoader;
    this.kernel32Loader = kernel32Loader;
    this.lastError = lastError;
  }

  private PdhNative pdh() {
    PdhNative p = pdh;
    if (p == null) {
      p = pdhLoader.get();
      pdh = p;
    }
    return p;
  }

  private Kernel32Native kernel32() {
    Kernel32Native k = kernel32;
    if (k == null) {
      k = kernel32Loader.get();
      kernel32 = k;
    }
    return k;
  }

  private static Pointer handle(long value) {
    return new Pointer(value);
  }

  private static void check(int status, String call, @Nullable String path) {
    if (status != ERROR_SUCCESS) {
      throw new PdhException(status, call, path);
    }
  }

  @Override
  public PdhQuery openQuery() {
    PointerByReference ref = new PointerByReference();
    check(pdh().PdhOpenQueryW(null, null, ref), "PdhOpenQueryW", null);
    return new PdhQuery(Pointer.nativeValue(ref.getValue()));
  }

  @Override
  public PdhCounter addEnglishCounter(PdhQuery query, String englishPath) {
    PointerByReference ref = new PointerByReference();
    check(
        pdh().PdhAddEnglishCounterW(handle(query.handle()), englishPath, null, ref),
        "PdhAddEnglishCounterW",
        englishPath);
    long counter = Pointer.nativeValue(ref.getValue());
    queryOfCounter.put(counter, query.handle());
    return new PdhCounter(counter, englishPath);
  }

  @Override
  public void removeCounter(PdhCounter counter) {
    freeBuffers(counter.handle());
    queryOfCounter.remove(counter.handle());
    check(pdh().PdhRemoveCounter(handle(counter.handle())), "PdhRemoveCounter", counter.path());
  }

  @Override
  public void collectQueryData(PdhQuery query) {
    check(pdh().PdhCollectQueryData(handle(query.handle())), "PdhCollectQueryData", null);
  }

  /** One invocation of an array call with the given size, count and buffer (NULL for the probe). */
  @FunctionalInterface
  private interface ArrayCall {
    int invoke(IntByReference size, IntByReference count, @Nullable Pointer buffer);
  }

  /** The filled buffer and the item count of a successful array call. */
  private record ArrayResult(@Nullable Memory buffer, int count) {}

  private ArrayResult readArray(
      PdhCounter counter, Map<Long, Memory> buffers, int itemSize, String call, ArrayCall invoke) {
    IntByReference size = new IntByReference();
    IntByReference count = new IntByReference();
    Memory buffer = buffers.get(counter.handle());
    for (int attempt = 1; ; attempt++) {
      if (buffer == null) {
        size.setValue(0);
        count.setValue(0);
        int probe = invoke.invoke(size, count, null);
        if (probe == ERROR_SUCCESS) {
          return new ArrayResult(null, 0);
        }
        if (probe != PdhStatus.PDH_MORE_DATA.code() || size.getValue() <= 0) {
          throw new PdhException(probe, call, counter.path());
        }
        int required = size.getValue();
        buffer = new Memory(align8((long) required + required / 4));
        buffers.put(counter.handle(), buffer);
      }
      size.setValue((int) Math.min(buffer.size(), Integer.MAX_VALUE));
      count.setValue(0);
      int status = invoke.invoke(size, count, buffer);
      if (status == ERROR_SUCCESS) {
        long needed = (long) count.getValue() * itemSize;
        if (count.getValue() < 0 || needed > buffer.size()) {
          throw new PdhException(PdhStatus.PDH_INVALID_DATA, call, counter.path());
        }
        return new ArrayResult(buffer, count.getValue());
      }
      boolean tooSmall =
          status == PdhStatus.PDH_MORE_DATA.code() || status == PdhStatus.PDH_INVALID_ARGUMENT.code();
      if (!tooSmall || attempt >= MAX_ARRAY_ATTEMPTS) {
        throw new PdhException(status, call, counter.path());
      }
      // The size PDH returns for a too-small non-zero buffer is not reliable: free it and probe again.
      buffers.remove(counter.handle());
      buffer.close();
      buffer = null;
    }
  }

  private static long align8(long n) {
    return (n + 7) & ~7L;
  }

  @Override
  public List<RawCounterItem> rawCounterArray(PdhCounter counter) {
    Pointer h = handle(counter.handle());
    ArrayResult r =
        readArray(
            counter,
            rawBuffers,
            RAW_ITEM_SIZE,
            "PdhGetRawCounterArrayW",
            (size, count, buf) -> pdh().PdhGetRawCounterArrayW(h, size, count, buf));
    return decode(r, RAW_ITEM_SIZE, p -> {
      PdhRawCounterItemW item = new PdhRawCounterItemW(p);
      item.read();
      return new RawCounterItem(readUtf16(item.szName), item.RawValue.toRecord());
    });
  }

  @Override
  public List<FormattedCounterItem> formattedCounterArray(PdhCounter counter, int format) {
    Pointer h = handle(counter.handle());
    ArrayResult r =
        readArray(
            counter,
            formattedBuffers,
            FMT_ITEM_SIZE,
            "PdhGetFormattedCounterArrayW",
            (size, count, buf) -> pdh().PdhGetFormattedCounterArrayW(h, format, size, count, buf));
    return decode(r, FMT_ITEM_SIZE, p -> {
      PdhFmtCounterValueItemW item = new PdhFmtCounterValueItemW(p);
      item.read();
      return new FormattedCounterItem(readUtf16(item.szName), item.FmtValue.toRecord(format));
    });
  }

  private static <T> List<T> decode(ArrayResult r, int itemSize, Function<Pointer, T> at) {
    Memory buffer = r.buffer();
    if (buffer == null || r.count() == 0) {
      return List.of();
    }
    List<T> out = new ArrayList<>(r.count());
    for (int i = 0; i < r.count(); i++) {
      out.add(at.apply(buffer.share((long) i * itemSize)));
    }
    return List.copyOf(out);
  }

  @Override
  public CounterInfo counterInfo(PdhCounter counter) {
    Pointer h = handle(counter.handle());
    IntByReference size = new IntByReference(0);
    int probe = pdh().PdhGetCounterInfoW(h, (byte) 0, size, null);
    if (probe != PdhStatus.PDH_MORE_DATA.code() && probe != ERROR_SUCCESS) {
      throw new PdhException(probe, "PdhGetCounterInfoW", counter.path());
    }
    int required = Math.max(size.getValue(), FIXED_COUNTER_INFO_SIZE);
    try (Memory buffer = new Memory(required)) {
      buffer.clear();
      size.setValue(required);
      check(pdh().PdhGetCounterInfoW(h, (byte) 0, size, buffer), "PdhGetCounterInfoW", counter.path());
      PdhCounterInfoW info = new PdhCounterInfoW(buffer);
      info.read();
      String fullPath = info.szFullPath == null ? null : readUtf16(info.szFullPath);
      return new CounterInfo(info.dwType, info.lDefaultScale, fullPath);
    }
  }

  @Override
  public FormattedValue calculateFromRaw(
      PdhCounter counter, int format, RawCounter newer, @Nullable RawCounter older) {
    PdhRawCounter first = new PdhRawCounter();
    first.fill(newer);
    PdhRawCounter second = null;
    if (older != null) {
      second = new PdhRawCounter();
      second.fill(older);
    }
    PdhFmtCounterValue out = new PdhFmtCounterValue();
    check(
        pdh().PdhCalculateCounterFromRawValue(handle(counter.handle()), format, first, second, out),
        "PdhCalculateCounterFromRawValue",
        counter.path());
    return out.toRecord(format);
  }

  @Override
  public long counterTimeBase(PdhCounter counter) {
    LongByReference base = new LongByReference();
    check(pdh().PdhGetCounterTimeBase(handle(counter.handle()), base), "PdhGetCounterTimeBase", counter.path());
    return base.getValue();
  }

  @Override
  public void closeQuery(PdhQuery query) {
    for (Iterator<Map.Entry<Long, Long>> it = queryOfCounter.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Long, Long> e = it.next();
      if (e.getValue() == query.handle()) {
        freeBuffers(e.getKey());
        it.remove();
      }
    }
    check(pdh().PdhCloseQuery(handle(query.handle())), "PdhCloseQuery", null);
  }

  @Override
  public GlobalMemoryStatus globalMemoryStatus() {
    MemoryStatusEx status = new MemoryStatusEx();
    if (!kernel32().GlobalMemoryStatusEx(status)) {
      throw new PdhException(lastError.get(), "GlobalMemoryStatusEx", null);
    }
    return new GlobalMemoryStatus(status.ullTotalPhys, status.ullAvailPhys, status.ullTotalVirtual);
  }

  @Override
  public int activeProcessorCount() {
    return Math.max(0, kernel32().GetActiveProcessorCount(ALL_PROCESSOR_GROUPS));
  }

  /** Native bytes held in reusable array buffers now (for tests and diagnostics). */
  long bufferedBytes() {
    long total = 0;
    for (Memory m : rawBuffers.values()) {
      total += m.size();
    }
    for (Memory m : formattedBuffers.values()) {
      total += m.size();
    }
    return total;
  }

  private void freeBuffers(long counter) {
    Memory raw = rawBuffers.remove(counter);
    if (raw != null) {
      raw.close();
    }
    Memory fmt = formattedBuffers.remove(counter);
    if (fmt != null) {
      fmt.close();
    }
  }

  @Override
  public void close() {
    rawBuffers.values().forEach(Memory::close);
    formattedBuffers.values().forEach(Memory::close);
    rawBuffers.clear();
    formattedBuffers.clear();
    queryOfCounter.clear();
  }

  /** Decodes a NUL-terminated UTF-16LE string; {@code null} gives the empty string. */
  static String readUtf16(@Nullable Pointer p) {
    if (p == null) {
      return "";
    }
    int chars = 0;
    while (p.getShort(2L * chars) != 0) {
      chars++;
    }
    return new String(p.getByteArray(0, 2 * chars), StandardCharsets.UTF_16LE);
  }
}
