package io.winstats.summary;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The node's {@code usageNanoCores} comes from the monotonic clock carried in each node sample, so a wall-clock step
 * between two samples changes the samples' timestamps but not the rate. Half a core used over 10 s of monotonic time.
 */
class NodeRateClockStepTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00.250Z");
  private final SummaryAssembler assembler = new SummaryAssembler("node", NodePlatform.LINUX);

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "null",
      textBlock =
          """
          # case,                           wall step s, monotonic elapsed ns, CPU used ns,  expected nano-cores
          no step,                          10,          10000000000,          5000000000,   500000000
          wall clock 1 h back,              -3590,       10000000000,          5000000000,   500000000
          wall clock 1 day ahead,           86410,       10000000000,          5000000000,   500000000
          wall clock stands still,          0,           10000000000,          5000000000,   500000000
          no monotonic time passed,         10,          0,                    5000000000,   null
          CPU counter went down,            10,          10000000000,          -1,           null
          """)
  void rateIgnoresTheWallClock(
      String ignoredCase, long wallStepSeconds, long monotonicElapsedNanos, long cpuUsedNanos, @Nullable Long expected) {
    long busy0 = 20_000_000_000L;
    NodeSample previous = SampleFixtures.linuxNode(T0, 1_000_000_000L, busy0);
    NodeSample current =
        SampleFixtures.linuxNode(
            T0.plus(Duration.ofSeconds(wallStepSeconds)), 1_000_000_000L + monotonicElapsedNanos, busy0 + cpuUsedNanos);

    Long nanoCores = assembler.assemble(current, previous, null).node().cpu().usageNanoCores();

    assertThat(nanoCores).isEqualTo(expected);
  }
}
