package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.ProcessorCounters;
import io.winstats.perfcounters.WorkingSetDefinition;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-core {@code \Processor Information(*)} counters windows_exporter v0.31.8's cpu collector serves, through
 * {@link FakePdhLibrary} with the synthetic-4cpu fixture (made up, not recorded), read as it reads them: every instance
 * ending in {@code _Total} dropped ({@code internal/pdh/collector.go:380-382@v0.31.8}); a 100 ns timer as FirstValue ×
 * 1e-7 s and any other counter as its FirstValue ({@code collector.go:421-436@v0.31.8}); the RTC and MPERF ticks as
 * the 32-bit SecondValue of {@code % Processor Utility} and {@code % Processor Performance} added up from 0 by {@code
 * utils.Counter} ({@code internal/collector/cpu/cpu.go:215-229@v0.31.8}, {@code internal/utils/counter.go:24-42}).
 */
class PdhProcessorCountersTest {
  @TempDir Path kubeletRoot;

  private static final String FIXTURE = "fixtures/pdh/synthetic-4cpu/sample-1.tsv";

  private final FakePdhLibrary fake = new FakePdhLibrary().load(FIXTURE);
  private final AtomicLong nanos = new AtomicLong(1_000);
  private PdhNodeSource source;

  private List<ProcessorCounters> sample() {
    if (source == null) {
      PdhSourceOptions options =
          FakeSourceOptions.of(
              Duration.ofSeconds(30),
              WorkingSetDefinition.KUBELET,
              kubeletRoot,
              nanos::incrementAndGet,
              new CapturingLogger());
      Clock clock = Clock.fixed(Instant.parse("2025-01-15T10:00:05Z"), ZoneOffset.UTC);
      source = new PdhNodeSource(fake, clock, List.of(), options);
    }
    NodeSample s = source.sample();
    assertThat(s.cpu()).isNotNull();
    return s.cpu().processors();
  }

  @AfterEach
  void close() {
    if (source != null) {
      source.close();
    }
  }

  @Test
  void everyCoreButTheTotalsWithTheFixturesRawValues() {
    List<ProcessorCounters> cores = sample();

    assertThat(cores).extracting(ProcessorCounters::core).containsExactly("0,0", "0,1", "1,0", "1,1");
    // C-states x 100 ns; counts, gauges and the utilities' FirstValue as they are; the tick counts 0 at the first read.
    assertThat(cores.get(0))
        .isEqualTo(
            ProcessorCounters.builder("0,0")
                .c1TimeNanos(300_000_000L)
                .c2TimeNanos(40_000_000L)
                .c3TimeNanos(4_000_000L)
                .interrupts(1_000L)
                .dpcsQueued(50L)
                .clockInterrupts(640L)
                .idleBreakEvents(300L)
                .parkingStatus(0L)
                .frequencyMhz(2_995L)
                .performance(90_000_000L)
                .mperfTicks(0L)
                .utility(40_000_000L)
                .rtcTicks(0L)
                .privilegedUtility(8_000_000L)
                .build());
    assertThat(cores.get(2).parkingStatus()).isEqualTo(1L);
    assertThat(cores.get(2).frequencyMhz()).isEqualTo(2_400L);
  }

  @Test
  void theTickCountsAddTheSecondValuesStepsAcrossTheir32BitWrap() {
    ProcessorCounters first = sample().get(1);
    fake.advance(1);
    sample();
    fake.advance(1);
    ProcessorCounters third = sample().get(1);

    // % Processor Utility's base moves 64e6 a second; % Processor Performance's 4e9, so from the fixture's 4e9 it
    // passes 2^32 at each step: (now - last) mod 2^32 is still each step's 4e9.
    assertThat(third.rtcTicks()).isEqualTo(128_000_000L);
    assertThat(third.mperfTicks()).isEqualTo(8_000_000_000L);
    assertThat(third.utility() - first.utility()).isEqualTo(2 * 30_000_000L);
    assertThat(third.performance() - first.performance()).isEqualTo(2 * 80_000_000L);
    assertThat(third.interrupts() - first.interrupts()).isEqualTo(2 * 1_100L);
    assertThat(third.c1TimeNanos() - first.c1TimeNanos()).isEqualTo(2 * 2_500_000L * 100);
  }
}
