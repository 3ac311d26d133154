package io.winstats.exporter.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A strict logfmt reader for the daemon's log lines, written from go-logfmt's decoder (the reference Go exporters
 * write with through go-kit/log): a line is {@code key=value} pairs separated by spaces; a key is any run of
 * characters above space other than {@code =} and {@code "}; a value is bare (no space, {@code =} or {@code "}) or
 * double-quoted with Go string escapes. Anything else is an error, where lenient parsers turn it into odd keys. A
 * Java library was tried first (com.computablefacts:logfmt 0.15): it splits quoted values at {@code =}, so it was not
 * used.
 */
public final class LogfmtLines {
  private LogfmtLines() {}

  /** The line's fields in order; fails on anything that is not logfmt or a line without ts, level and logger. */
  public static Map<String, String> parse(String line) {
    String text = line.endsWith("\n") ? line.substring(0, line.length() - 1) : line;
    Map<String, String> fields = new LinkedHashMap<>();
    int i = 0;
    int n = text.length();
    while (i < n) {
      if (text.charAt(i) == ' ') {
        i++;
        continue;
      }
      int keyStart = i;
      while (i < n && text.charAt(i) > ' ' && text.charAt(i) != '=' && text.charAt(i) != '"') {
        i++;
      }
      String key = text.substring(keyStart, i);
      assertThat(key).as("a key at %d of %s", keyStart, line).isNotEmpty();
      assertThat(i < n && text.charAt(i) == '=').as("'=' after key %s in %s", key, line).isTrue();
      i++;
      StringBuilder value = new StringBuilder();
      if (i < n && text.charAt(i) == '"') {
        i++;
        while (true) {
          assertThat(i < n).as("an unterminated quoted value of %s in %s", key, line).isTrue();
          char c = text.charAt(i++);
          if (c == '"') {
            break;
          }
          if (c == '\\') {
            assertThat(i < n).as("an escape at the end of %s", line).isTrue();
            char e = text.charAt(i++);
            switch (e) {
              case '\\', '"' -> value.append(e);
              case 'n' -> value.append('\n');
              case 'r' -> value.append('\r');
              case 't' -> value.append('\t');
              case 'u' -> {
                value.append((char) Integer.parseInt(text.substring(i, i + 4), 16));
                i += 4;
              }
              default -> throw new AssertionError("an unknown escape \\" + e + " in " + line);
            }
          } else {
            assertThat(c >= ' ').as("a control character in a quoted value of %s", line).isTrue();
            value.append(c);
          }
        }
        assertThat(i == n || text.charAt(i) == ' ').as("a space after the quoted value of %s in %s", key, line)
            .isTrue();
      } else {
        while (i < n && text.charAt(i) != ' ') {
          char c = text.charAt(i++);
          assertThat(c > ' ' && c != '=' && c != '"').as("a bare value of %s with '%s' in %s", key, c, line).isTrue();
          value.append(c);
        }
      }
      assertThat(fields.put(key, value.toString())).as("key %s twice in %s", key, line).isNull();
    }
    assertThat(fields).as("the fields of %s", line).containsKeys("ts", "level", "logger");
    return fields;
  }

  /** Every line of a daemon's log parses. */
  public static void assertEveryLineParses(String log) {
    assertThat(log.lines().filter(l -> !l.isBlank())).as("log lines").isNotEmpty().allSatisfy(LogfmtLines::parse);
  }
}
