package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.CriStatsReader;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.WindowsStatsSource;
import io.winstats.exporter.parts.PartLedger;
import io.winstats.exporter.parts.PartState;
import io.winstats.exporter.parts.PartStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The running daemon's runtime rows ({@link RuntimeParts}) from its CRI rounds: a task-source call that did not answer
 * is filed under {@code tasks_metrics} with its cause, in the same ledger {@code /status} serves.
 */
class RuntimePartsTest {
  private static final Instant NOW = Instant.parse("2026-11-28T04:00:00Z");

  /** A reader that only says which call its rounds read with; the rounds are handed to {@link RuntimeParts}. */
  private static CriStatsReader readingWith(String path) {
    return new CriStatsReader() {
      @Override
      public String name() {
        return "cri";
      }

      @Override
      public RuntimeSample sample() {
        throw new UnsupportedOperationException("rounds are handed to RuntimeParts directly");
      }

      @Override
      public Map<String, Long> cacheEntries() {
        return Map.of();
      }

      @Override
      public Map<String, Long> streamFallbacks() {
        return Map.of();
      }

      @Override
      public String statsPath() {
        return path;
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void aTaskCallThatDidNotAnswerIsFiledUnderTheTasksRowUntilEveryCallAnswers() {
    PartLedger ledger = new PartLedger();
    RuntimeParts parts =
        new RuntimeParts(
            ledger, readingWith("Tasks.Metrics"), WindowsStatsSource.TASKS, Clock.fixed(NOW, ZoneOffset.UTC));

    parts.answered(
        RuntimeSample.builder(NOW, "containerd v1.7.20")
            .callsFailed(Map.of("Snapshots.Usage", "snapshot a: UNKNOWN: Access is denied."))
            .build());
    PartStatus degraded = ledger.get(SelfCheck.TASKS_METRICS);
    parts.answered(RuntimeSample.builder(NOW.plusSeconds(10), "containerd v1.7.20").build());
    PartStatus answered = ledger.get(SelfCheck.TASKS_METRICS);

    assertThat(degraded.state()).isEqualTo(PartState.DEGRADED);
    assertThat(degraded.cause()).startsWith("Snapshots.Usage did not answer: snapshot a: UNKNOWN: Access is denied.");
    assertThat(ledger.get(SelfCheck.RUNTIME).detail()).startsWith("containerd v1.7.20 path=Tasks.Metrics");
    assertThat(ledger.get(SelfCheck.HNS).state()).as("HNS answered").isEqualTo(PartState.OK);
    assertThat(answered.state()).isEqualTo(PartState.OK);
    assertThat(answered.detail()).isEqualTo(SelfCheck.TASK_CALLS);
    assertThat(answered.errorCount()).as("the degraded round counted once").isEqualTo(1);
  }
}
