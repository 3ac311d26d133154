package io.winstats.cri.rounds;

import com.github.benmanes.caffeine.cache.Ticker;
import io.grpc.stub.AbstractStub;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * What every call and every round of one reader shares, given once to each in place of its own copies.
 *
 * @param target the endpoint as messages and log lines name it
 * @param callTimeout the deadline of every gRPC call, positive
 * @param clock the wall clock: stamps samples and filesystem readings, times outages
 * @param ticker the monotonic clock: times retries and cache expiry
 */
record RuntimeContext(String target, Duration callTimeout, Clock clock, Ticker ticker) {
  RuntimeContext {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(callTimeout, "callTimeout");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ticker, "ticker");
    if (callTimeout.isNegative() || callTimeout.isZero()) {
      throw new IllegalArgumentException("callTimeout must be positive: " + callTimeout);
    }
  }

  /** {@code stub} with the call deadline, counted from now. */
  <S extends AbstractStub<S>> S withDeadline(S stub) {
    return stub.withDeadlineAfter(callTimeout.toNanos(), TimeUnit.NANOSECONDS);
  }
}
