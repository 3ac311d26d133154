package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.winstats.cri.api.containerd.Metric;
import io.winstats.cri.api.containerd.Statistics;
import io.winstats.cri.testing.ContainerdWindowsTasks;
import io.winstats.cri.testing.HcsReading;
import io.winstats.testing.Fuzz;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The daemon's own mapping of what containerd's Tasks.Metrics sends on Windows (issue 44), not protobuf-java: a task's
 * data decoded, its timestamps and its unsigned figures each give a value or the mapping's own error
 * ({@link TaskMetrics.UndecodableTask}, which sends the round to CRI stats, or IllegalArgumentException, which skips
 * that container), never another exception. Inputs: real statistics bytes bent, any bytes, timestamps and uint64s at
 * their edges.
 */
class TaskMetricsFuzzTest {
  @Test
  void aTasksDataDecodesOrIsUndecodable() {
    byte[] valid = Statistics.newBuilder()
        .setWindows(ContainerdWindowsTasks.windows(
            new HcsReading(1_700_000_000_000_000_000L, 5_000_000_000L, 3_000_000_000L, 2_000_000_000L, 1L << 30,
                1L << 31, 4_000_000_000L, 10, 4096, 20, 8192),
            1_600_000_000_000L))
        .build().toByteArray();
    Fuzz.forAll("task metrics: statistics bytes bent, and any bytes", r -> metric(r, valid), m -> {
      try {
        Statistics s = TaskMetrics.decode(m);
        if (s.hasWindows()) {
          var w = s.getWindows();
          for (long v : new long[] {w.getProcessor().getTotalRuntimeNs(), w.getMemory().getMemoryUsageCommitBytes(),
              w.getStorage().getReadSizeBytes()}) {
            try {
              assertThat(TasksStatsRound.unsigned(v, "field")).isNotNegative();
            } catch (IllegalArgumentException e) {
              assertThat(e.getMessage()).contains("exceeds 2^63-1");
            }
          }
          if (w.hasTimestamp()) {
            instantOrRefused(w.getTimestamp());
          }
        }
      } catch (TaskMetrics.UndecodableTask e) {
        assertThat(e.getMessage()).startsWith("task ");
      }
    });
  }

  @Test
  void aTimestampAtTheEdgesIsAnInstantOrRefused() {
    Fuzz.forAll("task metrics: timestamps at the edges", r -> Timestamp.newBuilder()
        .setSeconds(r.nextBoolean() ? r.nextLong() : Instant.MAX.getEpochSecond() + r.nextInt(-2, 3))
        .setNanos(r.nextBoolean() ? r.nextInt() : r.nextInt(1_000_000_000)).build(),
        TaskMetricsFuzzTest::instantOrRefused);
  }

  /** A crash the fuzzing found, kept: seconds past Instant's range threw DateTimeException out of the round. */
  @Test
  void aTimestampPastInstantsRangeIsRefused() {
    assertThatThrownBy(() -> TaskMetrics.instant(Timestamp.newBuilder().setSeconds(Long.MAX_VALUE).build()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timestamp out of range");
  }

  private static void instantOrRefused(Timestamp t) {
    try {
      assertThat(TaskMetrics.instant(t)).isNotNull();
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).contains("timestamp out of range");
    }
  }

  private static Metric metric(SplittableRandom r, byte[] valid) {
    byte[] data;
    if (r.nextInt(4) == 0) {
      data = Fuzz.bytes(r, 200);
    } else {
      data = valid.clone();
      for (int i = 1 + r.nextInt(4); i > 0 && data.length > 0; i--) {
        data[r.nextInt(data.length)] = (byte) r.nextInt(256);
      }
    }
    return Metric.newBuilder()
        .setId("task-" + r.nextInt(10))
        .setTimestamp(Timestamp.newBuilder().setSeconds(r.nextLong()).setNanos(r.nextInt()))
        .setData(Any.newBuilder().setTypeUrl(ContainerdWindowsTasks.TYPE_URL).setValue(ByteString.copyFrom(data)))
        .build();
  }
}
