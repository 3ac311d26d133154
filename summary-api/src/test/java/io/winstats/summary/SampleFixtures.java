package io.winstats.summary;

import io.winstats.cri.ContainerLogUsage;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.ContainerSampleBuilder;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.ResourceSpec;
import io.winstats.cri.RuntimeFilesystemUsage;
import io.winstats.cri.RuntimeFilesystems;
import io.winstats.cri.RuntimeSample;
import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.HostName;
import io.winstats.perfcounters.LogicalDiskInfo;
import io.winstats.perfcounters.NetworkAdapter;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeMemoryBuilder;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.NodeSystemBuilder;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.ProcessorCounters;
import io.winstats.perfcounters.WindowsOs;
import io.winstats.perfcounters.WindowsService;
import io.winstats.perfcounters.WindowsVersion;
import io.winstats.perfcounters.binding.Binding;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.binding.MemoryBinding;
import io.winstats.perfcounters.binding.SystemBinding;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Fixed, hand-made samples of a Linux-shaped node with two pods (a CPU burner and a sleeper), for golden tests here
 * and in the exporter (this class ships in the test-jar). The numbers are invented but shaped like containerd 1.6's
 * answers on a cgroup v1 host.
 */
public final class SampleFixtures {
  public static final Instant T0 = Instant.parse("2026-11-21T08:00:00.250Z");
  public static final Instant T1 = T0.plusSeconds(10);
  public static final Instant BOOT = Instant.parse("2026-11-20T06:30:00Z");

  private SampleFixtures() {}

  /** A node sample at {@code at}, its monotonic clock at {@code monotonicNanos}, {@code busyNanos} CPU used. */
  public static NodeSample linuxNode(Instant at, long monotonicNanos, long busyNanos) {
    NodeCpu cpu =
        new NodeCpu(
            2,
            busyNanos,
            List.of(
                new CoreCpuTime("0", Map.of(CpuMode.USER, busyNanos / 2, CpuMode.IDLE, 90_000_000_000L)),
                new CoreCpuTime("1", Map.of(CpuMode.USER, busyNanos - busyNanos / 2, CpuMode.IDLE, 91_000_000_000L))));
    NodeMemory memory =
        NodeMemory.builder()
            .totalBytes(8_000_000_000L)
            .availableBytes(5_000_000_000L)
            .workingSetBytes(2_500_000_000L)
            .usageBytes(4_000_000_000L)
            .freeBytes(4_000_000_000L)
            .cacheBytes(1_200_000_000L)
            .committedBytes(3_000_000_000L)
            .commitLimitBytes(4_000_000_000L)
            .pageFaults(123_456L)
            .majorPageFaults(78L)
            .rssBytes(1_900_000_000L)
            .swapTotalBytes(0L)
            .swapFreeBytes(0L)
            .build();
    return NodeSample.builder(at, monotonicNanos)
        .cpu(cpu)
        .memory(memory)
        .interfaces(
            List.of(
                NetworkInterfaceCounters.builder("lo").rxBytes(100).txBytes(100).rxPackets(2).txPackets(2).build(),
                NetworkInterfaceCounters.builder("eth0")
                    .rxBytes(5_000)
                    .txBytes(7_000)
                    .rxPackets(50)
                    .txPackets(70)
                    .rxErrors(1)
                    .txErrors(2)
                    .rxDropped(3)
                    .txDropped(4)
                    .build()))
        .filesystems(List.of(FilesystemUsage.builder("/dev/vda", "/", "ext4")
            .capacityBytes(100_000_000_000L)
            .availableBytes(60_000_000_000L)
            .usedBytes(40_000_000_000L)
            .inodes(6_000_000L)
            .inodesFree(5_000_000L)
            .readOnly(false)
            .build()))
        .disks(List.of(DiskIoCounters.builder("vda")
            .readBytes(3_221_225_472L)
            .writtenBytes(6_442_450_944L)
            .reads(120_000)
            .writes(450_000)
            .readTimeNanos(90_000_000_000L)
            .writeTimeNanos(410_000_000_000L)
            .ioTimeNanos(300_000_000_000L)
            .queueLength(2)
            .weightedIoTimeNanos(512_500_000_000L)
            .build()))
        .system(
            NodeSystem.builder(321)
                .bootTime(BOOT)
                .maxProcesses(4_194_304L)
                .contextSwitches(1_000_000L)
                .processorQueueLength(2L)
                .load1(0.5)
                .load5(0.4)
                .load15(0.3)
                .build())
        .build();
  }

  /**
   * A Windows-shaped node sample, as the PDH source reads one: per-core user/privileged/idle/interrupt/DPC times
   * ("group,index" core names), commit figures, a volume {@code C:} without inodes, Windows adapter names.
   */
  /** One core's {@code \Processor Information} counters beside its times, distinct per core and per figure. */
  private static ProcessorCounters processor(String core, int index) {
    long k = index + 1L;
    return ProcessorCounters.builder(core)
        .c1TimeNanos(70_000_000_000L * k)
        .c2TimeNanos(3_000_000_000L * k)
        .c3TimeNanos(500_000_000L * k)
        .interrupts(12_345_678L * k)
        .dpcsQueued(234_567L * k)
        .clockInterrupts(5_432_100L * k)
        .idleBreakEvents(3_456_789L * k)
        .parkingStatus((long) index)
        .frequencyMhz(2_995L - index)
        .performance(91_000_000_000L * k)
        .mperfTicks(640_000_000L * k)
        .utility(12_000_000_000L * k)
        .rtcTicks(6_400_000_000L + k)
        .privilegedUtility(3_000_000_000L * k)
        .build();
  }

  public static NodeSample windowsNode(Instant at, long monotonicNanos, long busyNanos) {
    long half = busyNanos / 2;
    NodeCpu cpu =
        new NodeCpu(
            2,
            busyNanos,
            List.of(
                new CoreCpuTime(
                    "0,0",
                    Map.of(
                        CpuMode.USER, half * 3 / 4,
                        CpuMode.PRIVILEGED, half - half * 3 / 4,
                        CpuMode.IDLE, 80_000_000_000L,
                        CpuMode.INTERRUPT, 100_000_000L,
                        CpuMode.DPC, 200_000_000L)),
                new CoreCpuTime(
                    "0,1",
                    Map.of(
                        CpuMode.USER, (busyNanos - half) / 2,
                        CpuMode.PRIVILEGED, busyNanos - half - (busyNanos - half) / 2,
                        CpuMode.IDLE, 81_000_000_000L,
                        CpuMode.INTERRUPT, 110_000_000L,
                        CpuMode.DPC, 210_000_000L))),
            List.of(processor("0,0", 0), processor("0,1", 1)));
    NodeMemoryBuilder memory =
        NodeMemory.builder()
            .totalBytes(17_179_869_184L)
            .availableBytes(9_000_000_000L)
            .workingSetBytes(3_500_000_000L)
            .usageBytes(7_500_000_000L)
            .freeBytes(1_000_000_000L)
            .cacheBytes(2_000_000_000L)
            .committedBytes(7_500_000_000L)
            .commitLimitBytes(20_000_000_000L)
            .pageFaults(98_765_432L)
            .swapPageOperations(1_234_567L)
            .modifiedPageListBytes(150_000_000L)
            .standbyCacheCoreBytes(200_000_000L)
            .standbyCacheNormalPriorityBytes(1_500_000_000L)
            .standbyCacheReserveBytes(300_000_000L)
            .physicalFreeBytes(9_000_000_000L)
            .processMemoryLimitBytes(140_737_488_224_256L);
    return NodeSample.builder(at, monotonicNanos)
        .cpu(cpu)
        .memory(withEveryCounter(MemoryBinding.MEMORY, memory, NodeMemoryBuilder::build))
        .interfaces(List.of(NetworkInterfaceCounters.builder("Microsoft Hyper-V Network Adapter #2")
            .rxBytes(9_000)
            .txBytes(4_000)
            .rxPackets(90)
            .txPackets(40)
            .txErrors(1)
            .rxDropped(2)
            .currentBandwidthBits(10_000_000_000L)
            .outputQueuePackets(3L)
            .rxUnknownProtocol(4L)
            .build()))
        .filesystems(List.of(FilesystemUsage.builder("C:", "C:\\", "NTFS")
            .capacityBytes(136_365_211_648L)
            .availableBytes(80_000_000_000L)
            .usedBytes(56_365_211_648L)
            .build()))
        .disks(List.of(DiskIoCounters.builder("C:")
            .readBytes(1_000_000)
            .writtenBytes(2_000_000)
            .reads(100)
            .writes(200)
            .readTimeNanos(3_000_000_000L)
            .writeTimeNanos(4_000_000_000L)
            .ioTimeNanos(7_000_000_000L)
            .queueLength(1)
            .idleTimeNanos(93_000_000_000L)
            .splitIos(6L)
            .readQueueNanos(3_000_000_000L)
            .writeQueueNanos(4_000_000_000L)
            .readLatencyNanos(3_300_000_000L)
            .writeLatencyNanos(4_300_000_000L)
            .transferLatencyNanos(7_600_000_000L)
            .build()))
        .physicalDisks(List.of(PhysicalDiskCounters.builder("0 C:")
            .readBytes(1_100_000)
            .writtenBytes(2_100_000)
            .reads(110)
            .writes(210)
            .readTimeNanos(3_100_000_000L)
            .writeTimeNanos(4_100_000_000L)
            .idleTimeNanos(90_000_000_000L)
            .splitIos(5)
            .queueLength(2)
            .readLatencyNanos(3_200_000_000L)
            .writeLatencyNanos(4_200_000_000L)
            .transferLatencyNanos(7_400_000_000L)
            .build()))
        .system(
            withEveryCounter(
                SystemBinding.SYSTEM,
                NodeSystem.builder(140).bootTime(BOOT).threads(2_100L).contextSwitches(5_000_000L)
                    .processorQueueLength(3L).systemCalls(900_000_000L).exceptionDispatches(12_345L),
                NodeSystemBuilder::build))
        .services(List.of(
            new WindowsService("containerd", "containerd", "LocalSystem",
                "\"C:\\Program Files\\containerd\\bin\\containerd.exe\" --run-service",
                WindowsService.State.RUNNING, WindowsService.StartMode.AUTO, 2816, BOOT.plusSeconds(45)),
            new WindowsService("kubelet", "kubelet", "LocalSystem", "C:\\k\\kubelet.exe --windows-service",
                WindowsService.State.STOPPED, WindowsService.StartMode.AUTO, 0, null)))
        .adapters(List.of(
            new NetworkAdapter("Microsoft Hyper-V Network Adapter", "Ethernet", "00:15:5D:01:02:03",
                NetworkAdapter.OperStatus.UP.code(),
                List.of(new NetworkAdapter.Address("10.0.0.4", "ipv4"),
                    new NetworkAdapter.Address("2001:db8::4", "ipv6"))),
            new NetworkAdapter("Microsoft Hyper-V Network Adapter _2", "Ethernet 2", "00:15:5D:01:02:04",
                NetworkAdapter.OperStatus.DOWN.code(), List.of())))
        .volumes(List.of(
            new LogicalDiskInfo("C:", "0", "fixed", "Windows", "NTFS", "A1B2C3D"),
            LogicalDiskInfo.unread("HarddiskVolume2")))
        // A Windows Server 2022 node in no domain (perfcounters' FakeSystemInformation.windowsServer2022()).
        .windowsOs(new WindowsOs(
            new WindowsVersion("Windows Server 2022 Datacenter", 10, 0, 20348, 2849),
            new HostName("akswin000000", "", "akswin000000")))
        .build();
  }

  /**
   * The record of {@code builder} with a value in every figure of {@code binding} that it lacks, made up from the row's
   * place. {@code binding} is the table of a perf object without instances ({@code \Memory}, {@code \System}): a
   * Windows node has every counter of those, as the fake PDH host (perfcounters' {@code FakePdhLibrary}) makes up the
   * ones its fixture lacks, so a new row's series reaches the goldens without an edit here.
   */
  private static <M, B> M withEveryCounter(Binding<?, M, B> binding, B builder, Function<B, M> build) {
    M given = build.apply(builder);
    List<? extends Figure<?, M, B>> rows = binding.figures();
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).value().apply(given) == null) {
        rows.get(i).set().accept(builder, 1_000_000L * (i + 1));
      }
    }
    return build.apply(builder);
  }

  /**
   * {@code node} as a counter log that lacks the physical memory size replays it: no total physical memory and so no
   * working set; every other memory figure stays.
   */
  public static NodeSample withoutPhysicalMemorySize(NodeSample node) {
    NodeMemory m = java.util.Objects.requireNonNull(node.memory(), "memory");
    return node.toBuilder()
        .memory(
            NodeMemory.builder()
                .availableBytes(m.availableBytes())
                .usageBytes(m.usageBytes())
                .freeBytes(m.freeBytes())
                .cacheBytes(m.cacheBytes())
                .committedBytes(m.committedBytes())
                .commitLimitBytes(m.commitLimitBytes())
                .pageFaults(m.pageFaults())
                .build())
        .build();
  }

  /** Where containerd 1.6 on Linux keeps image and writable layers (the overlayfs snapshotter root). */
  public static final String LINUX_SNAPSHOTS = "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs";

  /** Where containerd on Windows keeps them (the windows snapshotter root). */
  public static final String WINDOWS_SNAPSHOTS =
      "C:\\ProgramData\\containerd\\root\\io.containerd.snapshotter.v1.windows";

  /** The filesystem holding {@link #LINUX_SNAPSHOTS}: the node's root filesystem, inodes from statvfs. */
  public static final FilesystemCapacity LINUX_DISK =
      new FilesystemCapacity(100_000_000_000L, 60_000_000_000L, 6_000_000L, 5_000_000L);

  /** Volume C:, holding {@link #WINDOWS_SNAPSHOTS}. */
  public static final FilesystemCapacity WINDOWS_DISK =
      new FilesystemCapacity(136_365_211_648L, 80_000_000_000L, null, null);

  /** Two pods at {@link #T1} on a Linux node, with the image filesystem, container logs and applied resources. */
  public static RuntimeSample runtime() {
    return runtime(
        LINUX_SNAPSHOTS,
        LINUX_DISK,
        8L,
        new RuntimeFilesystems(
            List.of(RuntimeFilesystemUsage.builder(T1, LINUX_SNAPSHOTS)
                .usedBytes(2_048_000L)
                .inodesUsed(289L)
                .capacity(LINUX_DISK)
                .build()), List.of()),
        new ResourceSpec(100_000L, 50_000L, 512L, 67_108_864L),
        false);
  }

  /**
   * The same two pods on a Windows node: writable layers on C: without inode counts, an image filesystem without
   * inodes, and no Linux resources; the sleeper (no network of its own) is a HostProcess pod.
   */
  public static RuntimeSample windowsRuntime() {
    return runtime(
        WINDOWS_SNAPSHOTS,
        WINDOWS_DISK,
        null,
        new RuntimeFilesystems(
            List.of(RuntimeFilesystemUsage.builder(T1, WINDOWS_SNAPSHOTS)
                .usedBytes(3_500_000_000L)
                .capacity(WINDOWS_DISK)
                .build()), List.of()),
        null,
        true);
  }

  private static RuntimeSample runtime(
      String snapshots,
      FilesystemCapacity disk,
      Long layerInodes,
      RuntimeFilesystems filesystems,
      ResourceSpec burnResources,
      boolean sleeperHostProcess) {
    PodSample burner =
        PodSample.builder(new PodRef("burner", "default", "uid-burner"), "sandbox-1")
            .createdAt(T0.minusSeconds(60))
            .labels(Map.of("app", "burner"))
            .hostProcess(false)
            .cpu(new CpuUsage(T1, 30_000_000_000L, 500_000_000L))
            .memory(
                MemoryUsage.builder(T1)
                    .workingSetBytes(2_244_608L)
                    .usageBytes(10_874_880L)
                    .rssBytes(163_840L)
                    .pageFaults(2_666L)
                    .majorPageFaults(1L)
                    .build())
            .network(new NetworkUsage(T1, List.of(InterfaceUsage.builder("eth0")
                .rxBytes(1_166L)
                .rxErrors(0L)
                .txBytes(542L)
                .txErrors(0L)
                .build())))
            .processCount(2L)
            .containers(
                List.of(
                    container(
                            "c-burn",
                            "burn",
                            0,
                            ContainerSample.State.RUNNING,
                            new CpuUsage(T1, 29_900_000_000L, 499_000_000L),
                            snapshots,
                            disk,
                            layerInodes)
                        .logs(new ContainerLogUsage(T1, 92L, 1L))
                        .resources(burnResources)
                        .build()))
            .build();
    PodSample sleeper =
        PodSample.builder(new PodRef("sleeper", "default", "uid-sleeper"), "sandbox-2")
            .createdAt(T0.minusSeconds(30))
            .hostProcess(sleeperHostProcess)
            .cpu(new CpuUsage(T1, 34_179_242L, null))
            .memory(
                MemoryUsage.builder(T1)
                    .workingSetBytes(905_216L)
                    .availableBytes(66_203_648L)
                    .usageBytes(9_293_824L)
                    .rssBytes(53_248L)
                    .pageFaults(1_159L)
                    .majorPageFaults(0L)
                    .build())
            .containers(
                List.of(
                    container(
                            "c-sleep",
                            "sleep",
                            0,
                            ContainerSample.State.RUNNING,
                            new CpuUsage(T1, 34_179_242L, null),
                            snapshots,
                            disk,
                            layerInodes)
                        .build()))
            .build();
    return RuntimeSample.builder(T1, "containerd 1.6.20~ds1")
        .pods(List.of(sleeper, burner))
        .filesystems(filesystems)
        .build();
  }

  /** A running container; {@code cpu == null} leaves out its CPU, memory and writable layer. */
  public static ContainerSample container(String id, String name, int attempt, CpuUsage cpu) {
    return container(id, name, attempt, ContainerSample.State.RUNNING, cpu, LINUX_SNAPSHOTS, null, 8L).build();
  }

  /**
   * An exited container that still has its last readings, as containerd 1.6 lists a completed init container
   * ({@code cpu == null} leaves them out).
   */
  public static ContainerSample exited(String id, String name, int attempt, CpuUsage cpu) {
    return container(id, name, attempt, ContainerSample.State.EXITED, cpu, LINUX_SNAPSHOTS, null, 8L).build();
  }

  private static ContainerSampleBuilder container(
      String id,
      String name,
      int attempt,
      ContainerSample.State state,
      CpuUsage cpu,
      String snapshots,
      FilesystemCapacity disk,
      Long layerInodes) {
    return ContainerSample.builder(id, name)
        .attempt(attempt)
        .image("localhost/winstats/busybox:1")
        .createdAt(T0.plusSeconds(attempt))
        .state(state)
        .labels(Map.of("io.kubernetes.container.name", name))
        .cpu(cpu)
        .memory(
            cpu == null
                ? null
                : MemoryUsage.builder(T1)
                    .workingSetBytes(598_016L)
                    .availableBytes(66_510_848L)
                    .usageBytes(602_112L)
                    .rssBytes(57_344L)
                    .pageFaults(728L)
                    .majorPageFaults(0L)
                    .build())
        .writableLayer(cpu == null ? null : RuntimeFilesystemUsage.builder(T1, snapshots)
            .usedBytes(20_480L)
            .inodesUsed(layerInodes)
            .capacity(disk)
            .build());
  }
}
