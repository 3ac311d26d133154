package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.replay.CounterLogRoundTrip;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Windows workflow's {@code record} job fails unless the log it records has every column {@code
 * .github/record-columns.txt} lists ({@code .github/scripts/record.ps1} reads that file, one text per line that the
 * header must contain, as {@code $header.Contains}). Here the PDH source reads the synthetic-4cpu host over {@link
 * FakePdhLibrary}, whose cores are {@code Processor Information} instances named {@code group,index} as on every real
 * Windows host, {@link io.winstats.perfcounters.replay.CounterLogRecorder} writes the log, and every listed column must
 * be in its header: a list asking for {@code \Processor(} (which a Windows recording never has) fails.
 */
class RecordJobColumnsTest {
  private static final Path COLUMNS = Path.of("..", ".github", "record-columns.txt");
  private static final Path SCRIPT = Path.of("..", ".github", "scripts", "record.ps1");

  @TempDir Path dir;

  @Test
  void everyColumnTheRecordJobRequiresIsInTheHeaderTheRecorderWritesForGroupIndexCores() throws IOException {
    List<String> required = requiredColumns();
    assertThat(required).as("columns listed in %s", COLUMNS).isNotEmpty();

    String header = header(record(windowsSamples()));

    assertThat(header).as("the recorded header names cores group,index").contains("\\Processor Information(0,1)\\");
    assertThat(required.stream().filter(c -> !header.contains(c)).toList())
        .as("columns record.ps1 requires that a Windows recording does not have (header: %s)", header)
        .isEmpty();
  }

  @Test
  void theRecordJobReadsItsColumnsFromTheListThisTestHolds() throws IOException {
    String script = Files.readString(SCRIPT, StandardCharsets.UTF_8);
    assertThat(script).contains("$PSScriptRoot/../record-columns.txt").doesNotContain("'\\Processor('");
  }

  /** The lines of the list as record.ps1 takes them: not blank, not a {@code #} comment. */
  static List<String> requiredColumns() throws IOException {
    return Files.readAllLines(COLUMNS, StandardCharsets.UTF_8).stream()
        .filter(l -> !l.isBlank() && !l.startsWith("#"))
        .toList();
  }

  private List<NodeSample> windowsSamples() {
    FakePdhLibrary fake = new FakePdhLibrary().load("fixtures/pdh/synthetic-4cpu/sample-1.tsv");
    AtomicLong nanos = new AtomicLong(1_000);
    PdhSourceOptions options =
        FakeSourceOptions.of(
            Duration.ofSeconds(30), WorkingSetDefinition.KUBELET, dir, nanos::incrementAndGet, new CapturingLogger());
    SteppingClock clock = new SteppingClock(Instant.parse("2026-11-28T08:00:00Z"));
    List<NodeSample> samples = new ArrayList<>();
    try (PdhNodeSource source = new PdhNodeSource(fake, clock, List.of(), options)) {
      samples.add(source.sample());
      clock.advance(Duration.ofSeconds(1));
      fake.advance(1);
      samples.add(source.sample());
    }
    return samples;
  }

  private Path record(List<NodeSample> samples) throws IOException {
    return CounterLogRoundTrip.record(dir.resolve("record-job.csv"), "runnervm", samples);
  }

  private static String header(Path log) throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8).split("\r\n", 2)[0];
  }
}
