package io.winstats.summary;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.summary.SummaryTypes.Summary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SummaryAssemblerTest {

  private static final Instant T0 = SampleFixtures.T0;
  private static final Instant T1 = SampleFixtures.T1;

  private final SummaryAssembler assembler = new SummaryAssembler("node-a", NodePlatform.LINUX);

  @Test
  void linuxNodeWithTwoPodsMatchesGolden() throws IOException {
    Summary summary = assembler.assemble(SampleFixtures.linuxNode(T1, 10_000_000_000L, 25_000_000_000L), SampleFixtures.linuxNode(T0, 0, 20_000_000_000L), SampleFixtures.runtime());
    assertMatchesGolden("linux-node-two-pods.json", SummaryJson.write(summary));
  }

  @Test
  void windowsNodeWithTwoPodsMatchesGolden() throws IOException {
    Summary summary =
        new SummaryAssembler("win-node-a", NodePlatform.WINDOWS)
            .assemble(
                SampleFixtures.windowsNode(T1, 10_000_000_000L, 25_000_000_000L),
                SampleFixtures.windowsNode(T0, 0, 20_000_000_000L),
                SampleFixtures.windowsRuntime());
    assertMatchesGolden("windows-node-two-pods.json", SummaryJson.write(summary));
    assertThat(summary.node().systemContainers())
        .extracting(SummaryTypes.ContainerStats::name)
        .containsExactly("pods", "windows-global-commit-memory");
    assertThat(summary.node().systemContainers().get(1).memory().availableBytes()).isEqualTo(12_500_000_000L);
  }

  /** The live reading of the kubelet's root volume, not LogicalDisk's lagging one, is node.fs and each log's capacity. */
  @Test
  void kubeletRootFilesystemIsTheNodeFsAndTheLogCapacity() {
    NodeSample node = SampleFixtures.windowsNode(T1, 10_000_000_000L, 25_000_000_000L);
    FilesystemUsage live = FilesystemUsage.builder("C:", "C:\\", "NTFS")
        .capacityBytes(136_365_211_648L)
        .availableBytes(70_000_000_000L)
        .usedBytes(66_365_211_648L)
        .build();
    NodeSample sample = node.toBuilder().kubeletRootFs(live).build();

    Summary summary = new SummaryAssembler("win-node-a", NodePlatform.WINDOWS).assemble(sample, null, SampleFixtures.windowsRuntime());

    assertThat(summary.node().fs().availableBytes()).isEqualTo(70_000_000_000L);
    assertThat(summary.pods())
        .flatExtracting(SummaryTypes.PodStats::containers)
        .filteredOn(c -> c.logs() != null)
        .isNotEmpty()
        .allSatisfy(c -> assertThat(c.logs().availableBytes()).isEqualTo(70_000_000_000L));
  }

  /** PerfProc disabled: no node working set, but the commit figures, an eviction input, stay. */
  @Test
  void windowsCommitMemoryDoesNotNeedTheWorkingSet() {
    NodeSample node = SampleFixtures.windowsNode(T1, 10_000_000_000L, 25_000_000_000L);
    NodeMemory m = node.memory();
    NodeMemory withoutWorkingSet =
        NodeMemory.builder()
            .totalBytes(m.totalBytes())
            .availableBytes(m.availableBytes())
            .committedBytes(m.committedBytes())
            .commitLimitBytes(m.commitLimitBytes())
            .usageBytes(m.usageBytes())
            .build();
    NodeSample sample = node.toBuilder().memory(withoutWorkingSet).build();

    Summary summary = new SummaryAssembler("win-node-a", NodePlatform.WINDOWS).assemble(sample, null, SampleFixtures.windowsRuntime());

    assertThat(summary.node().memory().workingSetBytes()).isNull();
    assertThat(summary.node().memory().availableBytes()).isNull();
    assertThat(summary.node().memory().usageBytes()).isEqualTo(7_500_000_000L);
    assertThat(summary.node().systemContainers())
        .extracting(SummaryTypes.ContainerStats::name)
        .containsExactly("pods", "windows-global-commit-memory");
    assertThat(summary.node().systemContainers().get(1).memory().availableBytes()).isEqualTo(12_500_000_000L);
  }

  @Test
  void onlyCpuAndMemoryMatchesGolden() throws IOException {
    Summary summary =
        assembler.assembleCpuAndMemory(SampleFixtures.linuxNode(T1, 10_000_000_000L, 25_000_000_000L), SampleFixtures.linuxNode(T0, 0, 20_000_000_000L), SampleFixtures.runtime());
    assertMatchesGolden("linux-node-cpu-and-memory.json", SummaryJson.write(summary));
  }

  @Test
  void usageNanoCoresIsAbsentOnTheFirstSample() throws IOException {
    Summary summary = assembler.assemble(SampleFixtures.linuxNode(T0, 0, 20_000_000_000L), null, null);
    JsonNode json = new ObjectMapper().readTree(SummaryJson.write(summary));
    assertThat(json.at("/node/cpu").has("usageNanoCores")).isFalse();
    assertThat(json.at("/node/cpu/usageCoreNanoSeconds").asLong()).isEqualTo(20_000_000_000L);
    assertThat(json.get("pods")).isEmpty();
  }

  @Test
  void nodeNanoCoresComeFromTheMonotonicInterval() {
    // 5 s of CPU over 10 s of monotonic time = 0.5 cores, whatever the wall clock did.
    NodeSample previous = SampleFixtures.linuxNode(T0, 0, 20_000_000_000L);
    NodeSample current = SampleFixtures.linuxNode(T0.minusSeconds(3600), 10_000_000_000L, 25_000_000_000L);
    Summary summary = assembler.assemble(current, previous, null);
    assertThat(summary.node().cpu().usageNanoCores()).isEqualTo(500_000_000L);
  }

  @Test
  void aCounterThatWentBackwardsGivesNoRate() {
    Summary summary = assembler.assemble(SampleFixtures.linuxNode(T1, 10_000_000_000L, 1_000L), SampleFixtures.linuxNode(T0, 0, 20_000_000_000L), null);
    assertThat(summary.node().cpu().usageNanoCores()).isNull();
  }

  /**
   * The kubelet serves running containers only (removeTerminatedContainers, by CRI state): the exited first attempt
   * of a restarted container and a completed init container are left out even though containerd 1.6 still reports
   * their last CPU and memory; the pod's own stats stay.
   */
  @Test
  void exitedContainersAreLeftOutAsTheKubeletRemovesThem() {
    CpuUsage running = new CpuUsage(T1, 5_000_000L, null);
    CpuUsage last = new CpuUsage(T0, 54_000_000L, null);
    PodSample pod =
        PodSample.builder(new PodRef("web", "shop", "uid-1"), "sb1")
            .createdAt(T0)
            .hostProcess(false)
            .cpu(running)
            .containers(
                List.of(
                    SampleFixtures.exited("c-init", "init", 0, last),
                    SampleFixtures.exited("c-old", "app", 0, last),
                    SampleFixtures.container("c-new", "app", 1, running)))
            .build();
    RuntimeSample runtime = RuntimeSample.builder(T1, "containerd").pods(List.of(pod)).build();
    for (Summary summary :
        List.of(
            assembler.assemble(SampleFixtures.linuxNode(T0, 0, 1), null, runtime),
            assembler.assembleCpuAndMemory(SampleFixtures.linuxNode(T0, 0, 1), null, runtime))) {
      assertThat(summary.pods().get(0).containers()).extracting(SummaryTypes.ContainerStats::name).containsExactly("app");
      assertThat(summary.pods().get(0).containers().get(0).startTime()).isEqualTo(T0.plusSeconds(1));
      assertThat(summary.pods().get(0).cpu().usageCoreNanoSeconds()).isEqualTo(5_000_000L);
    }
  }

  /** The kubelet's maxpid is min(kernel.pid_max, kernel.threads-max) (pkg/kubelet/stats/pidlimit). */
  @Test
  void rlimitMaxPidIsTheSmallerOfPidMaxAndThreadsMax() {
    NodeSample n = SampleFixtures.linuxNode(T1, 0, 1);
    NodeSystem s = n.system();
    for (long threadsMax : new long[] {15_503L, 9_000_000L}) {
      NodeSystem withThreads =
          NodeSystem.builder(s.processes())
              .bootTime(s.bootTime())
              .threads(s.threads())
              .maxProcesses(s.maxProcesses())
              .contextSwitches(s.contextSwitches())
              .processorQueueLength(s.processorQueueLength())
              .load1(s.load1())
              .load5(s.load5())
              .load15(s.load15())
              .maxThreads(threadsMax)
              .build();
      NodeSample node = n.toBuilder().system(withThreads).build();
      assertThat(assembler.assemble(node, null, null).node().rlimit().maxPid())
          .isEqualTo(Math.min(threadsMax, 4_194_304L));
    }
    assertThat(assembler.assemble(n, null, null).node().rlimit().maxPid()).as("pid_max alone").isEqualTo(4_194_304L);
  }

  @Test
  void timesAreRfc3339SecondsInUtc() {
    assertThat(SummaryJson.formatTime(Instant.parse("2026-11-21T08:00:00.999999Z"))).isEqualTo("2026-11-21T08:00:00Z");
  }

  /** Compares the JSON byte for byte with the golden, compacted; {@code -Dgolden.update=true} rewrites the golden for review. */
  static void assertMatchesGolden(String name, byte[] actual) throws IOException {
    Path golden = Path.of("src/test/resources/golden/summary", name);
    ObjectMapper mapper = new ObjectMapper();
    if (Boolean.getBoolean("golden.update")) {
      Files.write(golden, mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(mapper.readTree(actual)));
    }
    // Byte for byte, key order included: the golden, pretty-printed for review, re-written compactly.
    byte[] expected = mapper.writeValueAsBytes(mapper.readTree(Files.readAllBytes(golden)));
    assertThat(new String(actual, java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(new String(expected, java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void aSplitContainerFilesystemIsReportedAsContainerFsAndASharedOneRepeatsImageFs() {
    io.winstats.cri.RuntimeFilesystemUsage image =
        io.winstats.cri.RuntimeFilesystemUsage.builder(T1, "/var/lib/images")
            .usedBytes(5_000L)
            .inodesUsed(50L)
            .capacity(SampleFixtures.LINUX_DISK)
            .build();
    io.winstats.cri.RuntimeFilesystemUsage writable =
        io.winstats.cri.RuntimeFilesystemUsage.builder(T1, "/var/lib/containers")
            .usedBytes(700L)
            .inodesUsed(7L)
            .build();
    NodeSample node = SampleFixtures.linuxNode(T1, 0, 1);

    Summary split = assembler.assemble(node, null, runtimeWith(new io.winstats.cri.RuntimeFilesystems(List.of(image), List.of(writable))));
    Summary shared = assembler.assemble(node, null, runtimeWith(new io.winstats.cri.RuntimeFilesystems(List.of(image), List.of(image))));
    Summary unanswered = assembler.assemble(node, null, runtimeWith(null));

    assertThat(split.node().runtime().imageFs().usedBytes()).isEqualTo(5_000L);
    assertThat(split.node().runtime().imageFs().capacityBytes()).isEqualTo(100_000_000_000L);
    assertThat(split.node().runtime().containerFs())
        .isEqualTo(new SummaryTypes.FsStats(T1, null, null, 700L, null, null, 7L));
    assertThat(shared.node().runtime().containerFs()).isEqualTo(shared.node().runtime().imageFs());
    assertThat(unanswered.node().runtime()).isNull();
  }

  @Test
  void ephemeralStorageSumsWritableLayersAndLogsOnTheRootFilesystemsCapacity() {
    Summary summary = assembler.assemble(SampleFixtures.linuxNode(T1, 0, 1), null, SampleFixtures.runtime());
    SummaryTypes.PodStats burner =
        summary.pods().stream().filter(p -> p.podRef().name().equals("burner")).findFirst().orElseThrow();

    // writable layer 20 480 B / 8 inodes + log file 92 B / 1 inode
    assertThat(burner.ephemeralStorage().usedBytes()).isEqualTo(20_572L);
    assertThat(burner.ephemeralStorage().inodesUsed()).isEqualTo(9L);
    assertThat(burner.ephemeralStorage().capacityBytes()).isEqualTo(summary.node().fs().capacityBytes());
    assertThat(burner.containers().get(0).logs().inodes()).isEqualTo(summary.node().fs().inodes());
    assertThat(assembler.assembleCpuAndMemory(SampleFixtures.linuxNode(T1, 0, 1), null, SampleFixtures.runtime())
            .pods().get(0).ephemeralStorage())
        .isNull();
  }

  /**
   * The figures served as series are the summary's, pod for pod, on both kinds of node; an exited container's layer
   * and a pod without any layer count as the summary counts them.
   */
  @Test
  void podEphemeralStorageIsTheSummarysFigureForEveryPod() {
    RuntimeSample linux = SampleFixtures.runtime();
    List<PodSample> pods = new java.util.ArrayList<>();
    for (PodSample p : linux.pods()) {
      ContainerSample init = SampleFixtures.exited("c-init-" + p.ref().name(), "init", 0, new CpuUsage(T1, 1L, null));
      pods.add(p.toBuilder().containers(Stream.concat(p.containers().stream(), Stream.of(init)).toList()).build());
    }
    pods.add(PodSample.builder(new PodRef("bare", "default", "uid-bare"), "sandbox-3").createdAt(T0).build());
    RuntimeSample withExitedAndBare = linux.toBuilder().pods(pods).build();

    assertSameAsSummary(assembler, SampleFixtures.linuxNode(T1, 0, 1), withExitedAndBare);
    assertSameAsSummary(
        new SummaryAssembler("win-node-a", NodePlatform.WINDOWS), SampleFixtures.windowsNode(T1, 0, 1), SampleFixtures.windowsRuntime());
    assertThat(SummaryAssembler.podEphemeralStorage(SampleFixtures.linuxNode(T1, 0, 1), withExitedAndBare))
        .extracting(p -> p.pod().name() + " " + p.storage().usedBytes())
        .as("running containers only: layer 20 480 B, plus the burner's 92 B log; no pod without a layer")
        .containsExactly("burner 20572", "sleeper 20480");
    assertThat(SummaryAssembler.podEphemeralStorage(SampleFixtures.linuxNode(T1, 0, 1), null)).isEmpty();
  }

  private static void assertSameAsSummary(SummaryAssembler assembler, NodeSample node, RuntimeSample runtime) {
    List<SummaryAssembler.PodEphemeralStorage> expected =
        assembler.assemble(node, null, runtime).pods().stream()
            .filter(p -> p.ephemeralStorage() != null)
            .map(p -> new SummaryAssembler.PodEphemeralStorage(p.podRef(), p.ephemeralStorage()))
            .toList();
    assertThat(expected).isNotEmpty();
    assertThat(SummaryAssembler.podEphemeralStorage(node, runtime)).isEqualTo(expected);
  }

  private static RuntimeSample runtimeWith(io.winstats.cri.@org.jspecify.annotations.Nullable RuntimeFilesystems fs) {
    RuntimeSample r = SampleFixtures.runtime();
    return r.toBuilder().filesystems(fs).build();
  }

  @Test
  void withoutThePhysicalMemorySizeNodeAvailableBytesIsAbsentAndTheRestStays() {
    NodeSample full = SampleFixtures.windowsNode(T1, 0, 1);
    io.winstats.perfcounters.NodeMemory m = full.memory();
    NodeSample replayed = SampleFixtures.withoutPhysicalMemorySize(full);

    SummaryTypes.MemoryStats memory = new SummaryAssembler("w", NodePlatform.WINDOWS).assemble(replayed, null, null).node().memory();

    assertThat(memory.availableBytes()).as("capacity - working set needs both").isNull();
    assertThat(memory.workingSetBytes()).isNull();
    assertThat(memory.usageBytes()).isEqualTo(m.usageBytes());
  }

  /**
   * The kubelet's Windows {@code getSystemPodsCPUAndMemoryStats} sets each sum "only if they are not zero": pods
   * without a commit figure (HostProcess-only nodes, containerd before 2.0) give a {@code pods} container without
   * {@code usageBytes}, where this served 0; the working set, which they report, is still summed.
   */
  @Test
  void thePodsSystemContainerLeavesOutASumNoPodReports() {
    RuntimeSample r = SampleFixtures.windowsRuntime();
    List<PodSample> noUsage = r.pods().stream()
        .map(p -> p.toBuilder()
            .memory(MemoryUsage.builder(p.memory().timestamp()).workingSetBytes(p.memory().workingSetBytes()).build())
            .build())
        .toList();
    RuntimeSample withoutUsage = r.toBuilder().pods(noUsage).build();

    SummaryTypes.ContainerStats pods = new SummaryAssembler("w", NodePlatform.WINDOWS)
        .assemble(SampleFixtures.windowsNode(T1, 0, 1), null, withoutUsage).node().systemContainers().get(0);

    assertThat(pods.name()).isEqualTo("pods");
    assertThat(pods.memory().usageBytes()).isNull();
    assertThat(pods.memory().workingSetBytes())
        .isEqualTo(noUsage.stream().mapToLong(p -> p.memory().workingSetBytes()).sum())
        .isPositive();
  }
}
