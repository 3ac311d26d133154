package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.PodHandle;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.DaemonVitals;
import io.winstats.exporter.testing.PrometheusText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real jar against a private containerd with three pods, while containerd is killed and restarted ten times and a
 * client scrapes {@code /metrics} and {@code /stats/summary} every 100 ms throughout. Three kinds of fault take turns:
 *
 * <ul>
 *   <li>{@code sigterm-restart}: {@link ContainerdHarness#restart()}, SIGTERM and an immediate start (containerd removes
 *       its socket on the way out);
 *   <li>{@code stop-wait-start}: {@link ContainerdHarness#stopRuntime()}, then containerd stays down until the daemon
 *       says so ({@code container_scrape_error 1}), then {@link ContainerdHarness#startRuntime()};
 *   <li>{@code sigkill-wait-start}: SIGKILL to containerd (its socket file stays behind, so connects are refused rather
 *       than not found), then the same wait and start.
 * </ul>
 *
 * <p>Pods and their shims outlive containerd, so the daemon keeps serving the last pod sample (stale by its timestamp)
 * while the runtime is down, flags it with {@code container_scrape_error 1}, and must have a fresh pod sample with the
 * flag back at 0 within one sampling interval plus the reconnect allowance after containerd answers again. The
 * allowance: the CRI reader skips gRPC's reconnect backoff after {@code UNAVAILABLE} (see {@code CriStatsReader}), and
 * the sampling loop retries a failing source at most one interval apart, so the only extra delay is one round's own
 * duration and our 50 ms poll; {@link #RECONNECT_ALLOWANCE} is 1 s for that on a shared, loaded machine.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
class RuntimeFaultsIT {
  private static final Duration INTERVAL = Duration.ofSeconds(1);
  private static final Duration RECONNECT_ALLOWANCE = Duration.ofSeconds(1);
  private static final int RESTARTS = 10;
  /**
   * Pools that start a thread when every one of theirs is busy and end it after a minute idle, so how many are alive
   * depends on how requests and reconnects overlapped on a busy machine, not on a leak: gRPC's OkHttp connections
   * ({@code winstats-cri-}, {@code CriTransport}), Undertow's workers and the JDK's process reaper. Each stays at most
   * at {@link #ON_DEMAND_POOL_BOUND}, half the restarts, which a thread leaked per restart passes.
   */
  private static final Set<String> ON_DEMAND_POOLS = Set.of("winstats-cri-", "XNIO-1 task-", "process reaper");

  private static final int ON_DEMAND_POOL_BOUND = RESTARTS / 2;
  /** Any other thread (by name less its number) may be one more at the last restart than at the first. */
  private static final int FIXED_THREAD_SLACK = 1;

  private static final int FD_SLACK = 4;

  private enum Fault {
    SIGTERM_RESTART("sigterm-restart"),
    STOP_WAIT_START("stop-wait-start"),
    SIGKILL_WAIT_START("sigkill-wait-start");

    final String label;

    Fault(String label) {
      this.label = label;
    }
  }

  private record Outcome(
      int restart,
      Fault fault,
      long downMillis,
      boolean errorSeen,
      long recoveredMillis,
      SortedMap<String, Integer> threads,
      int fds) {
    int threadCount() {
      return threads.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  @Test
  void tenRuntimeRestartsLoseNoScrapeAndPodsReturnWithinAnInterval(ContainerdHarness harness, CriTestClient client)
      throws Exception {
    List<PodHandle> pods =
        List.of(
            harness.defer(client.runPod("burner", "faults", List.of(ContainerSpec.burner("burn", 0.2)))),
            harness.defer(
                client.runPod(
                    "sleeper", "faults", List.of(ContainerSpec.sleeper("sleep"), ContainerSpec.sleeper("idle")))),
            harness.defer(client.runPod("quiet", "faults", List.of(ContainerSpec.sleeper("app")))));
    try (DaemonProcess daemon =
        DaemonProcess.start(
            Path.of("target", "runtime-faults", "daemon.log"),
            "--cri.endpoint=" + harness.endpoint(),
            "--sampling.interval=" + INTERVAL.toSeconds() + "s",
            "--node.name=faults-node",
            "--log.level=debug")) {
      Deadline.await("/healthz 200\n" + daemon.log(), Duration.ofSeconds(30), () -> daemon.get("/healthz").status() == 200);
      long startedMillis = System.currentTimeMillis();
      Deadline.await(
          "all three pods sampled",
          Duration.ofSeconds(30),
          () -> freshPods(daemon, pods, startedMillis) && scrapeError(daemon) == 0);

      int linesBeforeFaults = daemon.log().lines().toList().size();
      List<Outcome> outcomes = new ArrayList<>();
      long runStart = System.nanoTime();
      try (SteadyScraper scraper = SteadyScraper.start(daemon.port(), Duration.ofMillis(100), Duration.ofMinutes(5))) {
        System.out.printf(
            "RuntimeFaultsIT before restarts: threads=%d fds=%d%n",
            DaemonVitals.applicationThreads(daemon.pid()), DaemonVitals.fileDescriptors(daemon.pid()));
        for (int i = 1; i <= RESTARTS; i++) {
          Fault fault = Fault.values()[(i - 1) % Fault.values().length];
          outcomes.add(restartOnce(i, fault, harness, daemon, pods, scraper));
          Outcome o = outcomes.get(outcomes.size() - 1);
          System.out.printf(
              Locale.ROOT,
              "RuntimeFaultsIT restart %2d %-18s down=%5d ms scrape_error_1_seen=%-5s pods_fresh_after=%5d ms"
                  + " threads=%d fds=%d%n",
              o.restart(), o.fault().label, o.downMillis(), o.errorSeen(), o.recoveredMillis(), o.threadCount(), o.fds());
        }
        scraper.close();
        List<SteadyScraper.Scrape> all = scraper.scrapes();
        List<SteadyScraper.Scrape> failed = scraper.failures();
        long podGaps =
            all.stream()
                .filter(s -> s.failure() == null)
                .filter(s -> !s.podUids().containsAll(pods.stream().map(PodHandle::uid).toList()))
                .count();
        System.out.printf(
            "RuntimeFaultsIT summary: %d restarts in %.1f s; %d scrape rounds (x2 requests), %d failed, %d without"
                + " every pod; threads %d -> %d, fds %d -> %d (first -> last restart)%n",
            RESTARTS,
            (System.nanoTime() - runStart) / 1e9,
            all.size(),
            failed.size(),
            podGaps,
            outcomes.get(0).threadCount(),
            outcomes.get(RESTARTS - 1).threadCount(),
            outcomes.get(0).fds(),
            outcomes.get(RESTARTS - 1).fds());

        assertThat(failed).as("scrapes that failed during the restarts").isEmpty();
        assertThat(all.size()).as("scrape rounds").isGreaterThan(RESTARTS * 10);
        assertThat(podGaps).as("scrapes where a pod's series were missing (they stay, stale, during outages)").isZero();
        for (Outcome o : outcomes) {
          assertThat(o.recoveredMillis())
              .as("restart %d (%s): pods fresh and container_scrape_error 0 after containerd answered", o.restart(), o.fault().label)
              .isLessThanOrEqualTo(INTERVAL.plus(RECONNECT_ALLOWANCE).toMillis());
          if (o.fault() != Fault.SIGTERM_RESTART) {
            assertThat(o.errorSeen()).as("restart %d: container_scrape_error 1 while down", o.restart()).isTrue();
          }
        }
        assertThat(all.stream().filter(s -> s.scrapeError() == 1).count())
            .as("scrapes that saw container_scrape_error 1")
            .isPositive();
        assertThat(all.get(all.size() - 1).scrapeError()).as("container_scrape_error after the last restart").isZero();
        assertThat(threadsThatGrew(outcomes.get(0).threads(), outcomes.get(RESTARTS - 1).threads()))
            .as(
                "threads by name that grew from the first restart (%s) to the last (%s): a fixed one by more than %d,"
                    + " an on-demand pool past %d",
                outcomes.get(0).threads(),
                outcomes.get(RESTARTS - 1).threads(),
                FIXED_THREAD_SLACK,
                ON_DEMAND_POOL_BOUND)
            .isEmpty();
        assertThat(outcomes.get(RESTARTS - 1).fds())
            .as("daemon file descriptors, last vs first restart (slack %d)", FD_SLACK)
            .isLessThanOrEqualTo(outcomes.get(0).fds() + FD_SLACK);
      }
      String log = daemon.log();
      assertThat(log.lines().filter(l -> l.contains("level=ERROR"))).as(log).isEmpty();
      // No log storm: over the restarts, an operator's line (warn or info) of each event at most once per restart,
      // one when the runtime goes and one when it is back, however many rounds the outage lasts.
      Map<String, Long> operatorLines =
          log.lines().skip(linesBeforeFaults)
              .filter(l -> l.contains("level=WARN") || l.contains("level=INFO"))
              .map(l -> l.replaceAll(".*\\bevent=(\\S+).*", "$1"))
              .collect(Collectors.groupingBy(e -> e, TreeMap::new, Collectors.counting()));
      System.out.println("RuntimeFaultsIT operator lines by event over the restarts: " + operatorLines);
      assertThat(operatorLines).as("warn and info lines per event over %d restarts", RESTARTS)
          .allSatisfy((event, count) -> assertThat(count).as(event).isLessThanOrEqualTo((long) RESTARTS));
      assertThat(operatorLines).as("the outages were logged").containsKeys("collector_failed", "collector_recovered");
      assertThat(daemon.isAlive()).isTrue();
    }
  }

  private Outcome restartOnce(
      int restart, Fault fault, ContainerdHarness harness, DaemonProcess daemon, List<PodHandle> pods, SteadyScraper scraper) {
    long downWall = System.currentTimeMillis();
    long down = System.nanoTime();
    boolean errorSeen = false;
    switch (fault) {
      case SIGTERM_RESTART -> harness.restart();
      case STOP_WAIT_START -> {
        harness.stopRuntime();
        errorSeen = awaitScrapeError(daemon);
        harness.startRuntime();
      }
      case SIGKILL_WAIT_START -> {
        harness.killRuntime();
        errorSeen = awaitScrapeError(daemon);
        harness.startRuntime();
      }
    }
    long up = System.nanoTime();
    Deadline.await(
        "restart " + restart + ": every pod sampled after the outage, container_scrape_error 0",
        Duration.ofSeconds(30),
        () -> freshPods(daemon, pods, downWall) && scrapeError(daemon) == 0);
    long recovered = System.nanoTime();
    long upWall = System.currentTimeMillis();
    if (!errorSeen) {
      errorSeen =
          scraper.scrapes().stream()
              .anyMatch(s -> s.wallMillis() >= downWall && s.wallMillis() <= upWall && s.scrapeError() == 1);
    }
    return new Outcome(
        restart,
        fault,
        (up - down) / 1_000_000,
        errorSeen,
        (recovered - up) / 1_000_000,
        DaemonVitals.threadsByName(daemon.pid()),
        DaemonVitals.fileDescriptors(daemon.pid()));
  }

  /** The names whose count grew past what load alone explains, with their last count. */
  static Map<String, Integer> threadsThatGrew(Map<String, Integer> first, Map<String, Integer> last) {
    Map<String, Integer> grew = new TreeMap<>();
    last.forEach(
        (name, count) -> {
          boolean grown =
              ON_DEMAND_POOLS.contains(name)
                  ? count > ON_DEMAND_POOL_BOUND
                  : count > first.getOrDefault(name, 0) + FIXED_THREAD_SLACK;
          if (grown) {
            grew.put(name, count);
          }
        });
    return grew;
  }

  /** Polls until the daemon reports the runtime down; bounded by two intervals plus the CRI deadline's worth. */
  private static boolean awaitScrapeError(DaemonProcess daemon) {
    Deadline.await("container_scrape_error 1 while containerd is down", Duration.ofSeconds(10), () -> scrapeError(daemon) == 1);
    return true;
  }

  private static int scrapeError(DaemonProcess daemon) {
    DaemonProcess.Response r = daemon.get("/metrics");
    if (r.status() != 200) {
      return -1;
    }
    List<PrometheusText> error = PrometheusText.select(PrometheusText.parse(r.body()), "container_scrape_error");
    return error.isEmpty() ? -1 : (int) error.get(0).value();
  }

  /** Whether every pod has a {@code container_last_seen} from a runtime round stamped after {@code afterMillis}. */
  private static boolean freshPods(DaemonProcess daemon, List<PodHandle> pods, long afterMillis) {
    DaemonProcess.Response r = daemon.get("/metrics");
    if (r.status() != 200) {
      return false;
    }
    List<PrometheusText> metrics = PrometheusText.parse(r.body());
    for (PodHandle pod : pods) {
      List<PrometheusText> seen =
          PrometheusText.select(metrics, "container_last_seen", "pod", pod.name(), "container", "");
      if (seen.isEmpty() || seen.get(0).timestampMillis() == null || seen.get(0).timestampMillis() <= afterMillis) {
        return false;
      }
    }
    return true;
  }
}
