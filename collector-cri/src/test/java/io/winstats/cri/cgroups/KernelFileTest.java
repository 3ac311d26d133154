package io.winstats.cri.cgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

  /** The keys of a {@code memory.stat}-like file, as the readers name theirs. */
  enum Key {
    RSS,
    CACHE,
    SWAP
  }

  enum Total {
    TOTAL_CACHE,
    TOTAL_RSS,
    TOTAL_SWAP
  }

  private static final KernelFile.Keys<Key> KEYS = KernelFile.Keys.of(Key.class);

  private Path write(String text) {
    Path p = tmp.resolve("f");
    CgroupTrees.write(p, text);
    return p;
  }

  /** What {@code parser} makes of a file holding {@code text}. */
  private <T> T parse(String text, KernelFile.Parser<T> parser) {
    T parsed = KernelFile.read(write(text).toString(), parser);
    assertThat(parsed).isNotNull();
    return parsed;
  }

  /** The file's {@link Key} values, -1 for a key not found. */
  private List<Long> keyed(String text) {
    return parse(
        text,
        f -> {
          f.keyed(KEYS);
          return List.of(Key.values()).stream().map(k -> f.has(k) ? f.get(k) : -1L).toList();
        });
  }

  @Test
  void aKeyIsTheWholeFirstWordNotAPrefixOrItsTotalForm() {
    List<Long> v = keyed("total_rss 1\nrss_huge 2\ncache 3\ntotal_cache 4\nrss 5\n");

    assertThat(v.get(Key.RSS.ordinal())).as("rss, not total_rss or rss_huge").isEqualTo(5);
    assertThat(v.get(Key.CACHE.ordinal())).as("cache, not total_cache after it").isEqualTo(3);
  }

  @Test
  void theHierarchicalKeysAreTheirOwnKeys() {
    List<Long> v =
        parse(
            "cache 11\nrss 12\nswap 14\ntotal_cache 1048576\ntotal_rss 2097152\ntotal_swap 8192\n",
            f -> {
              f.keyed(KernelFile.Keys.of(Total.class));
              return List.of(f.get(Total.TOTAL_CACHE), f.get(Total.TOTAL_RSS), f.get(Total.TOTAL_SWAP));
            });

    assertThat(v).containsExactly(1048576L, 2097152L, 8192L);
  }

  @Test
  void aMissingKeyIsNotFoundAndReadsAsZeroOrNull() {
    parse(
        "rss 5\ncache 0\n",
        f -> {
          f.keyed(KEYS);
          assertThat(f.has(Key.CACHE)).as("cache 0 is there").isTrue();
          assertThat(f.find(Key.CACHE)).isEqualTo(0L);
          assertThat(f.has(Key.SWAP)).as("no swap line").isFalse();
          assertThat(f.get(Key.SWAP)).isZero();
          assertThat(f.find(Key.SWAP)).isNull();
          return true;
        });
  }

  @Test
  void aKeyFoundInTheLastFileIsNotFoundInTheNext() {
    assertThat(keyed("swap 7\n").get(Key.SWAP.ordinal())).isEqualTo(7);
    assertThat(keyed("rss 1\n").get(Key.SWAP.ordinal())).isEqualTo(-1);
  }

  @Test
  void aValueThatIsNotANumberIsSkippedAndTheRestCount() {
    List<Long> v = keyed("rss twelve\ncache 3 4\nswap 18446744073709551616\nrss 9\n");

    assertThat(v.get(Key.RSS.ordinal())).as("the later rss line").isEqualTo(9);
    assertThat(v.get(Key.CACHE.ordinal())).as("two numbers are no number").isEqualTo(-1);
    assertThat(v.get(Key.SWAP.ordinal())).as("past Long.MAX_VALUE").isEqualTo(-1);
  }

  @Test
  void linesAreStrippedAndTheLastNeedsNoNewline() {
    List<Long> v = keyed(" rss 1\ncache  3 \r\nswap\t4\nswap 5");

    assertThat(v.get(Key.RSS.ordinal())).as("a line starting with a space has no key").isEqualTo(-1);
    assertThat(v.get(Key.CACHE.ordinal())).isEqualTo(3);
    assertThat(v.get(Key.SWAP.ordinal())).as("a tab is no key separator; the unterminated last line counts")
        .isEqualTo(5);
  }

  @Test
  void anEmptyOrAbsentFile() {
    assertThat(keyed("")).containsOnly(-1L);
    assertThat(KernelFile.readSingle(write("").toString())).isNull();
    Boolean absent = KernelFile.read(tmp.resolve("absent").toString(), f -> true);
    assertThat(absent).isNull();
  }

  @Test
  void aFileLargerThanTheBufferIsReadWhole() {
    String big = "x 1\n".repeat(5000) + "rss 42\n";
    int length = parse(big, f -> f.length);
    assertThat(length).isEqualTo(big.length());
    assertThat(keyed(big).get(Key.RSS.ordinal())).isEqualTo(42);
  }

  /** Around the size below which one read is taken for the whole file, every byte is read. */
  @Test
  void filesAroundTheShortReadBoundAreReadWhole() {
    for (int size : List.of(1, KernelFile.WHOLE_BELOW - 1, KernelFile.WHOLE_BELOW, KernelFile.WHOLE_BELOW + 1, 8192)) {
      String text = "y".repeat(size - 1) + "\n";
      assertThat(parse(text, KernelFile::text)).as("%d bytes", size).isEqualTo(text);
    }
  }

  /**
   * A kernel file whose reads stop short of the buffer before its end is still read to the end: {@code /proc/crypto}
   * (~11 KB of records on this VM) returns about a page per read, more than {@link KernelFile#WHOLE_BELOW}; taking any
   * short read for the end would keep only its first page.
   */
  @Test
  void aKernelFileReadAPageAtATimeIsReadToItsEnd() throws IOException {
    Path crypto = Path.of("/proc/crypto");
    byte[] whole = Files.readAllBytes(crypto);

    String read = KernelFile.read(crypto.toString(), KernelFile::text);

    assertThat(whole.length).as("a file of more than a page").isGreaterThan(4096);
    assertThat(read).isEqualTo(new String(whole, StandardCharsets.ISO_8859_1));
  }

  @Test
  void aFileReadWhileAnotherIsParsedIsRefusedNamingBoth() {
    Path other = tmp.resolve("other");
    CgroupTrees.write(other, "1\n");

    assertThatThrownBy(() -> parse("rss 1\n", f -> KernelFile.readSingle(other.toString())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(other.toString())
        .hasMessageContaining(tmp.resolve("f").toString());
  }

  @Test
  void keyedValuesAreHadOnlyWithinTheParserAndByTheirOwnKeys() {
    KernelFile[] leaked = new KernelFile[1];
    parse(
        "rss 1\n",
        f -> {
          f.keyed(KEYS);
          leaked[0] = f;
          assertThatThrownBy(() -> f.get(Total.TOTAL_RSS))
              .as("a key of another file's enum")
              .isInstanceOf(IllegalStateException.class);
          return true;
        });

    assertThatThrownBy(() -> leaked[0].get(Key.RSS)).isInstanceOf(IllegalStateException.class);
  }

  /** A binding table's keys: had by index, only with the very keys the file was parsed for. */
  @Test
  void namedKeysAreHadByIndexAndOnlyWithTheKeysParsedFor() {
    KernelFile.Keys<Integer> keys = KernelFile.Keys.named(List.of("total_rss", "rss", "swap"));
    KernelFile.Keys<Integer> same = KernelFile.Keys.named(List.of("total_rss", "rss", "swap"));
    List<Object> seen =
        parse(
            "rss 5\ntotal_rss 9\ncache 3\n",
            f -> {
              f.keyed(keys);
              assertThatThrownBy(() -> f.has(same, 0))
                  .as("equal names, other keys")
                  .isInstanceOf(IllegalStateException.class);
              return List.of(f.has(keys, 0), f.value(0), f.has(keys, 1), f.value(1), f.has(keys, 2));
            });

    assertThat(seen).containsExactly(true, 9L, true, 5L, false);
  }

  private @Nullable Long single(String text) {
    return KernelFile.readSingle(write(text).toString());
  }

  @Test
  void singleValues() {
    assertThat(single("max\n")).isEqualTo(Long.MAX_VALUE);
    assertThat(single(" 42 \n")).isEqualTo(42L);
    assertThat(single("9223372036854771712\n")).isEqualTo(9_223_372_036_854_771_712L);
    assertThat(single("-1\n")).isEqualTo(-1L);
    assertThat(single("9223372036854775808\n")).isNull();
    assertThat(single("maximum\n")).isNull();
    assertThat(single("1 2\n")).isNull();
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
            NetDevInterface.builder("lo").rxBytes(100).rxPackets(2).txBytes(100).txPackets(2).build(),
            NetDevInterface.builder("eth0")
                .rxBytes(1166)
                .rxPackets(13)
                .rxErrors(1)
                .rxDropped(2)
                .txBytes(542)
                .txPackets(7)
                .txErrors(3)
                .txDropped(4)
                .build());
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
