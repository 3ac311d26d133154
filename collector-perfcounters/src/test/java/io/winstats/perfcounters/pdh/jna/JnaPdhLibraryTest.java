package io.winstats.perfcounters.pdh.jna;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import io.winstats.perfcounters.pdh.GlobalMemoryStatus;
import io.winstats.perfcounters.pdh.PdhException;
import io.winstats.perfcounters.pdh.PdhLibrary;
import io.winstats.perfcounters.pdh.PdhLibrary.PdhCounter;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounterItem;
import io.winstats.perfcounters.pdh.PdhStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.condition.OS;

/**
 * {@link JnaPdhLibrary} on any 64-bit host: a Java implementation of its native interface stands in for pdh.dll and
 * writes items into the library's native buffers at the x64 offsets of mingw-w64 10.0.0's {@code pdh.h} (offsetof under Wine) (independently of the Structure
 * classes), so the size-probe protocol, buffer reuse and growth, and decoding are exercised through real JNA memory.
 */
@EnabledIf("pointersAre64Bit")
class JnaPdhLibraryTest {
  /** {@code winperf.h}'s {@code PERF_100NSEC_TIMER}, a type the script answers with. */
  private static final int PERF_100NSEC_TIMER = 0x20510500;
  /** {@code winperf.h}'s {@code PERF_COUNTER_BULK_COUNT}. */
  private static final int PERF_COUNTER_BULK_COUNT = 0x10410500;

  static boolean pointersAre64Bit() {
    return Native.POINTER_SIZE == 8;
  }

  private static final int MORE_DATA = PdhStatus.PDH_MORE_DATA.code();
  private static final int INVALID_ARGUMENT = PdhStatus.PDH_INVALID_ARGUMENT.code();

  record Item(String name, int cStatus, long fileTime, long first, long second, int multi) {}

  /** A scripted pdh.dll. */
  static final class ScriptedPdh implements JnaPdhLibrary.PdhNative {
    List<Item> items = new ArrayList<>();
    /** Items that appear between a successful size probe and the data call (once). */
    List<Item> appearAfterProbe = List.of();
    boolean invalidArgumentWhenTooSmall;
    boolean neverFits;
    int arrayStatus;
    final List<String> arrayCalls = new ArrayList<>();
    String lastAddedPath = "";
    int counterType = PERF_100NSEC_TIMER;
    String fullPath = "\\\\HOST\\Processor Information(*)\\% User Time";
    PdhRawCounter seenNewer;
    PdhRawCounter seenOlder;
    int closedQueries;

    private int needed(List<Item> list, int itemSize) {
      int n = list.size() * itemSize;
      for (Item i : list) {
        n += (i.name().length() + 1) * 2;
      }
      return n;
    }

    private int array(IntByReference size, IntByReference count, @Nullable Pointer buffer, boolean raw) {
      int itemSize = raw ? 48 : 24;
      arrayCalls.add(buffer == null ? "probe" : "data:" + size.getValue());
      if (arrayStatus != 0) {
        return arrayStatus;
      }
      if (buffer != null && !appearAfterProbe.isEmpty()) {
        items = new ArrayList<>(items);
        items.addAll(appearAfterProbe);
        appearAfterProbe = List.of();
      }
      int needed = needed(items, itemSize);
      if (items.isEmpty()) {
        size.setValue(0);
        count.setValue(0);
        return 0;
      }
      if (buffer == null || size.getValue() < needed || neverFits) {
        if (buffer != null && invalidArgumentWhenTooSmall) {
          return INVALID_ARGUMENT;
        }
        size.setValue(neverFits ? Math.max(needed, size.getValue()) : needed);
        count.setValue(items.size());
        return MORE_DATA;
      }
      long names = (long) items.size() * itemSize;
      for (int i = 0; i < items.size(); i++) {
        Item it = items.get(i);
        long base = (long) i * itemSize;
        buffer.setPointer(base, buffer.share(names));
        buffer.setInt(base + 8, it.cStatus());
        if (raw) {
          buffer.setInt(base + 12, (int) it.fileTime());
          buffer.setInt(base + 16, (int) (it.fileTime() >>> 32));
          buffer.setLong(base + 24, it.first());
          buffer.setLong(base + 32, it.second());
          buffer.setInt(base + 40, it.multi());
        } else {
          buffer.setDouble(base + 16, it.first() / 4.0);
        }
        byte[] utf16 = it.name().getBytes(StandardCharsets.UTF_16LE);
        buffer.write(names, utf16, 0, utf16.length);
        buffer.setShort(names + utf16.length, (short) 0);
        names += utf16.length + 2;
      }
      size.setValue(needed);
      count.setValue(items.size());
      return 0;
    }

    @Override
    public int PdhOpenQueryW(@Nullable String src, @Nullable Pointer user, PointerByReference q) {
      q.setValue(new Pointer(0x5000));
      return 0;
    }

    @Override
    public int PdhAddEnglishCounterW(Pointer q, String path, @Nullable Pointer user, PointerByReference c) {
      lastAddedPath = path;
      if (path.contains("Nope")) {
        return PdhStatus.PDH_CSTATUS_NO_OBJECT.code();
      }
      c.setValue(new Pointer(0x6000 + path.length()));
      return 0;
    }

    @Override
    public int PdhRemoveCounter(Pointer c) {
      return 0;
    }

    @Override
    public int PdhCollectQueryData(Pointer q) {
      return PdhStatus.PDH_NO_DATA.code();
    }

    @Override
    public int PdhGetRawCounterArrayW(Pointer c, IntByReference size, IntByReference count, @Nullable Pointer buf) {
      return array(size, count, buf, true);
    }

    @Override
    public int PdhGetFormattedCounterArrayW(
        Pointer c, int format, IntByReference size, IntByReference count, @Nullable Pointer buf) {
      return array(size, count, buf, false);
    }

    @Override
    public int PdhGetCounterInfoW(Pointer c, byte explain, IntByReference size, @Nullable Pointer buf) {
      byte[] path = fullPath.getBytes(StandardCharsets.UTF_16LE);
      int needed = 112 + path.length + 2;
      if (buf == null || size.getValue() < needed) {
        size.setValue(needed);
        return MORE_DATA;
      }
      buf.setInt(0, needed);
      buf.setInt(4, counterType);
      buf.setInt(20, -2);
      buf.setPointer(40, buf.share(112));
      buf.write(112, path, 0, path.length);
      buf.setShort(112 + path.length, (short) 0);
      return 0;
    }

    @Override
    public int PdhCalculateCounterFromRawValue(
        Pointer c, int format, PdhRawCounter newer, @Nullable PdhRawCounter older, PdhFmtCounterValue out) {
      seenNewer = newer;
      seenOlder = older;
      out.CStatus = 0;
      out.Value.doubleValue = older == null ? newer.FirstValue : newer.FirstValue - older.FirstValue;
      return 0;
    }

    @Override
    public int PdhGetCounterTimeBase(Pointer c, LongByReference base) {
      base.setValue(10_000_000L);
      return 0;
    }

    @Override
    public int PdhCloseQuery(Pointer q) {
      closedQueries++;
      return 0;
    }
  }

  static final class ScriptedKernel32 implements JnaPdhLibrary.Kernel32Native {
    short group;
    int lengthSeen;

    @Override
    public boolean GlobalMemoryStatusEx(MemoryStatusEx status) {
      lengthSeen = status.dwLength;
      status.ullTotalPhys = 34_359_738_368L;
      status.ullAvailPhys = 21_474_836_480L;
      status.ullTotalPageFile = 40_000_000_000L;
      status.ullTotalVirtual = 140_737_488_224_256L;
      return true;
    }

    @Override
    public int GetActiveProcessorCount(short groupNumber) {
      group = groupNumber;
      return 96;
    }
  }

  private final ScriptedPdh pdh = new ScriptedPdh();
  private final ScriptedKernel32 kernel32 = new ScriptedKernel32();
  private final JnaPdhLibrary lib = new JnaPdhLibrary(() -> pdh, () -> kernel32, () -> 5);

  private PdhCounter counter() {
    return lib.addEnglishCounter(lib.openQuery(), "\\Processor Information(*)\\% User Time");
  }

  private static Item item(String name, long first) {
    return new Item(name, 0, 0x01DB_6747_1234_5678L, first, first * 10, 0);
  }

  @Test
  void rawArrayProbesThenReadsItemsAndUtf16Names() {
    pdh.items.add(new Item("0,0", 0, 0x01DB_6747_89AB_CDEFL, 1_234_567_890_123L, -2L, 7));
    pdh.items.add(new Item("Intel® Ethernet ünï", PdhStatus.PDH_CSTATUS_INVALID_DATA.code(), 0, 0, 0, 0));
    PdhCounter c = counter();

    List<RawCounterItem> items = lib.rawCounterArray(c);

    assertThat(pdh.arrayCalls).first().isEqualTo("probe");
    assertThat(pdh.arrayCalls).hasSize(2);
    assertThat(items).hasSize(2);
    RawCounterItem first = items.get(0);
    assertThat(first.instance()).isEqualTo("0,0");
    assertThat(first.value().localFileTime()).isEqualTo(0x01DB_6747_89AB_CDEFL);
    assertThat(first.value().firstValue()).isEqualTo(1_234_567_890_123L);
    assertThat(first.value().secondValue()).isEqualTo(-2L);
    assertThat(first.value().multiCount()).isEqualTo(7);
    assertThat(items.get(1).instance()).isEqualTo("Intel® Ethernet ünï");
    assertThat(items.get(1).value().cStatus()).isEqualTo(PdhStatus.PDH_CSTATUS_INVALID_DATA.code());
  }

  @Test
  void theBufferIsReusedWithoutAnotherProbe() {
    pdh.items.add(item("0,0", 1));
    PdhCounter c = counter();
    lib.rawCounterArray(c);
    long held = lib.bufferedBytes();
    pdh.arrayCalls.clear();

    lib.rawCounterArray(c);

    assertThat(pdh.arrayCalls).hasSize(1).allMatch(s -> s.startsWith("data:"));
    assertThat(lib.bufferedBytes()).isEqualTo(held);
  }

  @Test
  void instancesAppearingBetweenProbeAndDataGrowTheBuffer() {
    pdh.items.add(item("0,0", 1));
    pdh.appearAfterProbe = List.of(item("0,1", 2), item("0,2", 3), item("0,3", 4), item("1,0", 5));
    PdhCounter c = counter();

    List<RawCounterItem> items = lib.rawCounterArray(c);

    assertThat(items).extracting(RawCounterItem::instance).containsExactly("0,0", "0,1", "0,2", "0,3", "1,0");
    assertThat(pdh.arrayCalls).containsExactly("probe", pdh.arrayCalls.get(1), "probe", pdh.arrayCalls.get(3));
    assertThat(items.get(4).value().firstValue()).isEqualTo(5);
  }

  @Test
  void aReusedBufferThatBecameTooSmallIsReplacedEvenWhenPdhSaysInvalidArgument() {
    pdh.items.add(item("0,0", 1));
    PdhCounter c = counter();
    lib.rawCounterArray(c);
    for (int i = 1; i < 20; i++) {
      pdh.items.add(item("0," + i, i));
    }
    pdh.invalidArgumentWhenTooSmall = true;
    pdh.arrayCalls.clear();

    List<RawCounterItem> items = lib.rawCounterArray(c);

    assertThat(items).hasSize(20);
    assertThat(pdh.arrayCalls).hasSize(3);
    assertThat(pdh.arrayCalls.get(1)).isEqualTo("probe");
  }

  @Test
  void givesUpWithMoreDataAfterBoundedAttempts() {
    pdh.items.add(item("0,0", 1));
    pdh.neverFits = true;
    PdhCounter c = counter();

    assertThatThrownBy(() -> lib.rawCounterArray(c))
        .isInstanceOfSatisfying(
            PdhException.class,
            e -> {
              assertThat(e.status()).contains(PdhStatus.PDH_MORE_DATA);
              assertThat(e.call()).isEqualTo("PdhGetRawCounterArrayW");
              assertThat(e.path()).isEqualTo("\\Processor Information(*)\\% User Time");
            });
    assertThat(pdh.arrayCalls).hasSize(2 * JnaPdhLibrary.MAX_ARRAY_ATTEMPTS);
  }

  @Test
  void anEmptyArrayNeedsNoBuffer() {
    PdhCounter c = counter();

    assertThat(lib.rawCounterArray(c)).isEmpty();
    assertThat(lib.bufferedBytes()).isZero();
  }

  @Test
  void failuresCarryStatusCallAndPath() {
    pdh.arrayStatus = PdhStatus.PDH_CSTATUS_NO_OBJECT.code();
    PdhCounter c = counter();

    assertThatThrownBy(() -> lib.rawCounterArray(c))
        .isInstanceOfSatisfying(
            PdhException.class, e -> assertThat(e.statusName()).isEqualTo("PDH_CSTATUS_NO_OBJECT"));
    assertThatThrownBy(() -> lib.addEnglishCounter(lib.openQuery(), "\\Nope\\X"))
        .isInstanceOfSatisfying(
            PdhException.class,
            e -> {
              assertThat(e.is(PdhStatus.PDH_CSTATUS_NO_OBJECT)).isTrue();
              assertThat(e.call()).isEqualTo("PdhAddEnglishCounterW");
              assertThat(e.path()).isEqualTo("\\Nope\\X");
            });
    assertThatThrownBy(() -> lib.collectQueryData(lib.openQuery()))
        .isInstanceOfSatisfying(PdhException.class, e -> assertThat(e.is(PdhStatus.PDH_NO_DATA)).isTrue());
  }

  @Test
  void formattedArrayReadsTheUnionAtOffsetEight() {
    pdh.items.add(item("_Total", 10));
    pdh.items.add(item("0,0", 3));
    PdhCounter c = counter();

    List<PdhLibrary.FormattedCounterItem> items = lib.formattedCounterArray(c, PdhLibrary.PDH_FMT_DOUBLE);

    assertThat(items).extracting(PdhLibrary.FormattedCounterItem::instance).containsExactly("_Total", "0,0");
    assertThat(items.get(0).value().doubleValue()).isEqualTo(2.5);
    assertThat(items.get(1).value().doubleValue()).isEqualTo(0.75);
  }

  @Test
  void counterInfoReadsTypeScaleAndPath() {
    pdh.counterType = PERF_COUNTER_BULK_COUNT;

    PdhLibrary.CounterInfo info = lib.counterInfo(counter());

    assertThat(info.type()).isEqualTo(PERF_COUNTER_BULK_COUNT);
    assertThat(info.defaultScale()).isEqualTo(-2);
    assertThat(info.fullPath()).isEqualTo(pdh.fullPath);
  }

  @Test
  void calculatePassesTheNewerSampleFirst() {
    PdhCounter c = counter();
    PdhLibrary.RawCounter newer = new PdhLibrary.RawCounter(1, 0x0000_0002_0000_0003L, 500, 60, 0);
    PdhLibrary.RawCounter older = new PdhLibrary.RawCounter(0, 0, 200, 50, 0);

    PdhLibrary.FormattedValue v = lib.calculateFromRaw(c, PdhLibrary.PDH_FMT_DOUBLE, newer, older);

    assertThat(v.doubleValue()).isEqualTo(300.0);
    assertThat(pdh.seenNewer.FirstValue).isEqualTo(500);
    assertThat(pdh.seenNewer.TimeStamp.dwHighDateTime).isEqualTo(2);
    assertThat(pdh.seenNewer.TimeStamp.dwLowDateTime).isEqualTo(3);
    assertThat(pdh.seenOlder.FirstValue).isEqualTo(200);
    assertThat(lib.calculateFromRaw(c, PdhLibrary.PDH_FMT_DOUBLE, newer, null).doubleValue()).isEqualTo(500.0);
  }

  @Test
  void buffersAreFreedWithTheirQueryAndOnClose() {
    pdh.items.add(item("0,0", 1));
    PdhLibrary.PdhQuery q = lib.openQuery();
    PdhCounter a = lib.addEnglishCounter(q, "\\A(*)\\X");
    PdhCounter b = lib.addEnglishCounter(q, "\\B(*)\\Y");
    lib.rawCounterArray(a);
    lib.formattedCounterArray(b, PdhLibrary.PDH_FMT_LARGE);
    assertThat(lib.bufferedBytes()).isPositive();

    lib.closeQuery(q);
    assertThat(lib.bufferedBytes()).isZero();
    assertThat(pdh.closedQueries).isEqualTo(1);

    PdhCounter c = counter();
    lib.rawCounterArray(c);
    lib.close();
    assertThat(lib.bufferedBytes()).isZero();
  }

  @Test
  void kernel32CallsUseAllGroupsAndTheStructureLength() {
    assertThat(lib.globalMemoryStatus())
        .as("ullTotalPhys, ullAvailPhys, ullTotalVirtual read from the one call")
        .isEqualTo(new GlobalMemoryStatus(34_359_738_368L, 21_474_836_480L, 140_737_488_224_256L));
    assertThat(kernel32.lengthSeen).isEqualTo(64);
    assertThat(lib.activeProcessorCount()).isEqualTo(96);
    assertThat(kernel32.group).isEqualTo((short) 0xFFFF);
  }

  @Test
  @DisabledOnOs(OS.WINDOWS)
  void constructingTheRealLibraryLoadsNoDllUntilTheFirstCall() {
    JnaPdhLibrary real = new JnaPdhLibrary();
    real.close();

    assertThatThrownBy(real::openQuery).isInstanceOf(UnsatisfiedLinkError.class);
  }
}
