package io.winstats.cri.npipe;

import io.winstats.cri.rounds.CriStatsReaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriReaderOptions;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * What of {@link WindowsPipeConnection} holds on any OS: the Win32 layout and constants it relies on (values from
 * mingw-w64 10 headers, checked with offsetof under Wine; Microsoft Learn, OVERLAPPED,
 * https://learn.microsoft.com/windows/win32/api/minwinbase/ns-minwinbase-overlapped) and that nothing binds kernel32 off Windows.
 */
class WindowsPipeConnectionTest {
  @Test
  void overlappedHasTheX64Layout() {
    WindowsPipeConnection.Overlapped o = new WindowsPipeConnection.Overlapped();
    assertThat(o.size()).isEqualTo(32);
    assertThat(o.offsetOf("Internal")).isZero();
    assertThat(o.offsetOf("InternalHigh")).isEqualTo(8);
    assertThat(o.offsetOf("Offset")).isEqualTo(16);
    assertThat(o.offsetOf("OffsetHigh")).isEqualTo(20);
    assertThat(o.offsetOf("hEvent")).isEqualTo(24);
  }

  @Test
  void createFileFlagsMatchTheSdk() {
    assertThat(WindowsPipeConnection.GENERIC_READ | WindowsPipeConnection.GENERIC_WRITE).isEqualTo(0xC000_0000);
    assertThat(WindowsPipeConnection.OPEN_EXISTING).isEqualTo(3);
    assertThat(WindowsPipeConnection.FILE_FLAG_OVERLAPPED).isEqualTo(0x4000_0000);
    assertThat(WindowsPipeConnection.SECURITY_SQOS_PRESENT).isEqualTo(0x0010_0000);
  }

  @Test
  void tokenStructuresHaveTheX64Layout() {
    // winnt.h: TOKEN_USER is one SID_AND_ATTRIBUTES {PSID Sid; DWORD Attributes}, padded to 16; TOKEN_OWNER {PSID}.
    WindowsServerProcessInspector.TokenUser user = new WindowsServerProcessInspector.TokenUser();
    assertThat(user.size()).isEqualTo(16);
    assertThat(user.offsetOf("Sid")).isZero();
    assertThat(user.offsetOf("Attributes")).isEqualTo(8);
    assertThat(new WindowsServerProcessInspector.TokenOwner().size()).isEqualTo(8);
  }

  @Test
  void processAndTokenConstantsMatchTheSdk() {
    // winnt.h / processthreadsapi.h; TOKEN_INFORMATION_CLASS: TokenUser = 1, TokenOwner = 4.
    assertThat(WindowsServerProcessInspector.PROCESS_QUERY_LIMITED_INFORMATION).isEqualTo(0x1000);
    assertThat(WindowsServerProcessInspector.TOKEN_QUERY).isEqualTo(0x0008);
    assertThat(WindowsServerProcessInspector.TOKEN_USER).isEqualTo(1);
    assertThat(WindowsServerProcessInspector.TOKEN_OWNER).isEqualTo(4);
    assertThat(Win32Error.describe(87)).isEqualTo("ERROR_INVALID_PARAMETER (87)");
    assertThat(Win32Error.describe(122)).isEqualTo("ERROR_INSUFFICIENT_BUFFER (122)");
  }

  @Test
  @DisabledOnOs(OS.WINDOWS)
  void theProcessInspectorBindsNothingUntilUsed() {
    assertThat(WindowsServerProcessInspector.INSTANCE).isNotNull();
    assertThat(WindowsServerProcessInspector.bound()).isFalse();
  }

  @Test
  void errorsAreNamed() {
    assertThat(Win32Error.describe(231)).isEqualTo("ERROR_PIPE_BUSY (231)");
    assertThat(Win32Error.describe(2)).isEqualTo("ERROR_FILE_NOT_FOUND (2)");
    assertThat(Win32Error.describe(995)).isEqualTo("ERROR_OPERATION_ABORTED (995)");
    assertThat(Win32Error.describe(997)).isEqualTo("ERROR_IO_PENDING (997)");
    assertThat(Win32Error.describe(0xC000_0005)).isEqualTo("Win32 error 3221225477");
    assertThat(Win32Error.ERROR_SEM_TIMEOUT.code).isEqualTo(121);
    assertThat(Win32Error.ERROR_MORE_DATA.code).isEqualTo(234);
    assertThat(Win32Error.ERROR_NOT_FOUND.code).isEqualTo(1168);
    assertThat(Win32Error.isEndOfStream(109)).isTrue();
    assertThat(Win32Error.isEndOfStream(233)).isTrue();
    assertThat(Win32Error.isEndOfStream(995)).isFalse();
  }

  @Test
  @DisabledOnOs(OS.WINDOWS)
  void offWindowsANamedPipeEndpointFailsWithoutBindingKernel32() {
    CriEndpoint pipe = CriEndpoint.parse("npipe:////./pipe/containerd-containerd");
    assertThatThrownBy(() -> CriStatsReaders.open(pipe, CriReaderOptions.of(Duration.ofSeconds(1), Clock.systemUTC())))
        .isInstanceOfSatisfying(
            CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.UNAVAILABLE));
    assertThat(WindowsPipeConnection.kernelBound()).isFalse();
  }
}
