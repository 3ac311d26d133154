package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.replay.CounterLogRecorder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.helpers.NOPLogger;

/**
 * A counter log of the synthetic Windows host of {@code fixtures/pdh/synthetic-4cpu} (made up for the tests, not
 * recorded on Windows), written as the daemon's {@code --record} writes one on a Windows node: {@link PdhNodeSource}
 * reads {@link FakePdhLibrary} loaded with the fixture, and {@link CounterLogRecorder} records a sample a second,
 * while the fake host does each second what the fixture holds ({@link FakePdhLibrary#advance}; a second, because a
 * 32-bit count of the fixture gains nearly 2^32 a second, and a longer interval would wrap it more than once).
 *
 * <p>Replayed ({@code --node.source=replay:FILE}), it gives a daemon every node part the PDH source builds:
 * processors, memory with the physical size ({@code GlobalMemoryStatusEx}, which no counter and so no typeperf log
 * holds), network adapters, LogicalDisk volumes and System. What the source reads from the fixture reaches the log
 * through the recorder, so a figure added to the source, the recorder and the fixture reaches a replaying daemon with
 * no change here.
 */
public final class SyntheticPdhLog {
  static final String FIXTURE = "fixtures/pdh/synthetic-4cpu/sample-1.tsv";

  private SyntheticPdhLog() {}

  /**
   * Writes {@code rows} samples, a second apart from {@code start}, to {@code file}.
   *
   * @param host the machine name in the counter paths
   * @throws IOException when the file cannot be written
   */
  public static void write(Path file, String host, Instant start, int rows) throws IOException {
    FakePdhLibrary fake = new FakePdhLibrary().load(FIXTURE);
    SteppingClock clock = new SteppingClock(start);
    PdhSourceOptions options =
        FakeSourceOptions.of(
            Duration.ofSeconds(30),
            WorkingSetDefinition.KUBELET,
            file.toAbsolutePath().getParent(),
            () -> Duration.between(start, clock.instant()).toNanos(),
            NOPLogger.NOP_LOGGER);
    PdhNodeSource source = new PdhNodeSource(fake, clock, List.of(), options);
    try (CounterLogRecorder recorder = CounterLogRecorder.open(file, host)) {
      for (int i = 0; i < rows; i++) {
        recorder.record(source.sample());
        fake.advance(1);
        clock.advance(Duration.ofSeconds(1));
      }
    } finally {
      source.close();
    }
  }
}
