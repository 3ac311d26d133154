package io.winstats.exporter.logging;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The daemon's log: one line per record on stderr, in logfmt as Prometheus exporters write it
 * ({@code ts=2026-11-23T18:58:13.338Z level=INFO logger=Daemon event=started listen=:9844}) or as one JSON object
 * ({@code --log.format=json}), through {@code java.util.logging}: the daemon's own events come from {@link
 * LogLinesProvider} with their fields apart; gRPC's and the other libraries' records carry their text as {@code msg}.
 * A record's exception is its {@code stack} field, so that every record stays one line.
 */
public final class LogLines {
  /** How lines are written. */
  public enum Format {
    LOGFMT,
    JSON;

    /** {@code logfmt} or {@code json}, as {@code --log.format} takes it. */
    public static Format parse(String text) {
      return switch (text.toLowerCase(Locale.ROOT)) {
        case "logfmt" -> LOGFMT;
        case "json" -> JSON;
        default -> throw new IllegalArgumentException("'" + text + "' is not logfmt or json");
      };
    }

    public String flagValue() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The {@code java.util.logging.manager} that keeps the daemon's handler through shutdown: JUL's own shutdown hook
   * ({@code LogManager.Cleaner}) resets the manager, removing every handler, and runs at the same time as the
   * daemon's hook, so its {@code event=stopping} line was lost in about half of the SIGTERMs. Set before anything
   * touches {@code java.util.logging} ({@link io.winstats.exporter.Main} does it first).
   */
  public static final String MANAGER = "io.winstats.exporter.logging.LogLines$Manager";

  /** A log manager whose handlers stay once {@link #install} ran: later resets (the shutdown hook's) do nothing. */
  public static final class Manager extends LogManager {
    private volatile boolean installed;

    public Manager() {
      super();
    }

    @Override
    public void reset() {
      if (!installed) {
        super.reset();
      }
    }

    void install() {
      installed = false;
      super.reset();
      installed = true;
    }
  }

  /** Libraries whose INFO lines are start-up chatter: only their warnings are kept. */
  private static final List<String> QUIET = List.of("io.grpc", "io.undertow", "org.xnio", "org.jboss");

  /** JUL holds loggers weakly: a level set on a collected logger would be lost, so these stay referenced. */
  private static final List<Logger> QUIETED = QUIET.stream().map(Logger::getLogger).toList();

  private static final DateTimeFormatter TS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);
  private static final JsonFactory JSON = new JsonFactory();

  private static @Nullable ConsoleHandler stderr;

  private LogLines() {}

  /** Sends every record to stderr as one logfmt line, at INFO until {@link #setLevel} says otherwise. */
  public static synchronized void install() {
    LogManager manager = LogManager.getLogManager();
    if (manager instanceof Manager own) {
      own.install();
    } else {
      manager.reset();
    }
    Logger root = Logger.getLogger("");
    // ConsoleHandler writes to stderr and flushes each record: a line must be out before the daemon exits on a fatal
    // error. Its own level filters nothing; the loggers' levels do.
    ConsoleHandler handler = new ConsoleHandler();
    handler.setLevel(Level.ALL);
    handler.setFormatter(formatter(Format.LOGFMT));
    root.addHandler(handler);
    root.setLevel(Level.INFO);
    QUIETED.forEach(l -> l.setLevel(Level.WARNING));
    stderr = handler;
  }

  /** Whether lines logged during shutdown reach stderr: the manager is {@link #MANAGER}. */
  public static boolean survivesShutdown() {
    return LogManager.getLogManager() instanceof Manager;
  }

  /** Writes the following records in {@code format}. */
  public static synchronized void setFormat(Format format) {
    if (stderr != null) {
      stderr.setFormatter(formatter(format));
    }
  }

  /** {@code debug}, {@code info}, {@code warn} or {@code error}, as {@code --log.level} takes them. */
  public static void setLevel(String level) {
    Logger.getLogger("")
        .setLevel(
            switch (level.toLowerCase(Locale.ROOT)) {
              case "debug" -> Level.FINE;
              case "warn" -> Level.WARNING;
              case "error" -> Level.SEVERE;
              default -> Level.INFO;
            });
  }

  /** SLF4J's names for JUL's levels (error SEVERE, warn WARNING, info INFO, debug FINE, trace FINEST). */
  static String levelName(Level level) {
    int v = level.intValue();
    if (v >= Level.SEVERE.intValue()) {
      return "ERROR";
    }
    if (v >= Level.WARNING.intValue()) {
      return "WARN";
    }
    if (v >= Level.INFO.intValue()) {
      return "INFO";
    }
    return v >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
  }

  static Formatter formatter(Format format) {
    return new Formatter() {
      @Override
      public String format(LogRecord record) {
        return format == Format.JSON ? json(record) : logfmt(record);
      }
    };
  }

  /** One record as one logfmt line. */
  static String logfmt(LogRecord r) {
    StringBuilder line = new StringBuilder(160)
        .append("ts=").append(TS.format(Instant.ofEpochMilli(r.getMillis())))
        .append(" level=").append(levelName(r.getLevel()))
        .append(" logger=").append(Logfmt.value(simpleName(r)));
    if (r instanceof EventRecord e) {
      for (EventRecord.Field f : e.fields()) {
        line.append(' ').append(f.key()).append('=').append(Logfmt.value(f.value()));
      }
      if (!e.text().isEmpty()) {
        line.append(" msg=").append(Logfmt.value(e.text()));
      }
    } else {
      line.append(" msg=").append(Logfmt.value(text(r)));
    }
    String stack = stack(r);
    if (stack != null) {
      line.append(" stack=").append(Logfmt.value(stack));
    }
    return line.append('\n').toString();
  }

  /** One record as one JSON object on a line: ts, level, logger, the event's fields, msg, stack. */
  static String json(LogRecord r) {
    StringWriter out = new StringWriter(200);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("ts", TS.format(Instant.ofEpochMilli(r.getMillis())));
      g.writeStringField("level", levelName(r.getLevel()));
      g.writeStringField("logger", simpleName(r));
      if (r instanceof EventRecord e) {
        for (EventRecord.Field f : e.fields()) {
          g.writeFieldName(f.key());
          writeValue(g, f);
        }
        if (!e.text().isEmpty()) {
          g.writeStringField("msg", e.text());
        }
      } else {
        g.writeStringField("msg", text(r));
      }
      String stack = stack(r);
      if (stack != null) {
        g.writeStringField("stack", stack);
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.append('\n').toString();
  }

  /** Numbers and booleans as themselves (as Go's JSON loggers write them), everything else as the text logfmt has. */
  private static void writeValue(JsonGenerator g, EventRecord.Field f) throws IOException {
    Object typed = f.typed();
    if (typed instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (typed instanceof Double || typed instanceof Float) {
      g.writeNumber(((Number) typed).doubleValue());
    } else if (typed instanceof java.math.BigDecimal d) {
      g.writeNumber(d);
    } else if (typed instanceof java.math.BigInteger i) {
      g.writeNumber(i);
    } else if (typed instanceof Number n) {
      g.writeNumber(n.longValue());
    } else {
      g.writeString(f.value());
    }
  }

  private static String simpleName(LogRecord r) {
    String name = r.getLoggerName() == null ? "" : r.getLoggerName();
    return name.substring(name.lastIndexOf('.') + 1);
  }

  /** A library's message with JUL's {0} parameters filled in, as gRPC writes them. */
  private static String text(LogRecord r) {
    return PLAIN.formatMessage(r);
  }

  private static @Nullable String stack(LogRecord r) {
    Throwable thrown = r.getThrown();
    if (thrown == null) {
      return null;
    }
    StringWriter stack = new StringWriter();
    thrown.printStackTrace(new PrintWriter(stack));
    return stack.toString().stripTrailing();
  }

  private static final Formatter PLAIN =
      new Formatter() {
        @Override
        public String format(LogRecord record) {
          return formatMessage(record);
        }
      };
}
