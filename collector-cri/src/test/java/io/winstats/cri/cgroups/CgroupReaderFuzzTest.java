package io.winstats.cri.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.Fuzz;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cgroup round's files (issue 44): whatever a container's cgroup, {@code /proc} and {@code /sys} files hold, the
 * reader returns its record, a figure it cannot read being absent, and never throws (its contract: a cgroup removed
 * or garbled mid-read shows as absent parts). Inputs: a v1 and a v2 container's whole tree, each try with some of
 * its files bent, emptied or replaced by any text, read by a fresh reader so that nothing is served from what an
 * earlier try kept.
 */
@EnabledOnOs(OS.LINUX)
class CgroupReaderFuzzTest {
  private static final String PATH = "/kubepods/burstable/pod1234/" + CgroupTrees.ID;
  private static final List<String> WORDS =
      List.of(
          "user", "system", "nr_periods", "nr_throttled", "throttled_time", "usage_usec", "total_cache", "total_rss",
          "cache", "rss", "anon", "file", "pgfault", "pgmajfault", "oom_kill", "max", "some", "full", "avg10=",
          "total=", "rbytes=", "wbytes=", "rios=", "254:0", "Read", "Write", "Total", "Max open files", "unlimited",
          "MAJOR=", "DEVNAME=", "[bfq]", "\n", " ", "=", "");

  @TempDir Path tmp;

  @Test
  void aV1TreeWithItsFilesBentIsReadWithoutThrowing() throws IOException {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v1Container(root, PATH, 4242);
    fuzzTree("cgroup v1 files bent", root);
  }

  @Test
  void aV2TreeWithItsFilesBentIsReadWithoutThrowing() throws IOException {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v2Cgroup(root, PATH, 4242);
    fuzzTree("cgroup v2 files bent", root);
  }

  /**
   * Crashes the fuzzing found, kept: a {@code pids.max} of {@code max} with more after it threw
   * NumberFormatException, and a PSI line whose {@code avg10=} was cut threw IllegalArgumentException, each out of
   * the whole read; a first line of {@code cgroup.procs} that was not a number named a {@code /proc} path (a NUL in
   * it threw InvalidPathException). Now each is that part absent.
   */
  @Test
  void aFileTheKernelWouldNotWriteLeavesItsPartAbsent() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v2Cgroup(root, PATH, 4242);
    Path dir = root.resolve(PATH.substring(1));
    CgroupTrees.write(dir.resolve("pids.max"), "max\n1\n");
    CgroupTrees.write(dir.resolve("cpu.pressure"), "some vg10=0.00 avg60=0.00 avg300=0.00 total=1\n");

    CgroupTrees.write(dir.resolve("cgroup.procs"), "../../self\u0000\n");
    CgroupReader reader = new CgroupReader(root, tmp.resolve("proc"), tmp.resolve("sys"));
    CgroupStats s = reader.read(PATH);

    assertThat(reader.network(PATH)).as("no pid, no network namespace to read").isNull();

    assertThat(s.cpu()).as("the other parts read").isNotNull();
    assertThat(s.memory()).isNotNull();
    assertThat(s.cpuPressure()).as("the garbled PSI file").isNull();
  }

  private void fuzzTree(String property, Path root) throws IOException {
    Path proc = tmp.resolve("proc");
    Path sys = tmp.resolve("sys");
    CgroupTrees.process(proc, 4242, "1048576");
    CgroupTrees.device(sys, "254:0", "vda", "bfq");
    CgroupTrees.write(proc.resolve("4242/net/dev"),
        "Inter-|   Receive                            |  Transmit\n"
            + " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls"
            + " carrier compressed\n  eth0: 1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0\n");
    Map<Path, String> whole = files(tmp);
    CgroupStats healthy = new CgroupReader(root, proc, sys).read(PATH);
    assertThat(healthy.cpu()).as("the whole tree is read").isNotNull();

    Fuzz.forAll(property, 3, r -> bend(r, whole), bent -> {
      try {
        bent.forEach(CgroupReaderFuzzTest::write);
        CgroupReader reader = new CgroupReader(root, proc, sys);
        assertThat(reader.read(PATH)).isNotNull();
        reader.memoryUsage(PATH);
        reader.network(PATH);
        reader.nodePressure();
      } finally {
        whole.forEach(CgroupReaderFuzzTest::write);
      }
    });
  }

  /** Some of the tree's files, each bent, emptied, or any text. */
  private static Map<Path, String> bend(SplittableRandom r, Map<Path, String> whole) {
    Map<Path, String> bent = new TreeMap<>();
    whole.forEach(
        (file, text) -> {
          if (r.nextInt(3) == 0) {
            bent.put(
                file,
                switch (r.nextInt(4)) {
                  case 0 -> "";
                  case 1 -> Fuzz.text(r, 200);
                  default -> Fuzz.mutate(r, text, WORDS);
                });
          }
        });
    return bent;
  }

  private static Map<Path, String> files(Path dir) throws IOException {
    Map<Path, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(p -> Files.isRegularFile(p) && !Files.isSymbolicLink(p)).toList()) {
        files.put(p, Files.readString(p, StandardCharsets.UTF_8));
      }
    }
    return files;
  }

  private static void write(Path file, String text) {
    try {
      Files.write(file, text.getBytes(StandardCharsets.UTF_8)); // a lone surrogate becomes ?, as any byte may be
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
