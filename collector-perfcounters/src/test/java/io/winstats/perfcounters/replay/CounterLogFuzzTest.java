package io.winstats.perfcounters.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.NodeSourceException;
import io.winstats.testing.Fuzz;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counter logs a user hands the daemon (typeperf/relog PDH-CSV, issue 44): whatever the bytes, opening and replaying
 * the log gives samples or a {@link NodeSourceException}, never another exception; and the CSV layer reads back what it
 * writes. Inputs: any bytes, log-shaped text, and the first rows of the real logs in {@code perfmon/} bent a few times.
 */
class CounterLogFuzzTest {
  private static final List<String> PATHS =
      List.of(
          "\\\\H\\Processor Information(_Total)\\% Processor Time",
          "\\\\H\\Processor Information(0,0)\\% Privileged Time",
          "\\\\H\\Processor(_Total)\\% Idle Time", "\\\\H\\Memory\\Available Bytes", "\\\\H\\Memory\\Committed Bytes",
          "\\\\H\\Memory\\Commit Limit", "\\\\H\\Network Interface(eth0)\\Bytes Received/sec",
          "\\\\H\\LogicalDisk(C:)\\Free Megabytes", "\\\\H\\LogicalDisk(C:)\\% Free Space",
          "\\\\H\\System\\System Up Time", "\\\\H\\System\\Processes", "not a path", "\\\\\\(", "");
  private static final List<String> CSV_TOKENS =
      List.of("\"", ",", "\"\"", "\r\n", "\n", "\r", "\\", "(", ")", " ", "(PDH-CSV 4.0)", "/", ":", ".");

  @TempDir Path dir;

  @Test
  void anyBytesGiveSamplesOrANodeSourceException() {
    Fuzz.forAll("counter log: any bytes", r -> Fuzz.bytes(r, 4000), this::replay);
  }

  @Test
  void logShapedTextGivesSamplesOrANodeSourceException() {
    Fuzz.forAll("counter log: log-shaped text", CounterLogFuzzTest::logShaped,
        text -> replay(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void realLogsBentGiveSamplesOrANodeSourceException() throws IOException {
    List<String> logs = new ArrayList<>();
    try (var files = Files.list(Path.of("src/test/resources/perfmon"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".csv")).sorted().toList()) {
        // bytes as ISO-8859-1 chars: the logs are in the recorder's code page, which a mutation must not re-encode
        String text = Files.readString(file, StandardCharsets.ISO_8859_1);
        logs.add(text.lines().limit(12).collect(Collectors.joining("\r\n", "", "\r\n")));
      }
    }
    assertThat(logs).hasSizeGreaterThanOrEqualTo(3);
    Fuzz.forAll("counter log: real logs bent", r -> Fuzz.mutate(r, Fuzz.oneOf(r, logs), CSV_TOKENS),
        text -> replay(text.getBytes(StandardCharsets.ISO_8859_1)));
  }

  /** A crash the fuzzing found, kept: rows 292+ years apart overflowed a long of nanoseconds (ArithmeticException). */
  @Test
  void rowsMoreThan292YearsApartAreMalformed() throws IOException {
    String log = "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\H\\Memory\\Available Bytes\"\r\n"
        + "\"12/29/0679 20:33:16.996\",\"1\"\r\n\"01/02/2024 00:00:00.000\",\"2\"\r\n";
    Path file = dir.resolve("centuries.csv");
    Files.writeString(file, log, StandardCharsets.UTF_8);
    assertThatThrownBy(
            () -> ReplayNodeSource.open(file, 1, null, ReplayNodeSource.Timeline.RECORDED, Clock.systemUTC()))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.MALFORMED))
        .hasMessageContaining("more than 292 years from the first");
  }

  /** RFC 4180 as written (every field quoted, as typeperf does) reads back field for field. */
  @Test
  void quotedRecordsReadBack() {
    Fuzz.forAll("counter log: RFC 4180 round trip", CounterLogFuzzTest::records, records -> {
      StringBuilder text = new StringBuilder();
      for (List<String> record : records) {
        text.append(record.stream().map(PdhCsv::quote).collect(Collectors.joining(","))).append("\r\n");
      }
      assertThat(PdhCsv.records(text.toString())).isEqualTo(records);
    });
  }

  /** A number as the recorder writes it reads back as the same double. */
  @Test
  void decimalsReadBack() {
    Fuzz.forAll("counter log: decimal round trip",
        r -> switch (r.nextInt(3)) {
          case 0 -> Double.longBitsToDouble(r.nextLong());
          case 1 -> (double) r.nextLong();
          default -> r.nextDouble() * Math.pow(10, r.nextInt(-12, 19));
        },
        value -> {
          if (Double.isFinite(value)) {
            assertThat(PdhCsv.number(PdhCsv.decimal(value))).isEqualTo(value);
          }
        });
  }

  private void replay(byte[] bytes) throws IOException {
    Path file = Files.createTempFile(dir, "fuzz-", ".csv");
    Files.write(file, bytes);
    ReplayNodeSource source;
    try {
      source = ReplayNodeSource.open(file, Double.POSITIVE_INFINITY, null, ReplayNodeSource.Timeline.RECORDED,
          Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    } catch (NodeSourceException e) {
      assertThat(e.reason()).isNotNull();
      return;
    } finally {
      Files.delete(file);
    }
    // a sample per row until the log ends; a row no part can be built from is the source's own NOT_FOUND
    for (int i = 0; ; i++) {
      try {
        source.sample();
      } catch (NodeSourceException e) {
        assertThat(e.reason()).isNotNull();
        return;
      }
      assertThat(i).as("samples of a log of %d bytes", bytes.length).isLessThanOrEqualTo(bytes.length);
    }
  }

  private static List<List<String>> records(SplittableRandom r) {
    List<List<String>> records = new ArrayList<>();
    for (int i = r.nextInt(6); i > 0; i--) {
      List<String> record = new ArrayList<>();
      for (int j = 1 + r.nextInt(5); j > 0; j--) {
        StringBuilder field = new StringBuilder();
        for (int k = r.nextInt(9); k > 0; k--) {
          String alphabet = "ab,\"\r\n \\";
          field.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        record.add(field.toString());
      }
      records.add(record);
    }
    return records;
  }

  private static String logShaped(SplittableRandom r) {
    String bias = switch (r.nextInt(3)) {
      case 0 -> Integer.toString(r.nextInt(-900, 901));
      case 1 -> Fuzz.oneOf(r, Fuzz.EDGE_NUMBERS);
      default -> Fuzz.text(r, 6);
    };
    String zone = Fuzz.oneOf(r, List.of("Coordinated Universal Time", "Pacific Daylight Time", "", "(", ")"));
    String eol = Fuzz.oneOf(r, List.of("\r\n", "\n", "\r"));
    List<String> header = new ArrayList<>(List.of(
        Fuzz.oneOf(r, List.of("(PDH-CSV 4.0)", "(PDH-CSV 4.0) ", "(PDH-CSV 3.0)")) + " (" + zone + ")(" + bias + ")"));
    for (int i = r.nextInt(9); i > 0; i--) {
      header.add(Fuzz.oneOf(r, PATHS));
    }
    StringBuilder s = new StringBuilder();
    s.append(header.stream().map(PdhCsv::quote).collect(Collectors.joining(","))).append(eol);
    for (int row = r.nextInt(13); row > 0; row--) {
      List<String> cells = new ArrayList<>();
      int second = r.nextInt(86_401);
      cells.add(r.nextInt(5) == 0
          ? Fuzz.text(r, 24)
          : String.format(Locale.ROOT, "%02d/%02d/%04d %02d:%02d:%02d.%03d", r.nextInt(14), r.nextInt(33),
              r.nextInt(10_001), second / 3600, second / 60 % 60, second % 60, second % 1000));
      for (int c = r.nextInt(10); c > 0; c--) {
        cells.add(switch (r.nextInt(4)) {
          case 0 -> Double.toString(Double.longBitsToDouble(r.nextLong()));
          case 1 -> Long.toString(r.nextLong());
          case 2 -> Fuzz.oneOf(r, Fuzz.EDGE_NUMBERS);
          default -> Fuzz.oneOf(r, List.of(" ", "", Fuzz.text(r, 10)));
        });
      }
      s.append(cells.stream().map(PdhCsv::quote).collect(Collectors.joining(","))).append(eol);
    }
    return s.toString();
  }
}
