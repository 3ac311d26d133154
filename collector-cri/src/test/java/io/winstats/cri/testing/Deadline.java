package io.winstats.cri.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Polling against a deadline, so that tests never sleep blindly. A deadline only stops a test that would otherwise
 * hang; it never measures. So each is stretched {@value #SLACK} times: under two CPU burners beside other builds (load
 * average 16 on two cores) a daemon took more than 30 s to answer its first request, and a test failed on a start that
 * was merely slow.
 */
public final class Deadline {
  private static final Duration POLL = Duration.ofMillis(50);
  /** How many times its stated timeout a wait may last. */
  static final int SLACK = 4;

  private Deadline() {}

  /**
   * Polls {@code condition} every 50 ms until it holds.
   *
   * @throws AssertionError naming {@code what} if it still does not hold after {@code timeout} (times {@link #SLACK})
   */
  public static void await(String what, Duration timeout, BooleanSupplier condition) {
    long end = System.nanoTime() + timeout.toNanos() * SLACK;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - end > 0) {
        throw new AssertionError("timed out after " + timeout.multipliedBy(SLACK) + " waiting for " + what);
      }
      pause(POLL);
    }
  }

  /**
   * Polls {@code attempt} every 50 ms until it returns non-null; exceptions count as "not yet" and the last one is
   * attached to the failure.
   *
   * @throws AssertionError naming {@code what} after {@code timeout} (times {@link #SLACK})
   */
  public static <T> T poll(String what, Duration timeout, Supplier<@Nullable T> attempt) {
    long end = System.nanoTime() + timeout.toNanos() * SLACK;
    RuntimeException last = null;
    while (true) {
      try {
        T value = attempt.get();
        if (value != null) {
          return value;
        }
      } catch (RuntimeException e) {
        last = e;
      }
      if (System.nanoTime() - end > 0) {
        AssertionError error =
            new AssertionError("timed out after " + timeout.multipliedBy(SLACK) + " waiting for " + what);
        if (last != null) {
          error.initCause(last);
        }
        throw error;
      }
      pause(POLL);
    }
  }

  static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
