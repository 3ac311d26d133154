package io.winstats.perfcounters.win32.jna;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Native;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The SCM structures against their x64 layouts, as winsvc.h declares them (Microsoft Learn: {@code
 * ENUM_SERVICE_STATUS_PROCESSW} = {@code LPWSTR lpServiceName; LPWSTR lpDisplayName; SERVICE_STATUS_PROCESS
 * ServiceStatusProcess;}, {@code SERVICE_STATUS_PROCESS} = nine {@code DWORD}s, {@code QUERY_SERVICE_CONFIGW} = {@code
 * DWORD dwServiceType, dwStartType, dwErrorControl; LPWSTR lpBinaryPathName, lpLoadOrderGroup; DWORD dwTagId; LPWSTR
 * lpDependencies, lpServiceStartName, lpDisplayName;}) under MSVC's natural alignment: pointers on 8, {@code DWORD}s on
 * 4, the size a multiple of the largest member's alignment. golang.org/x/sys/windows declares the same fields in the
 * same order (types_windows.go {@code ENUM_SERVICE_STATUS_PROCESS}, {@code QUERY_SERVICE_CONFIG}), which upstream
 * casts its buffers to (service.go:427,475@v0.31.8). JNA lays structures out the same way on Linux x86-64 and Windows
 * x64, so these run on any 64-bit host; none loads a DLL.
 */
@EnabledIf("pointersAre64Bit")
class StructureLayoutTest {

  static boolean pointersAre64Bit() {
    return Native.POINTER_SIZE == 8;
  }

  @Test
  void serviceStatusProcess() {
    EnumServiceStatusProcessW.Status s = new EnumServiceStatusProcessW.Status();
    assertThat(s.size()).isEqualTo(36);
    String[] fields = {
      "dwServiceType", "dwCurrentState", "dwControlsAccepted", "dwWin32ExitCode", "dwServiceSpecificExitCode",
      "dwCheckPoint", "dwWaitHint", "dwProcessId", "dwServiceFlags"
    };
    for (int i = 0; i < fields.length; i++) {
      assertThat(s.offsetOf(fields[i])).as(fields[i]).isEqualTo(4 * i);
    }
  }

  @Test
  void enumServiceStatusProcess() {
    EnumServiceStatusProcessW s = new EnumServiceStatusProcessW();
    assertThat(s.size()).as("52 bytes padded to 8").isEqualTo(56).isEqualTo(JnaServiceControlManager.ENUM_ITEM_SIZE);
    assertThat(s.offsetOf("lpServiceName")).isZero();
    assertThat(s.offsetOf("lpDisplayName")).isEqualTo(8);
    assertThat(s.offsetOf("ServiceStatusProcess")).isEqualTo(16);
  }

  @Test
  void queryServiceConfig() {
    QueryServiceConfigW s = new QueryServiceConfigW();
    assertThat(s.size()).isEqualTo(64);
    assertThat(s.offsetOf("dwServiceType")).isZero();
    assertThat(s.offsetOf("dwStartType")).isEqualTo(4);
    assertThat(s.offsetOf("dwErrorControl")).isEqualTo(8);
    assertThat(s.offsetOf("lpBinaryPathName")).as("a pointer after three DWORDs starts at 16").isEqualTo(16);
    assertThat(s.offsetOf("lpLoadOrderGroup")).isEqualTo(24);
    assertThat(s.offsetOf("dwTagId")).isEqualTo(32);
    assertThat(s.offsetOf("lpDependencies")).isEqualTo(40);
    assertThat(s.offsetOf("lpServiceStartName")).isEqualTo(48);
    assertThat(s.offsetOf("lpDisplayName")).isEqualTo(56);
  }
}
