package io.winstats.cri.rounds;

import io.winstats.cri.CriException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.cri.npipe.UntrustedPipeException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import io.winstats.cri.testing.Deadline;
import org.jspecify.annotations.Nullable;

/**
 * A named pipe served by a process that is not the runtime is counted as {@code untrusted_pipe}, not as the runtime
 * being down: the connector refuses the connection, gRPC fails it as {@code UNAVAILABLE} with the refusal as its
 * cause, and the reader tells them apart.
 */
class CriStatsReaderUntrustedPipeTest {
  @Test
  void aRefusedPipeServerIsAnUntrustedPipeUntilTheRefusalEnds() {
    AtomicReference<IOException> openFails =
        new AtomicReference<>(
            new UntrustedPipeException(
                "\\\\.\\pipe\\containerd-containerd is served by pid=9000 user=S-1-5-21-1-2-3-1001, not by"
                    + " LocalSystem or Administrators: not the container runtime"));
    try (RuntimeStatsReader reader =
        RuntimeStatsReader.openOver(
            "npipe:////./pipe/containerd-containerd",
            () -> {
              throw openFails.get();
            },
            Duration.ofSeconds(5),
            Clock.systemUTC())) {
      assertThatThrownBy(reader::sample)
          .isInstanceOfSatisfying(
              CriException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(CriException.Reason.UNTRUSTED_PIPE);
                assertThat(e.reason().label()).isEqualTo("untrusted_pipe");
                assertThat(e).hasMessageContaining("pid=9000").hasCauseInstanceOf(UntrustedPipeException.class);
              });
      // The squatter is gone and the pipe with it: an outage again. gRPC fails calls with the last connect error
      // until its reconnect backoff (1 s at first) has passed, so the new reason shows from the next attempt on.
      openFails.set(new IOException("CreateFileW \\\\.\\pipe\\containerd-containerd: ERROR_FILE_NOT_FOUND (2)"));
      Deadline.await(
          "the reason UNAVAILABLE", Duration.ofSeconds(10), () -> reasonOf(reader) == CriException.Reason.UNAVAILABLE);
    }
  }

  /** The reason the sample failed with; the endpoint never opens here, so it always fails. */
  private static CriException.@Nullable Reason reasonOf(RuntimeStatsReader reader) {
    try {
      reader.sample();
      return null;
    } catch (CriException e) {
      return e.reason();
    }
  }
}
