package io.winstats.exporter.logging;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;

/**
 * An SLF4J logger over {@code java.util.logging} that keeps the fields of the daemon's messages: a message is written
 * as {@code event=name key={} key="{} text"}, and each {@code key=} takes the text up to the next space, or between
 * double quotes, with the arguments in place of {@code {}}. The value is quoted when the line is written, so a value
 * with spaces or quotes cannot break it. Words that are not {@code key=value} are kept as the record's text.
 */
final class EventLogger extends LegacyAbstractLogger {
  private static final long serialVersionUID = 1L;

  private final transient Logger jul;

  EventLogger(String name) {
    this.name = name;
    this.jul = Logger.getLogger(name);
  }

  @Override
  public boolean isTraceEnabled() {
    return jul.isLoggable(java.util.logging.Level.FINEST);
  }

  @Override
  public boolean isDebugEnabled() {
    return jul.isLoggable(java.util.logging.Level.FINE);
  }

  @Override
  public boolean isInfoEnabled() {
    return jul.isLoggable(java.util.logging.Level.INFO);
  }

  @Override
  public boolean isWarnEnabled() {
    return jul.isLoggable(java.util.logging.Level.WARNING);
  }

  @Override
  public boolean isErrorEnabled() {
    return jul.isLoggable(java.util.logging.Level.SEVERE);
  }

  @Override
  protected @Nullable String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  protected void handleNormalizedLoggingCall(
      Level level,
      @Nullable Marker marker,
      @Nullable String pattern,
      Object @Nullable [] arguments,
      @Nullable Throwable throwable) {
    List<EventRecord.Field> fields = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    String message = pattern == null ? "" : pattern;
    parse(message, arguments == null ? new Object[0] : arguments, fields, text);
    EventRecord record = new EventRecord(julLevel(level), fields, text.toString(), message);
    record.setLoggerName(name);
    record.setThrown(throwable);
    jul.log(record);
  }

  /** Splits {@code pattern} into fields and free words, filling {@code {}} with {@code arguments} in order. */
  static void parse(String pattern, Object[] arguments, List<EventRecord.Field> fields, StringBuilder text) {
    int[] next = {0};
    int i = 0;
    int n = pattern.length();
    while (i < n) {
      if (pattern.charAt(i) == ' ') {
        i++;
        continue;
      }
      int keyEnd = i;
      while (keyEnd < n && isKeyChar(pattern.charAt(keyEnd))) {
        keyEnd++;
      }
      if (keyEnd > i && keyEnd < n && pattern.charAt(keyEnd) == '=') {
        int start = keyEnd + 1;
        int end;
        String raw;
        if (start < n && pattern.charAt(start) == '"') {
          int close = pattern.indexOf('"', start + 1);
          end = close < 0 ? n : close + 1;
          raw = pattern.substring(start + 1, close < 0 ? n : close);
        } else {
          end = pattern.indexOf(' ', start);
          end = end < 0 ? n : end;
          raw = pattern.substring(start, end);
        }
        Object typed = raw.equals("{}") && next[0] < arguments.length ? typed(arguments[next[0]]) : null;
        fields.add(new EventRecord.Field(pattern.substring(i, keyEnd), fill(raw, arguments, next), typed));
        i = end;
      } else {
        int end = pattern.indexOf(' ', i);
        end = end < 0 ? n : end;
        String word = pattern.substring(i, end);
        if (word.equals("{}") && next[0] < arguments.length && arguments[next[0]] instanceof Map<?, ?> map) {
          // A map written bare is its entries as fields, each value typed as a {} argument is.
          next[0]++;
          map.forEach((k, v) -> fields.add(new EventRecord.Field(String.valueOf(k), render(v), typed(v))));
        } else if (word.equals("{}") && next[0] < arguments.length) {
          // An argument written bare is fields of its own ("scheme=https client_auth=..."), read the same way.
          parse(render(arguments[next[0]++]), new Object[0], fields, text);
        } else {
          if (text.length() > 0) {
            text.append(' ');
          }
          text.append(fill(word, arguments, next));
        }
        i = end;
      }
    }
  }

  private static boolean isKeyChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  }

  private static String fill(String raw, Object[] arguments, int[] next) {
    int at = raw.indexOf("{}");
    if (at < 0) {
      return raw;
    }
    StringBuilder out = new StringBuilder();
    int from = 0;
    while (at >= 0) {
      out.append(raw, from, at);
      out.append(next[0] < arguments.length ? render(arguments[next[0]++]) : "{}");
      from = at + 2;
      at = raw.indexOf("{}", from);
    }
    return out.append(raw, from, raw.length()).toString();
  }

  /** A number or boolean argument, which JSON writes as itself; null for anything else (and NaN or infinities). */
  private static @Nullable Object typed(@Nullable Object argument) {
    if (argument instanceof Boolean) {
      return argument;
    }
    if (argument instanceof Double d) {
      return Double.isFinite(d) ? d : null;
    }
    if (argument instanceof Float f) {
      return Float.isFinite(f) ? f : null;
    }
    return argument instanceof Number n ? n : null;
  }

  /** An argument's text: durations as Go prints them, everything else by its {@code toString}. */
  static String render(@Nullable Object argument) {
    if (argument instanceof Duration d) {
      return Logfmt.duration(d);
    }
    return String.valueOf(argument);
  }

  private static java.util.logging.Level julLevel(Level level) {
    return switch (level) {
      case ERROR -> java.util.logging.Level.SEVERE;
      case WARN -> java.util.logging.Level.WARNING;
      case INFO -> java.util.logging.Level.INFO;
      case DEBUG -> java.util.logging.Level.FINE;
      case TRACE -> java.util.logging.Level.FINEST;
    };
  }
}
