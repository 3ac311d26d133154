package io.winstats.cri;

import io.winstats.cri.rounds.CriStatsReaders;
import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.PodHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A measurement, not a test: the cost of one {@link CriStatsReader#sample()} round with 50 real pods (pause + one
 * sleeping busybox each) in a private containerd. Excluded from the default build (tag {@code scale}); it asserts
 * only that every round saw every pod. Run it alone, on an otherwise idle machine if the figures are to be quoted:
 *
 * <pre>
 * mvn -B -N install &amp;&amp; mvn -B -pl collector-cri verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=CriScaleIT -Dcri.it.excludedGroups=none
 * </pre>
 *
 * It prints a Markdown table and writes it to {@code collector-cri/target/cri-scale.md}. Per round: wall time, CPU
 * time of the calling thread ({@link ThreadMXBean#getCurrentThreadCpuTime()}: protobuf decoding and mapping; the
 * transport's reads and HTTP/2 framing run on OkHttp's reader thread), and the mean CPU time per round of the whole
 * JVM and of containerd (utime+stime from {@code /proc/PID/stat}; both tick in 10 ms, so they are summed over the
 * rounds), over 12 rounds after 2 warm-ups. (Named pipes take the same transport path with another connection, so
 * there is no separate bridge row any more.) Heap is the used heap after {@code System.gc()} (three times), before the pods and after the rounds
 * with the last sample still referenced, as the exporter keeps it.
 */
@Tag("containerd")
@Tag("scale")
@ExtendWith(ContainerdExtension.class)
class CriScaleIT {
  private static final int PODS = 50;
  private static final int WARMUPS = 2;
  private static final int ROUNDS = 12;
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final long CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux x86-64

  private record Round(long wallNanos, long threadCpuNanos, long processCpuNanos, long containerdCpuNanos) {}

  @Test
  void measureOneRoundAtFiftyPods(ContainerdHarness harness, CriTestClient client) throws Exception {
    long containerdPid = containerdPid();
    CriStatsReader direct =
        harness.defer(CriStatsReaders.open(
                CriEndpoint.parse(harness.endpoint()),
                CriReaderOptions.of(CALL_TIMEOUT, Clock.systemUTC())
                    .withWindowsHost(org.junit.jupiter.api.condition.OS.WINDOWS.isCurrentOs())));
    int podsBefore = direct.sample().pods().size();
    long heapBefore = usedHeapAfterGc();

    long createStart = System.nanoTime();
    ExecutorService creators = Executors.newFixedThreadPool(4);
    List<Future<PodHandle>> created = new ArrayList<>();
    for (int i = 0; i < PODS; i++) {
      String name = String.format(Locale.ROOT, "scale-%02d", i);
      created.add(creators.submit(() -> client.runPod(name, "it-scale", List.of(ContainerSpec.sleeper("app")))));
    }
    for (Future<PodHandle> f : created) {
      f.get(5, TimeUnit.MINUTES);
    }
    creators.shutdown();
    double createSeconds = (System.nanoTime() - createStart) / 1e9;

    int expected = podsBefore + PODS;
    List<Round> directRounds = new ArrayList<>();
    RuntimeSample last = null;
    for (int i = 0; i < WARMUPS + ROUNDS; i++) {
      RuntimeSample[] kept = new RuntimeSample[1];
      Round d = measure(() -> kept[0] = direct.sample(), containerdPid);
      assertThat(kept[0].pods()).hasSize(expected).allSatisfy(p -> assertThat(p.containers()).isNotEmpty());
      if (i >= WARMUPS) {
        directRounds.add(d);
      }
      last = kept[0];
    }
    List<Round> coldRounds = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      // Connect, Version, ListPodSandboxStats, then ListPodSandbox + ListContainers to fill the identity cache.
      try (CriStatsReader fresh =
          CriStatsReaders.open(
                  CriEndpoint.parse(harness.endpoint()),
                  CriReaderOptions.of(CALL_TIMEOUT, Clock.systemUTC())
                      .withWindowsHost(org.junit.jupiter.api.condition.OS.WINDOWS.isCurrentOs()))) {
        coldRounds.add(measure(fresh::sample, containerdPid));
      }
    }
    long heapAfter = usedHeapAfterGc();
    assertThat(last.pods()).hasSize(expected);

    String table = report(harness, last, createSeconds, directRounds, coldRounds, heapBefore, heapAfter);
    System.out.println(table);
    try {
      Files.writeString(Path.of("target", "cri-scale.md"), table);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Round measure(Supplier<?> round, long containerdPid) {
    long containerd0 = containerdCpuNanos(containerdPid);
    long process0 = OS.getProcessCpuTime();
    long thread0 = THREADS.getCurrentThreadCpuTime();
    long wall0 = System.nanoTime();
    round.get();
    long wall = System.nanoTime() - wall0;
    long thread = THREADS.getCurrentThreadCpuTime() - thread0;
    long process = OS.getProcessCpuTime() - process0;
    long containerd = containerdCpuNanos(containerdPid) - containerd0;
    return new Round(wall, thread, process, containerd);
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** The harness's containerd: a child of this JVM. */
  private static long containerdPid() {
    return ProcessHandle.current().children()
        .filter(p -> p.info().command().map(c -> c.endsWith("/containerd")).orElse(false))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no containerd child process"))
        .pid();
  }

  private static long containerdCpuNanos(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // After "pid (comm) ": state is field 3, so utime (14) and stime (15) are at indexes 11 and 12.
      long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
      return ticks * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String report(
      ContainerdHarness harness,
      RuntimeSample last,
      double createSeconds,
      List<Round> direct,
      List<Round> cold,
      long heapBefore,
      long heapAfter)
      throws IOException {
    String memTotal =
        Files.readAllLines(Path.of("/proc/meminfo")).stream()
            .filter(l -> l.startsWith("MemTotal:"))
            .findFirst()
            .map(l -> l.replaceAll("\\s+", " ").substring("MemTotal: ".length()))
            .orElse("?");
    int containers = last.pods().stream().mapToInt(p -> p.containers().size()).sum();
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "- Date: %s%n", LocalDate.now(ZoneOffset.UTC)));
    b.append(
        String.format(
            Locale.ROOT,
            "- Machine: %d CPUs (availableProcessors), MemTotal %s, kernel %s, %s, JDK %s (%s)%n",
            Runtime.getRuntime().availableProcessors(), memTotal, System.getProperty("os.version"),
            last.runtimeName(), System.getProperty("java.runtime.version"), System.getProperty("java.vm.name")));
    b.append(
        String.format(
            Locale.ROOT,
            "- Pods: %d in the round (%d containers), %d created by this run in %.1f s (4 in parallel)%n",
            last.pods().size(), containers, PODS, createSeconds));
    b.append(
        String.format(
            Locale.ROOT,
            "- Heap used after full GC: %.1f MiB before the pods, %.1f MiB after the rounds (delta %+.1f MiB)%n%n",
            heapBefore / 1048576.0, heapAfter / 1048576.0, (heapAfter - heapBefore) / 1048576.0));
    b.append(
        "| path | rounds | wall median | wall p90 | caller-thread CPU median | JVM CPU per round (mean)"
            + " | containerd CPU per round (mean) |\n");
    b.append("|---|---|---|---|---|---|---|\n");
    row(b, "Unix socket (OkHttp over the JDK's SocketChannel), warm", direct);
    row(b, "direct, first round of a new reader (connect, Version, ListPodSandbox, ListContainers)", cold);
    return b.toString();
  }

  private static void row(StringBuilder b, String path, List<Round> rounds) {
    b.append(
        String.format(
            Locale.ROOT,
            "| %s | %d | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.1f ms |%n",
            path,
            rounds.size(),
            percentile(rounds, Round::wallNanos, 50),
            percentile(rounds, Round::wallNanos, 90),
            percentile(rounds, Round::threadCpuNanos, 50),
            mean(rounds, Round::processCpuNanos),
            mean(rounds, Round::containerdCpuNanos)));
  }

  /**
   * Mean in milliseconds. Process CPU times come in 10 ms clock ticks (JVM and /proc alike), too coarse for one
   * round, so these are the sum over all rounds divided by their number.
   */
  private static double mean(List<Round> rounds, java.util.function.ToLongFunction<Round> f) {
    return rounds.stream().mapToLong(f).sum() / 1e6 / rounds.size();
  }

  /** Nearest-rank percentile, in milliseconds. */
  private static double percentile(List<Round> rounds, java.util.function.ToLongFunction<Round> f, int p) {
    List<Long> values = new ArrayList<>(rounds.stream().map(f::applyAsLong).toList());
    Collections.sort(values);
    int rank = (int) Math.ceil(p / 100.0 * values.size());
    return values.get(Math.max(0, rank - 1)) / 1e6;
  }
}
