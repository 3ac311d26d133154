package io.winstats.perfcounters.procfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.NodeSourceException;
import io.winstats.testing.Fuzz;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The {@code /proc} files the Linux node source reads (issue 44): whatever their text, each parser returns a value or
 * throws {@link NodeSourceException}, never another exception. Inputs: lines of the files' own words and of numbers at
 * and past the edges of a long, any text, and the captured fixtures bent a few times.
 */
class ProcfsFuzzTest {
  private static final Map<String, Function<String, ?>> PARSERS =
      Map.of(
          "stat", ProcStat::parse, "net/dev", NetDev::parse, "meminfo", MemInfo::parse, "vmstat", VmStat::parse,
          "loadavg", LoadAvg::parse, "diskstats", DiskStats::parse, "self/mounts", MountTable::parse);
  private static final List<String> WORDS =
      List.of(
          "cpu", "cpu0", "cpu1", "intr", "ctxt", "btime", "processes", "procs_running", "MemTotal:", "MemAvailable:",
          "MemFree:", "Buffers:", "Cached:", "SwapTotal:", "AnonPages:", "kB", "pgfault", "pgmajfault", "Inter-|",
          "Receive", "Transmit", "face", "|bytes", "bytes", "packets", "eth0:", "lo:", "a:b:", ":", "sda", "sda1",
          "nvme0n1", "loop0", "dm-0", "/dev/sda1", "/", "/var/lib", "ext4", "tmpfs", "overlay", "rw,relatime", "ro",
          "1/234", "12345/1", "\\040", "");
  private static final List<String> SEPARATORS = List.of(" ", "  ", "\t", ": ");

  @Test
  void kernelFileShapedTextGivesAValueOrANodeSourceException() {
    Fuzz.forAll("/proc: kernel-file-shaped text", r -> Fuzz.lines(r, WORDS, SEPARATORS, 20, 12),
        ProcfsFuzzTest::parseWithEach);
  }

  @Test
  void anyTextGivesAValueOrANodeSourceException() {
    Fuzz.forAll("/proc: any text", r -> Fuzz.text(r, 400), ProcfsFuzzTest::parseWithEach);
  }

  @Test
  void capturedFilesBentGiveAValueOrANodeSourceException() throws IOException {
    Path root = Path.of("src/test/resources/fixtures/procfs/vm-debian12-2cpu");
    for (Map.Entry<String, Function<String, ?>> parser : PARSERS.entrySet()) {
      String captured = Files.readString(root.resolve(parser.getKey()), StandardCharsets.UTF_8);
      assertThat(parser.getValue().apply(captured)).as("the captured %s parses", parser.getKey()).isNotNull();
      Fuzz.forAll("/proc: captured " + parser.getKey() + " bent", r -> Fuzz.mutate(r, captured, WORDS),
          text -> parse(parser.getValue(), text));
    }
  }

  /** A crash the fuzzing found, kept: a sector or kB count whose bytes pass a long threw ArithmeticException. */
  @Test
  void aCounterWhoseBytesPassALongIsMalformed() {
    String disk = " 8 0 sda 1 0 18446744073709551 0 1 0 2 0 0 0 0\n".replace("18446744073709551", "36028797018963968");
    assertThatThrownBy(() -> DiskStats.parse(disk)).isInstanceOf(NodeSourceException.class)
        .hasMessageContaining("36028797018963968 x 512 is past a long");
    assertThatThrownBy(() -> MemInfo.parse("MemTotal: 9007199254740993 kB\n")).isInstanceOf(NodeSourceException.class)
        .hasMessageContaining("x 1024 is past a long");
  }

  private static void parseWithEach(String text) {
    PARSERS.values().forEach(p -> parse(p, text));
  }

  private static void parse(Function<String, ?> parser, String text) {
    try {
      assertThat(parser.apply(text)).isNotNull();
    } catch (NodeSourceException e) {
      assertThat(e.reason()).isNotNull();
    }
  }
}
