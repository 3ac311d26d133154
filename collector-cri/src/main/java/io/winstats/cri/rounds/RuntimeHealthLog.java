package io.winstats.cri.rounds;

import io.winstats.cri.CriException;
import io.winstats.cri.CriStatsReader;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reader's health changes, logged once each: {@code event=cri_connected} at INFO the first time, then {@code
 * event=cri_failing} and {@code event=cri_recovered} (with the outage's length) at DEBUG. The exporter's sampling
 * loop logs failure and recovery once per state change for every collector; here the detail (and the stack) goes to
 * DEBUG so that an operator sees one line, not two. Used under the reader's lock only.
 */
final class RuntimeHealthLog {
  private static final Logger LOG = LoggerFactory.getLogger(CriStatsReader.class);

  private final RuntimeContext context;

  private boolean everHealthy;
  private CriException.@Nullable Reason failing;
  private @Nullable Instant failingSince;

  RuntimeHealthLog(RuntimeContext context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  /** Whether the last round failed because the connection did: the next one starts a new connection at once. */
  boolean connectionLost() {
    return failing == CriException.Reason.UNAVAILABLE || failing == CriException.Reason.UNTRUSTED_PIPE;
  }

  /** A round of {@code runtime} succeeded. */
  void healthy(String runtime) {
    if (failing != null) {
      Duration outage =
          failingSince == null ? Duration.ZERO : Duration.between(failingSince, context.clock().instant());
      LOG.debug("event=cri_recovered endpoint={} runtime={} outage={}", context.target(), runtime, outage);
    } else if (!everHealthy) {
      LOG.info("event=cri_connected endpoint={} runtime={}", context.target(), runtime);
    }
    everHealthy = true;
    failing = null;
    failingSince = null;
  }

  /** A round failed with {@code e}, which is returned for the caller to throw. */
  CriException failed(CriException e) {
    if (failing == null) {
      failingSince = context.clock().instant();
      LOG.debug(
          "event=cri_failing endpoint={} reason={} cause={}",
          context.target(),
          e.reason().label(),
          e.getMessage(),
          e);
    } else if (failing != e.reason()) {
      LOG.debug(
          "event=cri_failing endpoint={} reason={} cause={}", context.target(), e.reason().label(), e.getMessage());
    } else {
      LOG.debug(
          "event=cri_still_failing endpoint={} reason={} cause={}",
          context.target(),
          e.reason().label(),
          e.getMessage());
    }
    failing = e.reason();
    return e;
  }
}
