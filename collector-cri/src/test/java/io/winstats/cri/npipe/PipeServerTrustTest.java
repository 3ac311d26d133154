package io.winstats.cri.npipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** {@link PipeServerTrust} against a fake {@link ServerProcessInspector}: which pipe servers are talked to. */
class PipeServerTrustTest {
  private static final String PIPE = "\\\\.\\pipe\\containerd-containerd";
  private static final String USER = "S-1-5-21-1004336348-1177238915-682003330-1001";
  private static final String CONTAINERD = "C:\\Program Files\\containerd\\containerd.exe";

  private static PipeServerTrust trustFinding(PipeServerProcess process) {
    return PipeServerTrust.systemOrAdministrators(
        pid -> {
          assertThat(pid).isEqualTo(process.pid());
          return process;
        });
  }

  @Test
  void aRuntimeRunningAsLocalSystemIsTrusted() throws Exception {
    // containerd registered as a service (containerd --register-service) runs as LocalSystem.
    PipeServerProcess service = new PipeServerProcess(4242, "S-1-5-18", "S-1-5-32-544", CONTAINERD);
    assertThat(trustFinding(service).verify(PIPE, 4242)).isEqualTo(service);
    PipeServerProcess systemOwned = new PipeServerProcess(4242, "S-1-5-18", "S-1-5-18", CONTAINERD);
    assertThat(trustFinding(systemOwned).verify(PIPE, 4242)).isEqualTo(systemOwned);
  }

  @Test
  void aRuntimeStartedByAnElevatedAdministratorIsTrusted() throws Exception {
    PipeServerProcess elevated = new PipeServerProcess(77, USER, "S-1-5-32-544", CONTAINERD);
    assertThat(trustFinding(elevated).verify(PIPE, 77)).isEqualTo(elevated);
  }

  @Test
  void anOrdinaryUsersProcessIsRefusedWithEverythingKnownAboutIt() {
    // Squatting the name while containerd is down; even the real binary is refused when a user runs it.
    PipeServerProcess squatter = new PipeServerProcess(9000, USER, USER, "C:\\Users\\eve\\containerd.exe");
    assertThatThrownBy(() -> trustFinding(squatter).verify(PIPE, 9000))
        .isInstanceOf(UntrustedPipeException.class)
        .hasMessage(
            PIPE
                + " is served by pid=9000 user="
                + USER
                + " owner="
                + USER
                + " image=C:\\Users\\eve\\containerd.exe, not by LocalSystem or Administrators: not the container"
                + " runtime");
  }

  @Test
  void aServerWhoseTokenCannotBeReadIsRefused() {
    PipeServerProcess unreadable = new PipeServerProcess(12, null, null, CONTAINERD);
    assertThatThrownBy(() -> trustFinding(unreadable).verify(PIPE, 12)).isInstanceOf(UntrustedPipeException.class);
  }

  @Test
  void aServerThatCannotBeOpenedIsRefusedNamingWhy() {
    PipeServerTrust trust =
        PipeServerTrust.systemOrAdministrators(
            pid -> {
              throw new IOException("OpenProcess pid=" + pid + ": ERROR_ACCESS_DENIED (5)");
            });
    assertThatThrownBy(() -> trust.verify(PIPE, 31))
        .isInstanceOf(UntrustedPipeException.class)
        .hasMessageContaining("pid=31, which could not be inspected (OpenProcess pid=31: ERROR_ACCESS_DENIED (5))")
        .hasCauseInstanceOf(IOException.class);
  }
}
