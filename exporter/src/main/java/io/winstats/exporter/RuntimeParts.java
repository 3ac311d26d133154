package io.winstats.exporter;

import io.winstats.cri.CriStatsReader;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.WindowsStatsSource;
import io.winstats.exporter.parts.PartLedger;
import io.winstats.exporter.parts.PartState;
import io.winstats.exporter.parts.PartStatus;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime's parts in the running daemon's ledger, from each CRI round: the endpoint, and on a Windows node with
 * task metrics the task source and HNS. After the first round, one line names the runtime and its version, the stats
 * source in use, each part's state and the task-source calls that did not answer ({@code tasks_calls_failed}), and
 * one more line per part that did not answer names it with its cause (a failed {@code Tasks.ListPids}, {@code
 * Snapshots.Usage} or {@code Introspection.Plugins} makes {@code tasks_metrics} degraded, naming the call): the
 * start-up report, from the same rows {@code /status} serves.
 */
final class RuntimeParts {
  private static final Logger LOG = LoggerFactory.getLogger(RuntimeParts.class);

  private final PartLedger ledger;
  private final CriStatsReader cri;
  private final @Nullable WindowsStatsSource windowsStats;
  private final Clock clock;
  private final AtomicBoolean reported = new AtomicBoolean();
  private final TaskCallFailures callFailures = new TaskCallFailures();

  /** {@code windowsStats} is the Windows node's stats source, null on a Linux node. */
  RuntimeParts(PartLedger ledger, CriStatsReader cri, @Nullable WindowsStatsSource windowsStats, Clock clock) {
    this.ledger = ledger;
    this.cri = cri;
    this.windowsStats = windowsStats;
    this.clock = clock;
    boolean tasks = windowsStats == WindowsStatsSource.TASKS;
    for (String part : List.of(SelfCheck.TASKS_METRICS, SelfCheck.HNS)) {
      if (!tasks) {
        ledger.notApplicable(
            part, windowsStats == null ? "a Linux node" : "--cri.windows-stats=" + windowsStats.word());
      }
    }
  }

  void answered(RuntimeSample round) {
    String path = cri.statsPath();
    ledger.ok(
        SelfCheck.RUNTIME, round.runtimeName() + " path=" + path + " pods=" + round.pods().size(), round.timestamp());
    if (windowsStats == WindowsStatsSource.TASKS) {
      task(SelfCheck.TASKS_METRICS, round, path);
      task(SelfCheck.HNS, round, path);
      callFailures.record(round);
    }
    if (reported.compareAndSet(false, true)) {
      report(round.runtimeName(), path, String.join(",", round.callsFailed().keySet()));
    }
  }

  /** The task source's calls that failed alone, per call, since start. */
  java.util.Map<String, Long> callFailures() {
    return callFailures.counts();
  }

  /** Whether the rounds read the task source, whose calls {@link #callFailures()} counts. */
  boolean readsTasks() {
    return windowsStats == WindowsStatsSource.TASKS;
  }

  void failed(String cause) {
    ledger.error(
        SelfCheck.RUNTIME, PartState.FAILED, cause,
        "is the runtime running and its socket or pipe mounted at --cri.endpoint? (check prints its row)");
    if (reported.compareAndSet(false, true)) {
      report("none", "none", "");
    }
  }

  /**
   * A part that began to fall back this round is degraded; it stays so while the round reads CRI stats instead of
   * task metrics. HNS has no signal of recovery but its next fallback, so it is ok again only once task metrics are
   * read and no fallback started for it.
   */
  private void task(String part, RuntimeSample round, String path) {
    boolean fellBack = round.fallbacksStarted().contains(part);
    boolean criInstead = path.startsWith("List");
    if (fellBack) {
      ledger.error(part, PartState.DEGRADED, part + " failed; figures come from CRI stats (the log line"
          + " event=cri_" + (part.equals(SelfCheck.HNS) ? "hns" : "tasks") + "_fallback names the call and cause)",
          null);
    } else if (part.equals(SelfCheck.TASKS_METRICS) ? !criInstead : !criInstead && !degraded(part)) {
      String failed = part.equals(SelfCheck.TASKS_METRICS) ? SelfCheck.tasksCallsFailed(round) : null;
      if (failed != null) {
        ledger.error(part, PartState.DEGRADED, failed, null);
      } else {
        ledger.ok(part, part.equals(SelfCheck.TASKS_METRICS) ? SelfCheck.TASK_CALLS : "answered", clock.instant());
      }
    }
  }

  private boolean degraded(String part) {
    PartStatus row = ledger.get(part);
    return row != null && row.state() == PartState.DEGRADED;
  }

  private void report(String runtime, String path, String callsFailed) {
    PartStatus tasks = ledger.get(SelfCheck.TASKS_METRICS);
    PartStatus hns = ledger.get(SelfCheck.HNS);
    LOG.info(
        "event=runtime_parts runtime={} stats_source={} {}={} tasks_calls_failed={} {}={}",
        runtime, path, SelfCheck.TASKS_METRICS, tasks == null ? "unknown" : tasks.state().word(),
        callsFailed.isEmpty() ? "none" : callsFailed, SelfCheck.HNS, hns == null ? "unknown" : hns.state().word());
    for (PartStatus row : ledger.rows()) {
      if (row.state() == PartState.DEGRADED || row.state() == PartState.FAILED) {
        // INFO: the failure itself is the WARN of the collector (event=collector_failed) or of the fallback
        // (event=cri_tasks_fallback, event=cri_hns_fallback), once; this line only files it under its part.
        LOG.info("event=part_not_ok part={} state={} cause={}", row.name(), row.state().word(), row.cause());
      }
    }
  }
}
