package io.winstats.exporter.bench;

import io.winstats.cri.RuntimeSample;
import io.winstats.exporter.history.HistoryJson;
import io.winstats.exporter.history.HistoryRecorder;
import io.winstats.exporter.history.NodeHistory;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SummaryAssembler;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The node page's history (issue 47) per operation, on a full window of 60 samples: what every sampling interval pays
 * with nobody viewing ({@link #recordSample}: the node's and the runtime's sample assembled and appended), and what a
 * viewer adds (the node body, rendered once per recorded sample for every viewer, and one pod's body). Per operation,
 * so the figures do not drown in the run-to-run spread of a whole daemon's CPU. Run with {@code bench/jmh History}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseSerialGC", "-Xmx256m"})
public class HistoryBenchmark {
  @Param({"110", "250"})
  public int pods;

  private Snapshot snapshot;
  private RuntimeSample runtime;
  private NodeHistory history;
  private HistoryRecorder recorder;
  private String podUid;

  @Setup
  public void setUp() {
    Snapshot scale = NodeScale.snapshot(pods, 2);
    snapshot = new Snapshot(1, scale.node(), scale.previousNode(), scale.runtime(), null);
    history = new NodeHistory(NodeHistory.DEFAULT_SAMPLES, "bench-node", NodePlatform.LINUX, Duration.ofSeconds(10));
    recorder = new HistoryRecorder(history, new SummaryAssembler("bench-node", NodePlatform.LINUX));
    for (int i = 0; i < NodeHistory.DEFAULT_SAMPLES; i++) {
      recordSample();
    }
    runtime = Objects.requireNonNull(snapshot.runtime(), "runtime");
    podUid = runtime.pods().get(pods / 2).ref().uid();
  }

  @Benchmark
  public long recordSample() {
    recorder.nodePublished(snapshot);
    recorder.runtimePublished(snapshot);
    return history.version();
  }

  @Benchmark
  public byte[] nodeBody() {
    return HistoryJson.node(history);
  }

  @Benchmark
  public byte[] podBody() {
    return Objects.requireNonNull(HistoryJson.pod(history, podUid, runtime), "pod body");
  }
}
