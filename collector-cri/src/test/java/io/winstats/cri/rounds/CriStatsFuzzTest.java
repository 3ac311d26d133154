package io.winstats.cri.rounds;

import static io.winstats.cri.rounds.FakeRuntime.podAttributes;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.winstats.cri.CriException;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.api.ContainerAttributes;
import io.winstats.cri.api.ContainerMetadata;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.CpuUsage;
import io.winstats.cri.api.FilesystemIdentifier;
import io.winstats.cri.api.FilesystemUsage;
import io.winstats.cri.api.LinuxPodSandboxStats;
import io.winstats.cri.api.MemoryUsage;
import io.winstats.cri.api.NetworkInterfaceUsage;
import io.winstats.cri.api.NetworkUsage;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.ProcessUsage;
import io.winstats.cri.api.UInt64Value;
import io.winstats.cri.api.WindowsContainerStats;
import io.winstats.cri.api.WindowsCpuUsage;
import io.winstats.cri.api.WindowsFilesystemUsage;
import io.winstats.cri.api.WindowsMemoryUsage;
import io.winstats.cri.api.WindowsNetworkInterfaceUsage;
import io.winstats.cri.api.WindowsNetworkUsage;
import io.winstats.cri.api.WindowsPodSandboxStats;
import io.winstats.cri.api.WindowsProcessUsage;
import io.winstats.testing.Fuzz;
import java.lang.reflect.RecordComponent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The daemon's mapping of CRI stats (StatsMapper and the two CRI rounds), not protobuf-java: whatever figures a
 * runtime sends in {@code ListPodSandboxStats} or {@code ListContainerStats} (Linux or Windows shapes, each message
 * present or not, each uint64 and timestamp at the edges of its type: 0, 2^63-1, 2^63 and 2^64-1 as Java's signed
 * long carries them, past the epoch or before it), a round gives pods or skips them by name, or fails as a whole with
 * {@link CriException}; never another exception, and never a negative figure served. Two rounds per input, so that
 * the rate cache sees readings that go back, jump or repeat.
 */
class CriStatsFuzzTest {
  private static final Instant NOW = Instant.parse("2026-11-28T20:00:00Z");
  private static final long T0 = NOW.toEpochMilli() * 1_000_000;

  /** The pods and containers every input lists: p1 (a, b) and p2 (c). */
  private static final Map<String, List<String>> PODS = Map.of("p1", List.of("a", "b"), "p2", List.of("c"));

  /** One round's answers: each pod's for ListPodSandboxStats, each container's for ListContainerStats. */
  record Round(Map<String, PodSandboxStats> pods, Map<String, ContainerStats> containers) {}

  /** One input: the answers of each round, and whether the runtime implements ListPodSandboxStats. */
  record Input(boolean podStatsCall, List<Round> rounds) {}

  @Test
  void anyFiguresGivePodsOrSkipsNeverAnotherExceptionOrANegativeFigure() {
    Fuzz.forAll("CRI stats: figures at the edges, messages present or not", 5, CriStatsFuzzTest::input, input -> {
      FakeRuntime runtime = new FakeRuntime();
      String name = InProcessServerBuilder.generateName();
      Server server = InProcessServerBuilder.forName(name).directExecutor().addService(runtime)
          .addService(new FakeImages()).build().start();
      ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
      AtomicLong ticker = new AtomicLong();
      try (RuntimeStatsReader reader = RuntimeStatsReader.forChannel("inprocess:" + name, channel,
          Duration.ofSeconds(5), Clock.fixed(NOW, ZoneOffset.UTC), ticker::get, new FakeHostFiles())) {
        Map<String, PodSandbox> sandboxes = new TreeMap<>();
        PODS.forEach((pod, containers) -> {
          sandboxes.put(pod, runtime.addPod(pod, "pod-" + pod, "fuzz", T0));
          containers.forEach(c -> runtime.addContainer(c, pod, "ctr-" + c, "registry.example/app:1", T0));
        });
        if (!input.podStatsCall()) {
          runtime.listPodSandboxStats = FakeRuntime.failing(Status.UNIMPLEMENTED);
        }
        for (Round round : input.rounds()) {
          runtime.podStats.clear();
          runtime.containerStats.clear();
          round.pods().forEach((pod, stats) -> {
            PodSandboxStats withIdentity = stats.toBuilder().setAttributes(podAttributes(sandboxes.get(pod))).build();
            runtime.podStats.put(pod, () -> withIdentity);
          });
          round.containers().forEach((id, stats) -> runtime.containerStats.put(id, () -> stats));
          ticker.addAndGet(10_000_000_000L);
          try {
            RuntimeSample sample = reader.sample();
            assertThat(negatives(sample, "sample")).as("negative figures served").isEmpty();
            sample.pods().forEach(p -> assertThat(PODS).containsKey(p.sandboxId()));
          } catch (CriException e) {
            assertThat(e.getMessage()).isNotBlank();
          }
        }
      } finally {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    });
  }

  /** Every long or int component of the records below {@code value} that is negative, by its path. */
  static List<String> negatives(@Nullable Object value, String path) {
    List<String> found = new ArrayList<>();
    if (value == null) {
      return found;
    }
    if (value instanceof Long l && l < 0 || value instanceof Integer i && i < 0) {
      found.add(path + "=" + value);
    } else if (value instanceof Collection<?> items) {
      int i = 0;
      for (Object item : items) {
        found.addAll(negatives(item, path + "[" + i++ + "]"));
      }
    } else if (value instanceof Map<?, ?> map) {
      map.forEach((k, v) -> found.addAll(negatives(v, path + "[" + k + "]")));
    } else if (value.getClass().isRecord()) {
      for (RecordComponent c : value.getClass().getRecordComponents()) {
        try {
          found.addAll(negatives(c.getAccessor().invoke(value), path + "." + c.getName()));
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return found;
  }

  private static Input input(SplittableRandom r) {
    boolean windows = r.nextBoolean();
    List<Round> rounds = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Map<String, PodSandboxStats> pods = new TreeMap<>();
      Map<String, ContainerStats> containers = new TreeMap<>();
      PODS.forEach((pod, ids) -> {
        if (r.nextInt(8) != 0) {
          pods.put(pod, windows ? windowsPod(r, ids) : linuxPod(r, ids));
        }
        for (String id : ids) {
          if (present(r)) {
            containers.put(id, container(r, id));
          }
        }
      });
      rounds.add(new Round(pods, containers));
    }
    return new Input(r.nextInt(4) != 0, rounds);
  }

  /** A uint64 as Java's signed long carries it: small, huge, 2^63 and up (negative here), or any. */
  private static long u64Value(SplittableRandom r) {
    return switch (r.nextInt(8)) {
      case 0 -> 0;
      case 1 -> Long.MAX_VALUE;
      case 2 -> Long.MIN_VALUE;
      case 3 -> -1;
      case 4 -> r.nextLong();
      case 5 -> Long.MAX_VALUE - r.nextInt(1000);
      default -> r.nextLong(1L << 40);
    };
  }

  private static boolean present(SplittableRandom r) {
    return r.nextInt(5) != 0;
  }

  private static @Nullable UInt64Value u64(SplittableRandom r) {
    return present(r) ? UInt64Value.newBuilder().setValue(u64Value(r)).build() : null;
  }

  /** Nanoseconds since the epoch: unset, before the epoch, at the edges, near now (forwards or back), or any. */
  private static long timestamp(SplittableRandom r) {
    return switch (r.nextInt(7)) {
      case 0 -> 0;
      case 1 -> -1 - r.nextLong(Long.MAX_VALUE);
      case 2 -> Long.MAX_VALUE;
      case 3 -> Long.MIN_VALUE;
      case 4 -> r.nextLong();
      default -> T0 + r.nextLong(-60_000_000_000L, 60_000_000_000L);
    };
  }

  private static CpuUsage linuxCpu(SplittableRandom r) {
    CpuUsage.Builder b = CpuUsage.newBuilder().setTimestamp(timestamp(r));
    set(r, b::setUsageCoreNanoSeconds);
    set(r, b::setUsageNanoCores);
    return b.build();
  }

  private static MemoryUsage linuxMemory(SplittableRandom r) {
    MemoryUsage.Builder b = MemoryUsage.newBuilder().setTimestamp(timestamp(r));
    set(r, b::setWorkingSetBytes);
    set(r, b::setAvailableBytes);
    set(r, b::setUsageBytes);
    set(r, b::setRssBytes);
    set(r, b::setPageFaults);
    set(r, b::setMajorPageFaults);
    return b.build();
  }

  private static PodSandboxStats linuxPod(SplittableRandom r, List<String> containers) {
    LinuxPodSandboxStats.Builder b = LinuxPodSandboxStats.newBuilder();
    if (present(r)) {
      b.setCpu(linuxCpu(r));
    }
    if (present(r)) {
      b.setMemory(linuxMemory(r));
    }
    if (present(r)) {
      NetworkInterfaceUsage.Builder eth0 = NetworkInterfaceUsage.newBuilder().setName(r.nextBoolean() ? "eth0" : "");
      set(r, eth0::setRxBytes);
      set(r, eth0::setRxErrors);
      set(r, eth0::setTxBytes);
      set(r, eth0::setTxErrors);
      b.setNetwork(NetworkUsage.newBuilder().setTimestamp(timestamp(r)).setDefaultInterface(eth0));
    }
    if (present(r)) {
      ProcessUsage.Builder p = ProcessUsage.newBuilder().setTimestamp(timestamp(r));
      set(r, p::setProcessCount);
      b.setProcess(p);
    }
    for (String id : containers) {
      if (present(r)) {
        b.addContainers(container(r, id));
      }
    }
    return PodSandboxStats.newBuilder().setLinux(b).build();
  }

  /** A container's stats as a Linux pod lists them, and as ListContainerStats answers on either platform. */
  private static ContainerStats container(SplittableRandom r, String id) {
    ContainerStats.Builder c = ContainerStats.newBuilder().setAttributes(attributes(r, id));
    if (present(r)) {
      c.setCpu(linuxCpu(r));
    }
    if (present(r)) {
      c.setMemory(linuxMemory(r));
    }
    if (present(r)) {
      FilesystemUsage.Builder fs = FilesystemUsage.newBuilder().setTimestamp(timestamp(r))
          .setFsId(FilesystemIdentifier.newBuilder().setMountpoint(r.nextBoolean() ? "/var/lib/containerd" : ""));
      set(r, fs::setUsedBytes);
      set(r, fs::setInodesUsed);
      c.setWritableLayer(fs);
    }
    return c.build();
  }

  private static WindowsCpuUsage windowsCpu(SplittableRandom r) {
    WindowsCpuUsage.Builder b = WindowsCpuUsage.newBuilder().setTimestamp(timestamp(r));
    set(r, b::setUsageCoreNanoSeconds);
    set(r, b::setUsageNanoCores);
    return b.build();
  }

  private static WindowsMemoryUsage windowsMemory(SplittableRandom r) {
    WindowsMemoryUsage.Builder b = WindowsMemoryUsage.newBuilder().setTimestamp(timestamp(r));
    set(r, b::setWorkingSetBytes);
    set(r, b::setAvailableBytes);
    set(r, b::setPageFaults);
    set(r, b::setCommitMemoryBytes);
    return b.build();
  }

  private static PodSandboxStats windowsPod(SplittableRandom r, List<String> containers) {
    WindowsPodSandboxStats.Builder b = WindowsPodSandboxStats.newBuilder();
    if (present(r)) {
      b.setCpu(windowsCpu(r));
    }
    if (present(r)) {
      b.setMemory(windowsMemory(r));
    }
    if (present(r)) {
      WindowsNetworkInterfaceUsage.Builder nic =
          WindowsNetworkInterfaceUsage.newBuilder().setName(r.nextBoolean() ? "Ethernet" : "");
      set(r, nic::setRxBytes);
      set(r, nic::setRxPacketsDropped);
      set(r, nic::setTxBytes);
      set(r, nic::setTxPacketsDropped);
      b.setNetwork(WindowsNetworkUsage.newBuilder().setTimestamp(timestamp(r)).setDefaultInterface(nic));
    }
    if (present(r)) {
      WindowsProcessUsage.Builder p = WindowsProcessUsage.newBuilder().setTimestamp(timestamp(r));
      set(r, p::setProcessCount);
      b.setProcess(p);
    }
    for (String id : containers) {
      if (!present(r)) {
        continue;
      }
      WindowsContainerStats.Builder c = WindowsContainerStats.newBuilder().setAttributes(attributes(r, id));
      if (present(r)) {
        c.setCpu(windowsCpu(r));
      }
      if (present(r)) {
        c.setMemory(windowsMemory(r));
      }
      if (present(r)) {
        WindowsFilesystemUsage.Builder fs = WindowsFilesystemUsage.newBuilder().setTimestamp(timestamp(r))
            .setFsId(FilesystemIdentifier.newBuilder().setMountpoint(r.nextBoolean() ? "C:\\ProgramData" : ""));
        set(r, fs::setUsedBytes);
        c.setWritableLayer(fs);
      }
      b.addContainers(c);
    }
    return PodSandboxStats.newBuilder().setWindows(b).build();
  }

  private static ContainerAttributes attributes(SplittableRandom r, String id) {
    return ContainerAttributes.newBuilder()
        .setId(id)
        .setMetadata(ContainerMetadata.newBuilder().setName("ctr-" + id).setAttempt(r.nextInt(6) == 0 ? -1 : 0))
        .build();
  }

  private static void set(SplittableRandom r, Consumer<UInt64Value> setter) {
    UInt64Value v = u64(r);
    if (v != null) {
      setter.accept(v);
    }
  }
}
