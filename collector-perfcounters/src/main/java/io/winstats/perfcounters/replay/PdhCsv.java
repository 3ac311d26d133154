package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.NodeSourceException.Reason;
import io.winstats.perfcounters.counters.CounterPath;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The package's one parse utility: PDH-CSV 4.0 text in and out.
 *
 * <p>Reading: the bytes are decoded by their byte-order mark (UTF-8, UTF-16LE, UTF-16BE), else as strict UTF-8, else
 * as ISO-8859-1. The last keeps every ASCII counter path intact in files written in a legacy ANSI code page, such as
 * the CP932 description column of Japanese data collector sets; their non-ASCII text is then not readable, and no
 * counter we map has any. Records are split by RFC 4180 (quoted fields, doubled quotes, CRLF or LF, line breaks inside
 * quotes).
 */
final class PdhCsv {
  static final String SIGNATURE = "(PDH-CSV 4.0)";

  /** The banner with a time zone and bias: {@code (PDH-CSV 4.0) (Pacific Daylight Time)(420)}. */
  private static final Pattern BANNER = Pattern.compile("^\\(PDH-CSV 4\\.0\\) \\((.*)\\)\\((-?\\d+)\\)\\s*$");

  /** {@code 10/09/2022 18:35:29.039}: typeperf and relog write US month/day order whatever the locale. */
  static final DateTimeFormatter TIMESTAMP =
      new DateTimeFormatterBuilder()
          .appendPattern("MM/dd/uuuu HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .toFormatter();

  /** The largest UTC offset java.time (and any time zone) has: 18 hours. */
  private static final int MAX_BIAS_MINUTES = 18 * 60;

  private static final DateTimeFormatter WRITTEN_TIMESTAMP = DateTimeFormatter.ofPattern("MM/dd/uuuu HH:mm:ss.SSS");

  private PdhCsv() {}

  /**
   * Decodes and parses a counter log.
   *
   * @throws NodeSourceException MALFORMED when the first cell is not a PDH-CSV 4.0 banner
   */
  static CounterLog parse(byte[] bytes) {
    Charset[] charset = new Charset[1];
    String text = decode(bytes, charset);
    return parse(text, charset[0]);
  }

  /**
   * Parses the text of a counter log.
   *
   * @throws NodeSourceException MALFORMED when the first cell is not a PDH-CSV 4.0 banner
   */
  static CounterLog parse(String text, Charset charset) {
    List<List<String>> records = records(text);
    if (records.isEmpty() || !records.get(0).get(0).startsWith(SIGNATURE)) {
      throw new NodeSourceException(Reason.MALFORMED, "not a PDH-CSV 4.0 log: the first cell is not " + SIGNATURE);
    }
    List<String> header = records.get(0);
    String banner = header.get(0);
    Matcher m = BANNER.matcher(banner);
    Integer bias = m.matches() ? bias(m.group(2)) : null;
    List<@Nullable CounterPath> columns = new ArrayList<>();
    for (String cell : header.subList(1, header.size())) {
      columns.add(CounterPath.parseQualified(cell).orElse(null));
    }
    List<CounterLog.Row> rows = new ArrayList<>();
    int dropped = 0;
    for (List<String> record : records.subList(1, records.size())) {
      if (record.size() != header.size()) {
        dropped++;
        continue;
      }
      LocalDateTime time;
      try {
        time = LocalDateTime.parse(record.get(0).strip(), TIMESTAMP);
      } catch (DateTimeParseException e) {
        dropped++;
        continue;
      }
      double[] values = new double[columns.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = number(record.get(i + 1));
      }
      rows.add(new CounterLog.Row(time, values));
    }
    return new CounterLog(banner, bias, charset, columns, rows, dropped);
  }

  /**
   * The banner's bias in minutes (UTC = local + bias). Windows' biases lie within a day; a UTC offset within 18 hours,
   * so anything beyond is a damaged banner, not a time zone (found by fuzzing the banner, issue 44: an unchecked
   * NumberFormatException or DateTimeException before).
   */
  private static Integer bias(String digits) {
    try {
      int minutes = Integer.parseInt(digits);
      if (Math.abs(minutes) <= MAX_BIAS_MINUTES) {
        return minutes;
      }
    } catch (NumberFormatException e) {
      // too many digits for an int: as out of range
    }
    throw new NodeSourceException(
        Reason.MALFORMED,
        "the banner's bias (" + digits + ") is not a UTC offset in minutes (at most " + MAX_BIAS_MINUTES + ")");
  }

  /** A cell's value; NaN for a blank cell ({@code ""}, {@code " "}) or one that is not a finite number. */
  static double number(String cell) {
    String s = cell.strip();
    if (s.isEmpty()) {
      return Double.NaN;
    }
    try {
      double v = Double.parseDouble(s);
      return Double.isFinite(v) ? v : Double.NaN;
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  /** Splits RFC 4180 text into records of fields; blank lines are skipped. */
  static List<List<String>> records(String text) {
    List<List<String>> records = new ArrayList<>();
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean fieldStarted = false;
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < n && text.charAt(i + 1) == '"') {
            field.append('"');
            i += 2;
            continue;
          }
          quoted = false;
        } else {
          field.append(c);
        }
        i++;
      } else if (c == '"') {
        quoted = true;
        fieldStarted = true;
        i++;
      } else if (c == ',') {
        fields.add(field.toString());
        field.setLength(0);
        fieldStarted = true;
        i++;
      } else if (c == '\r' || c == '\n') {
        if (fieldStarted || field.length() > 0 || !fields.isEmpty()) {
          fields.add(field.toString());
          records.add(fields);
        }
        fields = new ArrayList<>();
        field.setLength(0);
        fieldStarted = false;
        i += (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') ? 2 : 1;
      } else {
        field.append(c);
        fieldStarted = true;
        i++;
      }
    }
    if (fieldStarted || field.length() > 0 || !fields.isEmpty()) {
      fields.add(field.toString());
      records.add(fields);
    }
    return records;
  }

  private static String decode(byte[] bytes, Charset[] used) {
    if (bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
      used[0] = StandardCharsets.UTF_8;
      return new String(bytes, 3, bytes.length - 3, StandardCharsets.UTF_8);
    }
    if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE) {
      used[0] = StandardCharsets.UTF_16LE;
      return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE);
    }
    if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF) {
      used[0] = StandardCharsets.UTF_16BE;
      return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16BE);
    }
    try {
      String text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
      used[0] = StandardCharsets.UTF_8;
      return text;
    } catch (CharacterCodingException e) {
      used[0] = StandardCharsets.ISO_8859_1;
      return new String(bytes, StandardCharsets.ISO_8859_1);
    }
  }

  /** A field quoted as typeperf quotes every field, with inner quotes doubled. */
  static String quote(String field) {
    return '"' + field.replace("\"", "\"\"") + '"';
  }

  static String timestamp(LocalDateTime time) {
    return WRITTEN_TIMESTAMP.format(time);
  }

  /** A value in plain decimal notation with the fewest digits that read back as the same double. */
  static String decimal(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
