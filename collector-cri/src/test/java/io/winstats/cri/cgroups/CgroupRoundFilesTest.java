package io.winstats.cri.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files a cgroup round opens, per container and per pod, on a cgroup v1 hybrid tree and on a v2 tree: a round
 * costs the kernel's price of a file times their count ({@link CgroupReader}), so a file more per container is ~330
 * more opens every round at 110 pods. Counted through {@link KernelFile#recordOpens}, every open of the round in its
 * order, in the steady round (the second: limits, {@code memory.use_hierarchy}, the sandbox's pid and the devices'
 * names are read in the first and kept).
 *
 * <p>PSI is read where the kubelet and cAdvisor report it, cgroup v2 only: runc's (opencontainers/cgroups) v2 manager
 * reads {@code cpu.pressure}, {@code memory.pressure} and {@code io.pressure} (fs2/fs2.go:131,134,137@v0.0.6, the
 * version google/cadvisor v0.60.5 builds with), its v1 manager's {@code GetStats} none (fs/fs.go:183@v0.0.6), and
 * cAdvisor copies what the manager returns (lib/container/libcontainer/handler.go:788,817,828@v0.60.5). The kubelet
 * asks cAdvisor for its pressure metrics only where {@code /sys/fs/cgroup/cpu.pressure} opens (kubernetes#137326),
 * which a hybrid host's unified mount at {@code /sys/fs/cgroup/unified} is not. So the hybrid tree below carries the
 * unified hierarchy's pressure files and {@code /proc/pressure}, and the round must open none of them.
 */
@EnabledOnOs(OS.LINUX)
class CgroupRoundFilesTest {
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T03:00:00Z"), ZoneOffset.UTC);
  private static final String OTHER = "b".repeat(64);
  private static final String KUBEPODS = "/kubepods";
  private static final String POD = "/kubepods/besteffort/podu1";
  private static final String PSI_LINES =
      "some avg10=0.00 avg60=0.00 avg300=0.00 total=42\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=40\n";

  @TempDir Path tmp;

  private final AtomicLong nanos = new AtomicLong();

  @AfterEach
  void stopRecording() {
    KernelFile.recordOpens(null);
  }

  /**
   * v1 hybrid: a container with two processes opens 11 files and its processes' 2 {@code fd} directories per round,
   * a pod 11 files and its {@code net/dev}, {@code kubepods} 11 and its 3 usage files; no pressure file, no {@code
   * /proc/pressure}: 3 files per cgroup fewer than a round that read the unified mount's PSI.
   */
  @Test
  void aV1HybridRoundOpensNoPressureFile() {
    Path root = tmp.resolve("cgroup");
    Path proc = tmp.resolve("proc");
    Path sys = tmp.resolve("sys");
    CgroupTrees.device(sys, "254:0", "vda", "none");
    cgroupV1(root, proc, KUBEPODS, List.of());
    cgroupV1(root, proc, POD, List.of());
    cgroupV1(root, proc, POD + "/" + CgroupTrees.SANDBOX, List.of(11));
    cgroupV1(root, proc, POD + "/" + CgroupTrees.ID, List.of(20, 25));
    cgroupV1(root, proc, POD + "/" + OTHER, List.of(30, 35));
    CgroupTrees.write(root.resolve("memory" + KUBEPODS + "/memory.usage_in_bytes"), "10485760\n");
    CgroupTrees.write(root.resolve("memory" + KUBEPODS + "/memory.limit_in_bytes"), "33554432\n");
    CgroupTrees.write(proc.resolve("11/net/dev"), "Inter-|\n face |\n  eth0: 1 2 0 0 0 0 0 0 3 4 0 0 0 0 0 0\n");
    // The hybrid host's unified hierarchy, with PSI for every cgroup, and the node's PSI.
    CgroupTrees.write(root.resolve("unified/cgroup.controllers"), "");
    for (String path : List.of(KUBEPODS, POD, POD + "/" + CgroupTrees.ID, POD + "/" + OTHER)) {
      for (String resource : List.of("cpu", "memory", "io")) {
        CgroupTrees.write(root.resolve("unified" + path + "/" + resource + ".pressure"), PSI_LINES);
      }
    }
    for (String resource : List.of("cpu", "memory", "io")) {
      CgroupTrees.write(proc.resolve("pressure/" + resource), PSI_LINES);
    }
    CgroupSampler sampler = sampler(root, proc, sys);
    assertThat(sampler.version()).isEqualTo(CgroupVersion.V1);

    List<String> first = round(sampler);
    List<String> steady = round(sampler);

    assertThat(Stream.concat(first.stream(), steady.stream()))
        .as("PSI is read on cgroup v2 only, as the kubelet and cAdvisor report it")
        .noneMatch(name -> name.endsWith(".pressure") || name.contains("/unified/") || name.contains("/pressure/"));
    String r = root.toString();
    List<String> container = v1Cgroup(r, POD + "/" + CgroupTrees.ID, List.of(proc + "/20/fd", proc + "/25/fd"));
    List<String> other = v1Cgroup(r, POD + "/" + OTHER, List.of(proc + "/30/fd", proc + "/35/fd"));
    List<String> pod = concat(v1Cgroup(r, POD, List.of()), List.of(proc + "/11/net/dev"));
    List<String> kubepods = concat(
        v1Cgroup(r, KUBEPODS, List.of()),
        List.of(
            r + "/memory/kubepods/memory.usage_in_bytes",
            r + "/memory/kubepods/memory.stat",
            r + "/memory/kubepods/memory.limit_in_bytes"));
    assertThat(steady).containsExactlyElementsOf(concat(container, other, pod, kubepods));
    assertThat(container).as("files per container of two processes").hasSize(13);
    assertThat(pod).as("files per pod, its own cgroup and net/dev").hasSize(12);
    assertThat(steady).as("files per round: 2 containers, 1 pod, kubepods").hasSize(52);
  }

  /**
   * v2: a container with one process opens 11 files and its {@code fd} directory per round, its 3 pressure files
   * among them; the round reads {@code /proc/pressure} for the node.
   */
  @Test
  void aV2RoundOpensEachCgroupsPressureFiles() {
    Path root = tmp.resolve("cgroup");
    Path proc = tmp.resolve("proc");
    Path sys = tmp.resolve("sys");
    CgroupTrees.device(sys, "254:0", "vda", "none");
    String pod = "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-podu1.slice";
    CgroupTrees.v2Cgroup(root, "/kubepods.slice", 13);
    CgroupTrees.v2Cgroup(root, pod, 12);
    CgroupTrees.v2Cgroup(root, pod + "/cri-containerd-" + CgroupTrees.SANDBOX + ".scope", 11);
    CgroupTrees.v2Cgroup(root, pod + "/cri-containerd-" + CgroupTrees.ID + ".scope", 20);
    CgroupTrees.v2Cgroup(root, pod + "/cri-containerd-" + OTHER + ".scope", 30);
    // Only a leaf holds processes on v2 (no internal processes): the pod's and kubepods' cgroup.procs are empty.
    CgroupTrees.write(root.resolve("kubepods.slice/cgroup.procs"), "");
    CgroupTrees.write(root.resolve(pod.substring(1) + "/cgroup.procs"), "");
    CgroupTrees.write(root.resolve("kubepods.slice/memory.current"), "4194304\n");
    CgroupTrees.write(root.resolve("kubepods.slice/memory.max"), "max\n");
    for (int pid : List.of(11, 20, 30)) {
      CgroupTrees.process(proc, pid, "1048576");
    }
    CgroupTrees.write(proc.resolve("11/net/dev"), "Inter-|\n face |\n  eth0: 1 2 0 0 0 0 0 0 3 4 0 0 0 0 0 0\n");
    for (String resource : List.of("cpu", "memory", "io")) {
      CgroupTrees.write(proc.resolve("pressure/" + resource), PSI_LINES);
    }
    CgroupSampler sampler = sampler(root, proc, sys);
    assertThat(sampler.version()).isEqualTo(CgroupVersion.V2);

    round(sampler);
    List<String> steady = round(sampler);

    String r = root.toString();
    List<String> container =
        v2Cgroup(r, pod + "/cri-containerd-" + CgroupTrees.ID + ".scope", List.of(proc + "/20/fd"));
    List<String> other = v2Cgroup(r, pod + "/cri-containerd-" + OTHER + ".scope", List.of(proc + "/30/fd"));
    List<String> podFiles = concat(v2Cgroup(r, pod, List.of()), List.of(proc + "/11/net/dev"));
    List<String> kubepods = concat(
        v2Cgroup(r, "/kubepods.slice", List.of()),
        List.of(
            r + "/kubepods.slice/memory.current",
            r + "/kubepods.slice/memory.stat",
            r + "/kubepods.slice/memory.max"));
    List<String> node = List.of(proc + "/pressure/cpu", proc + "/pressure/memory", proc + "/pressure/io");
    assertThat(steady).containsExactlyElementsOf(concat(container, other, podFiles, kubepods, node));
    assertThat(container).as("files per container of one process").hasSize(12);
    assertThat(container).filteredOn(name -> name.endsWith(".pressure")).hasSize(3);
    assertThat(podFiles).as("files per pod, its own cgroup and net/dev").hasSize(12);
  }

  /** The recording itself: an open that fails is an open (the kernel walked the path), and null stops it. */
  @Test
  void recordsEveryOpenUntilStopped() {
    List<String> opened = new ArrayList<>();
    KernelFile.recordOpens(opened);
    String missing = tmp.resolve("no-such-file").toString();
    assertThat(KernelFile.readSingle(missing)).isNull();
    KernelFile.listing(tmp.resolve("fd"));
    KernelFile.recordOpens(null);
    assertThat(KernelFile.readSingle(missing)).isNull();
    assertThat(opened).containsExactly(missing, tmp.resolve("fd").toString());
  }

  private CgroupSampler sampler(Path root, Path proc, Path sys) {
    return new CgroupSampler(
        new CgroupReader(root, proc, sys, CgroupReader.SPEC_REFRESH, nanos::get),
        Duration.ofMinutes(1),
        nanos::get,
        CLOCK);
  }

  /** One round over the pod's sandbox and its two containers, one second after the last; the files it opened. */
  private List<String> round(CgroupSampler sampler) {
    nanos.addAndGet(Duration.ofSeconds(1).toNanos());
    List<String> opened = new ArrayList<>();
    KernelFile.recordOpens(opened);
    CgroupSample sample = sampler.sample(List.of(CgroupTrees.SANDBOX), List.of(CgroupTrees.ID, OTHER));
    KernelFile.recordOpens(null);
    assertThat(sample.missing()).isEmpty();
    assertThat(sample.containers()).hasSize(2);
    assertThat(sample.pods()).hasSize(1);
    assertThat(sample.kubepods()).isNotNull();
    return opened;
  }

  /** A v1 cgroup at {@code path} whose {@code cgroup.procs} lists {@code pids}, each a process with an fd directory. */
  private static void cgroupV1(Path root, Path proc, String path, List<Integer> pids) {
    CgroupTrees.v1Container(root, path, 0);
    StringBuilder procs = new StringBuilder();
    for (int pid : pids) {
      procs.append(pid).append('\n');
      CgroupTrees.process(proc, pid, "1048576");
    }
    // The cpu hierarchy's cgroup.procs gives a sandbox's first pid; the pids hierarchy's is the one counted.
    CgroupTrees.write(root.resolve("cpu" + path + "/cgroup.procs"), procs.toString());
    CgroupTrees.write(root.resolve("pids" + path + "/cgroup.procs"), procs.toString());
  }

  /**
   * The files a steady round opens for a v1 cgroup, in the round's order: the cpu and memory statistics, the throttle
   * layer's block IO (the only policy with files on this tree), the processes and their {@code fd} directories.
   */
  private static List<String> v1Cgroup(String root, String path, List<String> fdDirectories) {
    List<String> files = new ArrayList<>(List.of(
        root + "/cpuacct" + path + "/cpuacct.stat",
        root + "/cpu" + path + "/cpu.stat",
        root + "/memory" + path + "/memory.stat",
        root + "/memory" + path + "/memory.kmem.usage_in_bytes",
        root + "/memory" + path + "/memory.failcnt",
        root + "/memory" + path + "/memory.max_usage_in_bytes",
        root + "/memory" + path + "/memory.oom_control",
        root + "/blkio" + path + "/blkio.throttle.io_serviced_recursive",
        root + "/blkio" + path + "/blkio.throttle.io_service_bytes_recursive",
        root + "/pids" + path + "/cgroup.procs"));
    files.addAll(fdDirectories);
    files.add(root + "/pids" + path + "/pids.current");
    return files;
  }

  /** The files a steady round opens for a v2 cgroup, in the round's order, its three pressure files last. */
  private static List<String> v2Cgroup(String root, String path, List<String> fdDirectories) {
    String d = root + path;
    List<String> files = new ArrayList<>(List.of(
        d + "/cpu.stat", d + "/memory.stat", d + "/memory.events", d + "/memory.swap.current", d + "/memory.peak",
        d + "/io.stat", d + "/cgroup.procs"));
    files.addAll(fdDirectories);
    files.addAll(List.of(d + "/pids.current", d + "/cpu.pressure", d + "/memory.pressure", d + "/io.pressure"));
    return files;
  }

  @SafeVarargs
  private static List<String> concat(List<String>... parts) {
    List<String> all = new ArrayList<>();
    for (List<String> part : parts) {
      all.addAll(part);
    }
    return all;
  }
}
