package io.winstats.perfcounters.pdh.jna;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Native;
import io.winstats.perfcounters.win32.jna.Guid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The JNA structures against their x64 layouts (offsetof/sizeof of mingw-w64 10.0.0's {@code pdh.h} and {@code
 * winbase.h} structures, measured with x86_64-w64-mingw32-gcc under Wine; natural alignment). JNA lays structures out the same way on Linux x86-64 and Windows x64, so these run on any
 * 64-bit host; none of them loads pdh.dll.
 */
@EnabledIf("pointersAre64Bit")
class StructureLayoutTest {

  static boolean pointersAre64Bit() {
    return Native.POINTER_SIZE == 8;
  }

  @Test
  void fileTime() {
    PdhRawCounter.FileTime s = new PdhRawCounter.FileTime();
    assertThat(s.size()).isEqualTo(8);
    assertThat(s.offsetOf("dwLowDateTime")).isZero();
    assertThat(s.offsetOf("dwHighDateTime")).isEqualTo(4);
  }

  @Test
  void rawCounter() {
    PdhRawCounter s = new PdhRawCounter();
    assertThat(s.size()).isEqualTo(40);
    assertThat(s.offsetOf("CStatus")).isZero();
    assertThat(s.offsetOf("TimeStamp")).as("FILETIME has alignment 4").isEqualTo(4);
    assertThat(s.offsetOf("FirstValue")).isEqualTo(16);
    assertThat(s.offsetOf("SecondValue")).isEqualTo(24);
    assertThat(s.offsetOf("MultiCount")).isEqualTo(32);
  }

  @Test
  void rawCounterItem() {
    PdhRawCounterItemW s = new PdhRawCounterItemW();
    assertThat(s.size()).isEqualTo(48).isEqualTo(JnaPdhLibrary.RAW_ITEM_SIZE);
    assertThat(s.offsetOf("szName")).isZero();
    assertThat(s.offsetOf("RawValue")).isEqualTo(8);
  }

  @Test
  void formattedValue() {
    PdhFmtCounterValue s = new PdhFmtCounterValue();
    assertThat(s.size()).isEqualTo(16);
    assertThat(s.offsetOf("CStatus")).isZero();
    assertThat(s.offsetOf("Value")).as("the union starts at 8, not 4").isEqualTo(8);
    PdhFmtCounterValue.ValueUnion u = new PdhFmtCounterValue.ValueUnion();
    assertThat(u.size()).isEqualTo(8);
    for (String member : new String[] {"longValue", "doubleValue", "largeValue", "AnsiStringValue", "WideStringValue"}) {
      assertThat(u.offsetOf(member)).as(member).isZero();
    }
  }

  @Test
  void formattedValueItem() {
    PdhFmtCounterValueItemW s = new PdhFmtCounterValueItemW();
    assertThat(s.size()).isEqualTo(24).isEqualTo(JnaPdhLibrary.FMT_ITEM_SIZE);
    assertThat(s.offsetOf("szName")).isZero();
    assertThat(s.offsetOf("FmtValue")).isEqualTo(8);
  }

  @Test
  void counterInfo() {
    PdhCounterInfoW s = new PdhCounterInfoW();
    assertThat(s.size()).isEqualTo(112).isEqualTo(JnaPdhLibrary.FIXED_COUNTER_INFO_SIZE);
    String[] fields = {
      "dwLength", "dwType", "CVersion", "CStatus", "lScale", "lDefaultScale", "dwUserData", "dwQueryUserData",
      "szFullPath", "Path", "szExplainText", "DataBuffer"
    };
    int[] offsets = {0, 4, 8, 12, 16, 20, 24, 32, 40, 48, 96, 104};
    for (int i = 0; i < fields.length; i++) {
      assertThat(s.offsetOf(fields[i])).as(fields[i]).isEqualTo(offsets[i]);
    }
    assertThat(new PdhCounterInfoW.PathUnion().size()).isEqualTo(48);
  }

  @Test
  void counterPathElements() {
    PdhCounterInfoW.CounterPathElementsW s = new PdhCounterInfoW.CounterPathElementsW();
    assertThat(s.size()).isEqualTo(48);
    String[] fields = {
      "szMachineName", "szObjectName", "szInstanceName", "szParentInstance", "dwInstanceIndex", "szCounterName"
    };
    int[] offsets = {0, 8, 16, 24, 32, 40};
    for (int i = 0; i < fields.length; i++) {
      assertThat(s.offsetOf(fields[i])).as(fields[i]).isEqualTo(offsets[i]);
    }
  }

  @Test
  void dataItemPathElements() {
    PdhCounterInfoW.DataItemPathElementsW s = new PdhCounterInfoW.DataItemPathElementsW();
    assertThat(s.size()).isEqualTo(40);
    assertThat(s.offsetOf("szMachineName")).isZero();
    assertThat(s.offsetOf("ObjectGUID")).isEqualTo(8);
    assertThat(s.offsetOf("dwItemId")).isEqualTo(24);
    assertThat(s.offsetOf("szInstanceName")).isEqualTo(32);
    assertThat(new Guid().size()).isEqualTo(16);
  }

  @Test
  void memoryStatusEx() {
    MemoryStatusEx s = new MemoryStatusEx();
    assertThat(s.size()).isEqualTo(64);
    assertThat(s.dwLength).as("set for the call").isEqualTo(64);
    String[] fields = {
      "dwLength", "dwMemoryLoad", "ullTotalPhys", "ullAvailPhys", "ullTotalPageFile", "ullAvailPageFile",
      "ullTotalVirtual", "ullAvailVirtual", "ullAvailExtendedVirtual"
    };
    int[] offsets = {0, 4, 8, 16, 24, 32, 40, 48, 56};
    for (int i = 0; i < fields.length; i++) {
      assertThat(s.offsetOf(fields[i])).as(fields[i]).isEqualTo(offsets[i]);
    }
  }
}
