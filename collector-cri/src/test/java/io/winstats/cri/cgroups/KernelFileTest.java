package io.winstats.cri.cgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-place parsers of the cgroup round, held to the meanings of the {@code String} code they replaced: a key is a
 * whole first word (never a prefix, never the {@code total_} form of another), a missing key is told from a 0, and
 * numbers read as {@link Long#parseLong} and {@link Double#parseDouble} read them.
 */
@EnabledOnOs(OS.LINUX)
class KernelFileTest {
  @TempDir Path tmp;

  private KernelFile file(String text) {
    Path p = tmp.resolve("f");
    CgroupTrees.write(p, text);
    KernelFile f = KernelFile.read(p.toString());
    assertThat(f).isNotNull();
    return f;
  }

  private static final KernelFile.Keys RSS_CACHE = new KernelFile.Keys("rss", "cache", "swap");

  @Test
  void aKeyIsTheWholeFirstWordNotAPrefixOrItsTotalForm() {
    KernelFile f = file("total_rss 1\nrss_huge 2\ncache 3\ntotal_cache 4\nrss 5\n");
    f.keyed(RSS_CACHE);

    assertThat(f.get(0)).as("rss, not total_rss or rss_huge").isEqualTo(5);
    assertThat(f.get(1)).as("cache, not total_cache after it").isEqualTo(3);
  }

  @Test
  void theHierarchicalKeysAreTheirOwnKeys() {
    KernelFile f = file("cache 11\nrss 12\nswap 14\ntotal_cache 1048576\ntotal_rss 2097152\ntotal_swap 8192\n");
    f.keyed(new KernelFile.Keys("total_cache", "total_rss", "total_swap"));

    assertThat(List.of(f.get(0), f.get(1), f.get(2))).containsExactly(1048576L, 2097152L, 8192L);
  }

  @Test
  void aMissingKeyIsNotFoundAndReadsAsZeroOrNull() {
    KernelFile f = file("rss 5\ncache 0\n");
    f.keyed(RSS_CACHE);

    assertThat(f.has(1)).as("cache 0 is there").isTrue();
    assertThat(f.find(1)).isEqualTo(0L);
    assertThat(f.has(2)).as("no swap line").isFalse();
    assertThat(f.get(2)).isZero();
    assertThat(f.find(2)).isNull();
  }

  @Test
  void aKeyFoundInTheLastFileIsNotFoundInTheNext() {
    file("swap 7\n").keyed(RSS_CACHE);
    KernelFile f = file("rss 1\n");
    f.keyed(RSS_CACHE);

    assertThat(f.find(2)).isNull();
  }

  @Test
  void aValueThatIsNotANumberIsSkippedAndTheRestCount() {
    KernelFile f = file("rss twelve\ncache 3 4\nswap 18446744073709551616\nrss 9\n");
    f.keyed(RSS_CACHE);

    assertThat(f.get(0)).as("the later rss line").isEqualTo(9);
    assertThat(f.has(1)).as("two numbers are no number").isFalse();
    assertThat(f.has(2)).as("past Long.MAX_VALUE").isFalse();
  }

  @Test
  void linesAreStrippedAndTheLastNeedsNoNewline() {
    KernelFile f = file(" rss 1\ncache  3 \r\nswap\t4\nswap 5");
    f.keyed(RSS_CACHE);

    assertThat(f.has(0)).as("a line starting with a space has no key").isFalse();
    assertThat(f.get(1)).isEqualTo(3);
    assertThat(f.get(2)).as("a tab is no key separator; the unterminated last line counts").isEqualTo(5);
  }

  @Test
  void anEmptyOrAbsentFile() {
    KernelFile f = file("");
    f.keyed(RSS_CACHE);
    assertThat(f.has(0)).isFalse();
    assertThat(f.single()).isNull();
    assertThat(KernelFile.read(tmp.resolve("absent").toString())).isNull();
  }

  @Test
  void aFileLargerThanTheBufferIsReadWhole() {
    String big = "x 1\n".repeat(5000) + "rss 42\n";
    KernelFile f = file(big);
    f.keyed(RSS_CACHE);

    assertThat(f.length).isEqualTo(big.length());
    assertThat(f.get(0)).isEqualTo(42);
  }

  @Test
  void singleValues() {
    assertThat(file("max\n").single()).isEqualTo(Long.MAX_VALUE);
    assertThat(file(" 42 \n").single()).isEqualTo(42L);
    assertThat(file("9223372036854771712\n").single()).isEqualTo(9_223_372_036_854_771_712L);
    assertThat(file("-1\n").single()).isEqualTo(-1L);
    assertThat(file("9223372036854775808\n").single()).isNull();
    assertThat(file("maximum\n").single()).isNull();
    assertThat(file("1 2\n").single()).isNull();
  }

  @Test
  void longsAsLongParseLongReadsThem() {
    for (String s :
        List.of("0", "7", "007", "+5", "-5", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "", "-", "+", "1a", " 1", "1 ", "12345678901234567890", "٣")) {
      byte[] b = ("<" + s + ">").getBytes(StandardCharsets.ISO_8859_1);
      assertThat(outcome(() -> KernelFile.parseLong(b, 1, b.length - 1)))
          .as(s)
          .isEqualTo(outcome(() -> Long.parseLong(new String(b, 1, b.length - 2, StandardCharsets.ISO_8859_1))));
    }
  }

  @Test
  void intsAsIntegerParseIntReadsThem() {
    for (String s : List.of("0", "254", "+8", "-1", "2147483647", "2147483648", "999999999", "", "8:0", "x")) {
      byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
      assertThat(outcome(() -> (long) KernelFile.parseInt(b, 0, b.length)))
          .as(s)
          .isEqualTo(outcome(() -> (long) Integer.parseInt(s)));
    }
  }

  /** The pressure averages' {@code %lu.%02lu} and any other form, bit for bit as {@code Double.parseDouble}. */
  @Test
  void doublesAsDoubleParseDoubleReadsThem() {
    Random random = new Random(24);
    for (int i = 0; i < 20_000; i++) {
      long whole = i % 3 == 0 ? random.nextInt(101) : Math.abs(random.nextLong() % 1_000_000_000_000L);
      int decimals = 1 + random.nextInt(4);
      String s = whole + "." + String.format("%0" + decimals + "d", random.nextInt((int) Math.pow(10, decimals)));
      assertParsedAsDouble(s);
    }
    for (String s : List.of("0.00", "100.00", "83.24", "1.", ".5", "1e3", "-0.50", "1.5d", "NaN", "1234567890.123456",
        "12345678901234.5", "0.000000000000001")) {
      assertParsedAsDouble(s);
    }
  }

  private static void assertParsedAsDouble(String s) {
    byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
    assertThat(Double.doubleToRawLongBits(KernelFile.parseDouble(b, 0, b.length)))
        .as(s)
        .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(s)));
  }

  @Test
  void pressureFromBytes() {
    byte[] b = "some avg10=1.50 avg60=0.75 avg300=0.10 total=1234567\nfull avg10=0.50 avg60=0.25 avg300=0.05 total=234567\n"
        .getBytes(StandardCharsets.ISO_8859_1);

    assertThat(Pressure.parse(b, b.length))
        .isEqualTo(new Pressure(new PressureLine(1.5, 0.75, 0.1, 1234567), new PressureLine(0.5, 0.25, 0.05, 234567)));
  }

  @Test
  void pressureWithAWrongKeyOrNoSomeLineIsRejected() {
    assertThatThrownBy(() -> Pressure.parse("some avg10=1.00 avg61=0.00 avg300=0.00 total=1\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected avg60=, got avg61=0.00");
    assertThatThrownBy(() -> Pressure.parse("full avg10=0.00 avg60=0.00 avg300=0.00 total=1\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no 'some' line in pressure file: full avg10=0.00 avg60=0.00 avg300=0.00 total=1");
    assertThat(Pressure.parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=1 extra\nsome avg10=0.00 avg60=0.00"
        + " avg300=0.00 total=2\n").some().totalMicros()).as("a line of six fields is skipped").isEqualTo(2);
  }

  @Test
  void netDevSkipsHeadersAndShortLinesAndStripsNames() {
    String text =
        "Inter-|   Receive                                                |  Transmit\n"
            + " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls"
            + " carrier compressed\n"
            + "    lo:     100       2    0    0    0     0          0         0      100       2    0    0    0     0"
            + "       0          0\n"
            + "  eth0:    1166      13    1    2    0     0          0         0      542       7    3    4    0     0"
            + "       0          0\n"
            + "  torn:    1166      13\n";

    assertThat(NetDevInterface.parse(text))
        .containsExactly(
            new NetDevInterface("lo", 100, 2, 0, 0, 100, 2, 0, 0),
            new NetDevInterface("eth0", 1166, 13, 1, 2, 542, 7, 3, 4));
  }

  private static Object outcome(ThrowingLong f) {
    try {
      return f.get();
    } catch (NumberFormatException e) {
      return "NumberFormatException: " + e.getMessage();
    }
  }

  @FunctionalInterface
  private interface ThrowingLong {
    @Nullable Long get();
  }
}
