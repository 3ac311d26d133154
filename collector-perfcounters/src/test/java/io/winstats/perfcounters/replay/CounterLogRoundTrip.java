package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NodeSample;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/** Node samples written by {@link CounterLogRecorder} and read back by {@link ReplayNodeSource}, for the tests. */
public final class CounterLogRoundTrip {
  private CounterLogRoundTrip() {}

  /** Records {@code samples} into {@code file}, the counter paths naming {@code host}. */
  public static Path record(Path file, String host, List<NodeSample> samples) throws IOException {
    try (CounterLogRecorder recorder = CounterLogRecorder.open(file, host)) {
      samples.forEach(recorder::record);
    }
    return file;
  }

  /** Every row of {@code file}, as logged (the recorded timeline), until the end of the log. */
  public static List<NodeSample> replay(Path file) {
    Clock clock = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);
    return RealPerfmonLogsTest.drain(
        ReplayNodeSource.open(file, Double.POSITIVE_INFINITY, null, ReplayNodeSource.Timeline.RECORDED, clock));
  }
}
