package io.winstats.exporter.parts;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The running daemon's parts, as each loop round or probe reports them: the current state, and across rounds the
 * last success, the last error and how many errors there were. Rows keep the order their parts were first reported
 * in. Thread-safe: the sampling loops write, the server reads.
 */
public final class PartLedger {
  private final Map<String, PartStatus> parts = new LinkedHashMap<>();

  /** {@code name} answered at {@code at}: ok, its cause cleared, its error history kept. */
  public synchronized void ok(String name, String detail, Instant at) {
    PartStatus was = parts.get(name);
    parts.put(
        name,
        new PartStatus(
            name, PartState.OK, detail, null, null, at, was == null ? null : was.lastError(),
            was == null ? 0 : was.errorCount()));
  }

  /** {@code name} failed or degraded for {@code cause}; its last success and last detail are kept. */
  public synchronized void error(String name, PartState state, String cause, @Nullable String fix) {
    if (state == PartState.OK || state == PartState.NOT_APPLICABLE) {
      throw new IllegalArgumentException("an error is degraded or failed, not " + state.word());
    }
    PartStatus was = parts.get(name);
    parts.put(
        name,
        new PartStatus(
            name, state, was == null ? "" : was.detail(), cause, fix, was == null ? null : was.lastSuccess(), cause,
            (was == null ? 0 : was.errorCount()) + 1));
  }

  /** {@code name} is not used here, for {@code why}. */
  public synchronized void notApplicable(String name, String why) {
    parts.put(name, PartStatus.notApplicable(name, why));
  }

  /** A row as a probe found it, replacing the last state but adding to the error count. */
  public synchronized void put(PartStatus row) {
    PartStatus was = parts.get(row.name());
    long errors = (was == null ? 0 : was.errorCount()) + row.errorCount();
    Instant lastSuccess = row.lastSuccess() != null || was == null ? row.lastSuccess() : was.lastSuccess();
    String lastError = row.lastError() != null || was == null ? row.lastError() : was.lastError();
    parts.put(
        row.name(),
        new PartStatus(row.name(), row.state(), row.detail(), row.cause(), row.fix(), lastSuccess, lastError, errors));
  }

  /** The state of {@code name}, or null when it has not been reported. */
  public synchronized @Nullable PartStatus get(String name) {
    return parts.get(name);
  }

  /** Every part, in the order each was first reported. */
  public synchronized List<PartStatus> rows() {
    return new ArrayList<>(parts.values());
  }
}
