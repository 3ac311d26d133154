package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.CriStatsReader;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.RuntimeSampleBuilder;
import io.winstats.cri.WindowsStatsSource;
import io.winstats.exporter.parts.PartLedger;
import io.winstats.exporter.parts.PartState;
import io.winstats.exporter.parts.PartStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
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

  /**
   * A call failing for five minutes, asked every third round (its refresh) and failing each time, then answering for
   * five: one WARN when it starts, one INFO two minutes after its last failure, and each failure counted.
   */
  @Test
  void aCallFailingForMinutesLogsOnceEachWayAndCountsEachFailure() {
    PartLedger ledger = new PartLedger();
    RuntimeParts parts =
        new RuntimeParts(
            ledger, readingWith("Tasks.Metrics"), WindowsStatsSource.TASKS, Clock.fixed(NOW, ZoneOffset.UTC));
    List<String> lines = new ArrayList<>();
    Logger logger = Logger.getLogger(TaskCallFailures.class.getName());
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord r) {
        lines.add(r.getLevel() + " " + r.getMessage()); // the event's pattern: its fields are the record's own
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(capture);
    // Another test in the same JVM may have set the daemon's level (--log.level=warn sets the root's): this one's own.
    Level levelBefore = logger.getLevel();
    logger.setLevel(Level.INFO);
    try {
      for (int i = 0; i < 60; i++) {
        boolean asked = i % 3 == 0;
        RuntimeSampleBuilder round = RuntimeSample.builder(NOW.plusSeconds(10L * i), "containerd v1.7.20");
        if (i < 30 && asked) {
          round.callsFailed(Map.of("Tasks.ListPids", "task a: DEADLINE_EXCEEDED: context deadline exceeded"));
        }
        parts.answered(round.build());
      }
    } finally {
      logger.removeHandler(capture);
      logger.setLevel(levelBefore);
    }

    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).startsWith("WARNING event=cri_call_failed call=");
    assertThat(lines.get(1)).startsWith("INFO event=cri_call_recovered call=");
    assertThat(parts.callFailures())
        .as("each failed round counted; the other calls present at 0")
        .containsExactly(
            Map.entry("Tasks.ListPids", 10L), Map.entry("Snapshots.Usage", 0L), Map.entry("Introspection.Plugins", 0L));
  }
}
