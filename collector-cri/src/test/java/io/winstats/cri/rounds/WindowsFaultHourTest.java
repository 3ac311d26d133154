package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CriException;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.HcsReading;
import io.winstats.cri.testing.WindowsContainer;
import io.winstats.cri.testing.WindowsPod;
import io.winstats.cri.testing.WindowsRuntimeFake;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An hour of rounds on the Windows task path under each failure mode of containerd-on-Windows and HNS, one after
 * another, each on for 30 rounds and off for 30 (the default 10 s interval on a fake ticker, so the hour runs in
 * seconds): 20 healthy rounds, then six episodes, 380 rounds in all. The rules, for every episode: a fault the round
 * can read around costs no round and no pod; a fault that fails the round (a hung shim) costs exactly its own rounds,
 * and the pods are back in the first round after it; every figure is back within the part's own retry; at most one
 * log line when the fault starts and one when it ends, however many rounds it lasts; and no cache grows.
 */
class WindowsFaultHourTest {
  private static final Instant NOW = Instant.parse("2026-11-28T17:00:00Z");
  private static final long T0 = NOW.toEpochMilli() * 1_000_000;
  private static final long SECOND = 1_000_000_000L;
  private static final long MIB = 1L << 20;
  private static final Duration INTERVAL = Duration.ofSeconds(10);

  /**
   * The reader's deadline: a real one (gRPC's own timer), which the hung shim's 30 rounds wait out. Every other call
   * is answered in the calling thread (in-process, direct executor) before it could run out.
   */
  private static final Duration CALL_TIMEOUT = Duration.ofMillis(500);
  private static final int HEALTHY_ROUNDS = 20;
  private static final int FAULT_ROUNDS = 30;
  private static final int RECOVERY_ROUNDS = 30;

  /**
   * One failure mode: how to start and end it, whether it fails the whole round, and within how many rounds of its
   * end every figure is back (the retry of the part it hits, at the interval).
   */
  record Episode(
      String name, Consumer<WindowsRuntimeFake> start, Consumer<WindowsRuntimeFake> end, boolean failsRound,
      Duration retry) {
    int backWithinRounds() {
      return (int) Math.max(1, ceilDiv(retry.toNanos(), INTERVAL.toNanos())) + 1;
    }
  }

  private static final List<String> CONTAINERS = List.of("a1", "a2", "b1", "v1");

  private static final List<Episode> EPISODES =
      List.of(
          // A shim's ttrpc connection closed under containerd: Tasks.Metrics fails, CRI stats stand in.
          new Episode(
              "Tasks.Metrics failing",
              r -> r.failTaskMetrics(Status.UNKNOWN.withDescription("ttrpc: closed")),
              r -> r.failTaskMetrics(null),
              false,
              RuntimeStatsReader.TASKS_RETRY_AFTER),
          new Episode(
              "HNS failing",
              r -> r.hns().answerError("The RPC server is unavailable."),
              r -> r.hns().answerError(null),
              false,
              RuntimeStatsReader.TASKS_RETRY_AFTER),
          new Episode(
              "a snapshot walk timing out",
              r -> CONTAINERS.forEach(
                  c -> r.failUsage(c, Status.DEADLINE_EXCEEDED.withDescription("context deadline exceeded"))),
              r -> CONTAINERS.forEach(c -> r.failUsage(c, null)),
              false,
              WritableLayers.REFRESH),
          new Episode(
              "a shim not answering ListPids",
              r -> r.failListPids("a1", Status.DEADLINE_EXCEEDED.withDescription("context deadline exceeded")),
              r -> r.failListPids("a1", null),
              false,
              TaskProcesses.REFRESH),
          new Episode(
              "Introspection.Plugins failing",
              r -> r.failPlugins(Status.UNKNOWN.withDescription("failed to get plugin info")),
              r -> r.failPlugins(null),
              false,
              WritableLayers.REFRESH),
          // containerd's Tasks.Metrics waits on each task's Stats with the caller's context
          // (plugins/services/tasks/local.go, getTasksMetrics, v1.7 and v2.x): one hung shim holds the whole call,
          // unanswered, until the reader's own deadline (CALL_TIMEOUT here) ends it.
          new Episode(
              "a shim hanging",
              r -> r.hangTaskMetrics(true),
              r -> r.hangTaskMetrics(false),
              true,
              Duration.ZERO));

  private final AtomicLong ticker = new AtomicLong();
  private final List<AutoCloseable> open = new ArrayList<>();
  private final List<LogRecord> logged = Collections.synchronizedList(new ArrayList<>());
  private final Logger criLogger = Logger.getLogger("io.winstats.cri");
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          if (record.getLevel().intValue() >= Level.INFO.intValue()) {
            logged.add(record);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private WindowsRuntimeFake runtime;
  private RuntimeStatsReader reader;
  private int round;

  @BeforeEach
  void serve() throws Exception {
    runtime = new WindowsRuntimeFake(ContainerdLine.V1_7, Clock.fixed(NOW, ZoneOffset.UTC));
    String name = InProcessServerBuilder.generateName();
    InProcessServerBuilder builder = InProcessServerBuilder.forName(name).directExecutor().addService(runtime);
    runtime.containerdServices().forEach(builder::addService);
    Server server = builder.build().start();
    open.add(() -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    reader =
        RuntimeStatsReader.forChannel(
            "inprocess:" + name, channel, CALL_TIMEOUT, Clock.fixed(NOW, ZoneOffset.UTC), ticker::get);
    reader.useTaskMetrics(runtime.hns());
    open.add(0, reader);
    criLogger.addHandler(capture);
  }

  @AfterEach
  void stop() throws Exception {
    criLogger.removeHandler(capture);
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  @Test
  void everyWindowsFaultHeldForItsRoundsCostsOnlyWhatItMustAndLogsOnceEachWay() {
    putPods();
    RuntimeSample healthy = null;
    for (int i = 0; i < HEALTHY_ROUNDS; i++) {
      healthy = nextRound();
    }
    assertThat(healthy).isNotNull();
    Map<String, String> whole = figuresPresent(healthy);
    assertThat(whole).as("the healthy node's pods").hasSize(3);
    Map<String, Long> cachesWarm = reader.cacheEntries();
    logged.clear();

    List<String> report = new ArrayList<>();
    for (Episode e : EPISODES) {
      e.start().accept(runtime);
      int lost = 0;
      for (int i = 0; i < FAULT_ROUNDS; i++) {
        RuntimeSample s = nextRound();
        if (s == null) {
          lost++;
        } else {
          assertThat(s.pods()).as("%s, round %d of the fault: every pod", e.name(), i).hasSize(3);
          assertThat(s.pods())
              .as("%s: CPU and memory of every pod", e.name())
              .allMatch(p -> p.cpu() != null && p.memory() != null);
        }
      }
      assertThat(lost).as("%s: rounds lost", e.name()).isEqualTo(e.failsRound() ? FAULT_ROUNDS : 0);
      int linesDuringFault = logged.size();
      List<String> faultLines = messages();
      logged.clear();

      e.end().accept(runtime);
      int wholeAgainAt = -1;
      for (int i = 1; i <= RECOVERY_ROUNDS; i++) {
        RuntimeSample s = nextRound();
        assertThat(s).as("%s: round %d after the fault", e.name(), i).isNotNull();
        assertThat(s.pods()).as("%s: the pods back in the first round after the fault", e.name()).hasSize(3);
        if (wholeAgainAt < 0 && figuresPresent(s).equals(whole)) {
          wholeAgainAt = i;
        }
      }
      int linesAfter = logged.size();
      report.add(
          e.name() + ": lost " + lost + ", whole again at round " + wholeAgainAt + ", lines " + linesDuringFault
              + "+" + linesAfter + " " + faultLines + " " + messages());
      logged.clear();

      assertThat(wholeAgainAt)
          .as("%s: every figure back within %d rounds of the fault's end", e.name(), e.backWithinRounds())
          .isBetween(1, e.backWithinRounds());
      assertThat(linesDuringFault).as("%s: log lines while it lasted (%s)", e.name(), report).isLessThanOrEqualTo(1);
      assertThat(linesAfter).as("%s: log lines after it ended (%s)", e.name(), report).isLessThanOrEqualTo(1);
      assertThat(reader.cacheEntries())
          .as("%s: no cache grew", e.name())
          .allSatisfy((cache, entries) -> assertThat(entries).as(cache).isLessThanOrEqualTo(cachesWarm.get(cache)));
    }
    System.out.println(String.join("\n", report));
    assertThat(round).isEqualTo(HEALTHY_ROUNDS + EPISODES.size() * (FAULT_ROUNDS + RECOVERY_ROUNDS));
  }

  /** Two process-isolated pods (one with two containers) and a Hyper-V pod, as a small Windows node runs. */
  private void putPods() {
    runtime.put(
        WindowsPod.isolated(
            "pa", "web", "shop", T0 - 60 * SECOND, reading(0, 1),
            List.of(
                WindowsContainer.running("a1", "app", 0, T0, reading(0, 8)),
                WindowsContainer.running("a2", "sidecar", 0, T0, reading(0, 2)))));
    runtime.put(
        WindowsPod.isolated(
            "pb", "db", "shop", T0 - 60 * SECOND, reading(0, 1),
            List.of(WindowsContainer.running("b1", "db", 0, T0, reading(0, 4)))));
    runtime.put(
        WindowsPod.hyperV(
            "pv", "legacy", "ops", T0 - 60 * SECOND, reading(0, 3),
            List.of(WindowsContainer.running("v1", "iis", 0, T0, reading(0, 5)))));
  }

  /** The next round, ten seconds on, with every reading moved on: null when the round failed. */
  private RuntimeSample nextRound() {
    round++;
    long second = round * INTERVAL.toSeconds();
    for (String podId : List.of("pa", "pb", "pv")) {
      runtime.put(
          runtime.pod(podId)
              .with(reading(second, 1 + round), cs -> cs.stream().map(c -> c.withReading(reading(second, 2 + round)))
                  .toList()));
    }
    ticker.addAndGet(INTERVAL.toNanos());
    try {
      return reader.sample();
    } catch (CriException e) {
      return null;
    }
  }

  private static HcsReading reading(long second, long cpuSeconds) {
    return new HcsReading(
        T0 + second * SECOND, cpuSeconds * SECOND, 100 * MIB, 150 * MIB, cpuSeconds * SECOND * 3 / 4,
        cpuSeconds * SECOND / 4, 180 * MIB, 40, 40 * 4096, 10, 10 * 8192);
  }

  /** Per pod, which of the figures a fault can take are present: equal to the healthy node's when whole. */
  private static Map<String, String> figuresPresent(RuntimeSample s) {
    Map<String, String> present = new TreeMap<>();
    for (PodSample p : s.pods()) {
      StringBuilder b = new StringBuilder();
      b.append("processes=").append(p.processCount() != null);
      b.append(" packets=").append(
          p.network() != null && !p.network().interfaces().isEmpty()
              && p.network().interfaces().get(0).rxPackets() != null);
      for (ContainerSample c : p.containers()) {
        b.append(' ').append(c.name())
            .append(":user=").append(c.cpu() != null && c.cpu().userNanos() != null)
            .append(",layer=").append(c.writableLayer() != null && c.writableLayer().usedBytes() != null)
            .append(",commit=").append(c.memory() != null && c.memory().commitBytes() != null);
      }
      present.put(p.ref().name(), b.toString());
    }
    return present;
  }

  private List<String> messages() {
    synchronized (logged) {
      return logged.stream().map(r -> r.getLevel() + " " + r.getMessage()).toList();
    }
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}
