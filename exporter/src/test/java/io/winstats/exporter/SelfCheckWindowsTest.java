package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.rounds.CriStatsReaders;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.HcsReading;
import io.winstats.cri.testing.WindowsContainer;
import io.winstats.cri.testing.WindowsPod;
import io.winstats.cri.testing.WindowsRuntimeFake;
import io.winstats.exporter.parts.PartState;
import io.winstats.exporter.parts.PartStatus;
import io.winstats.exporter.parts.PartsReport;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code check} on a Windows node, against the fake of containerd on Windows ({@link WindowsRuntimeFake}, faithful to
 * containerd's Windows CRI and task services, with its HNS fake) and a replayed Windows node: every state the issue
 * names, by rows and exit code.
 */
class SelfCheckWindowsTest {
  private static final long MIB = 1L << 20;
  /** A Windows counter log: the node source is a Windows node's, so the task source and HNS are asked. */
  private static final String WINDOWS_LOG =
      "../collector-perfcounters/src/test/resources/perfmon/tierra-win10-ja-process-memory-network.first200.csv";

  @TempDir Path dir;
  private WindowsRuntimeFake runtime;
  private WindowsRuntimeFake.Served served;

  private void serve(ContainerdLine line) {
    runtime = new WindowsRuntimeFake(line, Clock.systemUTC());
    long created = System.currentTimeMillis() * 1_000_000L - 60_000_000_000L;
    HcsReading reading =
        new HcsReading(System.currentTimeMillis() * 1_000_000L, 5_000_000_000L, 40 * MIB, 60 * MIB);
    runtime.put(
        WindowsPod.isolated(
            "sandbox-web", "web", "shop", created, reading,
            List.of(WindowsContainer.running("c-web", "web", 0, created, reading))));
    served = runtime.start(dir.resolve("containerd.sock"));
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (served != null) {
      served.close();
    }
  }

  private PartsReport check(String... flags) {
    CommandLine cli = ExporterCommand.commandLine(config -> 0);
    String[] all = new String[flags.length + 3];
    all[0] = "--cri.endpoint=" + served.endpoint();
    all[1] = "--node.source=replay:" + WINDOWS_LOG;
    all[2] = "--web.listen-address=127.0.0.1:0";
    System.arraycopy(flags, 0, all, 3, flags.length);
    cli.parseArgs(all);
    ExporterConfig config = ExporterCommand.toConfig(cli);
    return SelfCheck.run(
        config, Clock.systemUTC(),
        (c, clock, call, source) ->
            CriStatsReaders.open(
                c.settings().value(CriSettings.ENDPOINT),
                CriReaderOptions.of(c.settings().value(CriSettings.TIMEOUT), clock)
                    .withStatsCall(call)
                    .withInodes(path -> null)
                    .withWindowsStats(source)
                    .withHns(runtime.hns())));
  }

  private static Map<String, PartStatus> byName(PartsReport report) {
    return report.rows().stream().collect(Collectors.toMap(PartStatus::name, Function.identity()));
  }

  private static Map<String, PartState> states(PartsReport report) {
    return report.rows().stream().collect(Collectors.toMap(PartStatus::name, PartStatus::state));
  }

  /** The exit code when the runtime's rows are as asserted: the replayed node may lack parts, which degrades it. */
  private static int exitWith(PartsReport report, int runtimeExit) {
    boolean nodeOk = byName(report).get(SelfCheck.NODE_SOURCE).state() == PartState.OK;
    return nodeOk ? runtimeExit : Math.max(runtimeExit, PartsReport.EXIT_DEGRADED);
  }

  @Test
  void everyPartAnswers() {
    serve(ContainerdLine.V2_2);
    PartsReport report = check();
    Map<String, PartState> states = states(report);
    assertThat(states.get(SelfCheck.NODE_SOURCE)).isIn(PartState.OK, PartState.DEGRADED);
    assertThat(states)
        .containsEntry(SelfCheck.RUNTIME, PartState.OK)
        .containsEntry(SelfCheck.POD_STATS, PartState.OK)
        .containsEntry(SelfCheck.CONTAINER_STATS, PartState.OK)
        .containsEntry(SelfCheck.TASKS_METRICS, PartState.OK)
        .containsEntry(SelfCheck.HNS, PartState.OK)
        .containsEntry(SelfCheck.CGROUPS, PartState.NOT_APPLICABLE)
        .containsEntry(SelfCheck.WEB_CONFIG, PartState.NOT_APPLICABLE)
        .containsEntry(SelfCheck.LISTEN, PartState.OK);
    assertThat(byName(report).get(SelfCheck.RUNTIME).detail()).contains("pods=1", "path=Tasks.Metrics");
    assertThat(report.exitCode()).isEqualTo(exitWith(report, PartsReport.EXIT_OK));
  }

  @Test
  void aCallTheRuntimeLacksIsDegraded() {
    // containerd 1.6 on Windows answers ListPodSandboxStats UNIMPLEMENTED ("not implemented on windows").
    serve(ContainerdLine.V1_6);
    runtime.failTaskMetrics(Status.UNIMPLEMENTED.withDescription("unknown method Metrics"));
    PartsReport report = check();
    Map<String, PartStatus> rows = byName(report);
    assertThat(rows.get(SelfCheck.POD_STATS).state()).isEqualTo(PartState.DEGRADED);
    assertThat(rows.get(SelfCheck.POD_STATS).cause())
        .isEqualTo("ListPodSandboxStats is not implemented by the runtime");
    assertThat(rows.get(SelfCheck.CONTAINER_STATS).state()).isEqualTo(PartState.OK);
    assertThat(rows.get(SelfCheck.TASKS_METRICS).state()).isEqualTo(PartState.DEGRADED);
    assertThat(rows.get(SelfCheck.RUNTIME).state()).isEqualTo(PartState.OK);
    assertThat(report.exitCode()).isEqualTo(PartsReport.EXIT_DEGRADED);
  }

  @Test
  void anEndpointThatIsGoneFails() throws InterruptedException {
    serve(ContainerdLine.V2_2);
    served.close();
    PartsReport report = check("--cri.timeout=2s");
    Map<String, PartStatus> rows = byName(report);
    assertThat(rows.get(SelfCheck.RUNTIME).state()).isEqualTo(PartState.FAILED);
    assertThat(rows.get(SelfCheck.RUNTIME).fix()).contains("--cri.endpoint=" + served.endpoint());
    assertThat(rows.get(SelfCheck.TASKS_METRICS).state()).isEqualTo(PartState.FAILED);
    assertThat(rows.get(SelfCheck.HNS).state()).isEqualTo(PartState.FAILED);
    assertThat(report.exitCode()).isEqualTo(PartsReport.EXIT_FAILED);
  }

  /**
   * A task-source call whose failure leaves figures unmeasured without a fallback (issue 40 item 4): the row names the
   * call and its cause; every call answering says so.
   */
  @Test
  void aTaskCallThatDidNotAnswerMakesTheTasksRowDegradedNamingIt() {
    serve(ContainerdLine.V1_7);
    runtime.failListPids("c-web", Status.DEADLINE_EXCEEDED.withDescription("context deadline exceeded"));
    PartsReport report = check();
    PartStatus tasks = byName(report).get(SelfCheck.TASKS_METRICS);
    assertThat(tasks.state()).isEqualTo(PartState.DEGRADED);
    assertThat(tasks.detail()).isEqualTo("Tasks.Metrics answered");
    assertThat(tasks.cause())
        .startsWith("Tasks.ListPids did not answer: task c-web: DEADLINE_EXCEEDED: context deadline exceeded")
        .contains("CPU and memory still from Tasks.Metrics");
    assertThat(byName(report).get(SelfCheck.RUNTIME).detail()).contains("containerd v1.7.20", "path=Tasks.Metrics");

    runtime.failListPids("c-web", null);
    PartStatus answered = byName(check()).get(SelfCheck.TASKS_METRICS);
    assertThat(answered.state()).isEqualTo(PartState.OK);
    assertThat(answered.detail()).isEqualTo(SelfCheck.TASK_CALLS);
  }

  @Test
  void hnsFailingIsDegraded() {
    serve(ContainerdLine.V2_2);
    runtime.hns().answerError("Access is denied.");
    PartsReport report = check();
    Map<String, PartStatus> rows = byName(report);
    assertThat(rows.get(SelfCheck.HNS).state()).isEqualTo(PartState.DEGRADED);
    assertThat(rows.get(SelfCheck.TASKS_METRICS).state()).isEqualTo(PartState.OK);
    assertThat(rows.get(SelfCheck.RUNTIME).state()).isEqualTo(PartState.OK);
    assertThat(report.exitCode()).isEqualTo(exitWith(report, PartsReport.EXIT_DEGRADED));
  }

  @Test
  void theStatsSourceCriLeavesTheTaskPartsOut() {
    serve(ContainerdLine.V2_2);
    PartsReport report = check("--cri.windows-stats=cri");
    assertThat(states(report))
        .containsEntry(SelfCheck.TASKS_METRICS, PartState.NOT_APPLICABLE)
        .containsEntry(SelfCheck.HNS, PartState.NOT_APPLICABLE);
    assertThat(byName(report).get(SelfCheck.HNS).detail()).isEqualTo("--cri.windows-stats=cri");
  }
}
