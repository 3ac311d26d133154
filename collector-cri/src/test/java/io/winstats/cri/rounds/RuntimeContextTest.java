package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import io.grpc.CallOptions;
import io.grpc.Deadline;
import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.winstats.cri.api.RuntimeServiceGrpc;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The context every call and round of a reader shares: a positive deadline, given to each stub it is asked for. */
class RuntimeContextTest {
  private static RuntimeContext context(Duration callTimeout) {
    return new RuntimeContext("unix:///run/test.sock", callTimeout, Clock.systemUTC(), Ticker.systemTicker());
  }

  @Test
  void aCallTimeoutThatIsNotPositiveIsRefused() {
    assertThatThrownBy(() -> context(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("callTimeout must be positive: PT0S");
    assertThatThrownBy(() -> context(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("callTimeout must be positive: PT-1S");
  }

  @Test
  void aStubGetsTheCallTimeoutAsItsDeadline() {
    ManagedChannel channel = InProcessChannelBuilder.forName("runtime-context-test").build();
    try {
      RuntimeServiceGrpc.RuntimeServiceBlockingStub stub =
          context(Duration.ofHours(3)).withDeadline(RuntimeServiceGrpc.newBlockingStub(channel));
      Deadline deadline = stub.getCallOptions().getDeadline();
      assertThat(deadline).isNotNull();
      // Counted from now: at most 3 h left, and more than 1 h however slowly this test runs; the stub had none.
      assertThat(deadline.timeRemaining(TimeUnit.MINUTES)).isBetween(60L, 180L);
      assertThat(RuntimeServiceGrpc.newBlockingStub(channel).getCallOptions().getDeadline())
          .isEqualTo(CallOptions.DEFAULT.getDeadline());
    } finally {
      channel.shutdownNow();
    }
  }
}
