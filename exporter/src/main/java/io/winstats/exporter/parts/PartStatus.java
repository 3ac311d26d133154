package io.winstats.exporter.parts;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One part's row.
 *
 * @param name the part, e.g. {@code node_source}, {@code runtime}, {@code runtime.pod_stats}, {@code tasks_metrics}
 * @param state how it stands now
 * @param detail what was found when it last answered (runtime name and version, instance counts), or why it does not
 *     apply
 * @param cause why it is degraded or failed; null when ok or not applicable
 * @param fix what a user can do about a failure; null when there is nothing to do
 * @param lastSuccess when it last answered; null if never
 * @param lastError the last error's text; null if none
 * @param errorCount how many times it failed (or degraded) since the daemon started; 0 or 1 for {@code check}
 */
public record PartStatus(
    String name,
    PartState state,
    String detail,
    @Nullable String cause,
    @Nullable String fix,
    @Nullable Instant lastSuccess,
    @Nullable String lastError,
    long errorCount) {
  public PartStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(detail, "detail");
  }

  public static PartStatus ok(String name, String detail, Instant at) {
    return new PartStatus(name, PartState.OK, detail, null, null, at, null, 0);
  }

  public static PartStatus degraded(String name, String detail, String cause, @Nullable Instant lastSuccess) {
    return new PartStatus(name, PartState.DEGRADED, detail, cause, null, lastSuccess, cause, 1);
  }

  public static PartStatus failed(String name, String cause, String fix) {
    return new PartStatus(name, PartState.FAILED, "", cause, fix, null, cause, 1);
  }

  public static PartStatus notApplicable(String name, String why) {
    return new PartStatus(name, PartState.NOT_APPLICABLE, why, null, null, null, null, 0);
  }
}
