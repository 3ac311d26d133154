package io.winstats.exporter;

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

/**
 * The daemon's log: logfmt-style lines on stderr, as Prometheus exporters write them
 * ({@code ts=2026-11-23T18:58:13.338Z level=INFO logger=Daemon event=...}), through {@code java.util.logging}. The
 * JDK's own logging replaced logback: the same lines for about 500 fewer classes loaded for the daemon's life, and
 * gRPC logs to it natively. SLF4J calls reach it through {@code slf4j-jdk14}.
 */
final class LogLines {
  /** Libraries whose INFO lines are start-up chatter: only their warnings are kept. */
  private static final List<String> QUIET = List.of("io.grpc", "io.undertow", "org.xnio", "org.jboss");

  /** JUL holds loggers weakly: a level set on a collected logger would be lost, so these stay referenced. */
  private static final List<Logger> QUIETED = QUIET.stream().map(Logger::getLogger).toList();

  private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);

  private LogLines() {}

  /** Sends every record to stderr as one line, at INFO until {@link #setLevel} says otherwise. */
  static void install() {
    LogManager.getLogManager().reset();
    Logger root = Logger.getLogger("");
    // ConsoleHandler writes to stderr and flushes each record: a line must be out before the daemon exits on a fatal
    // error. Its own level filters nothing; the loggers' levels do.
    ConsoleHandler stderr = new ConsoleHandler();
    stderr.setLevel(Level.ALL);
    stderr.setFormatter(LINE);
    root.addHandler(stderr);
    root.setLevel(Level.INFO);
    QUIETED.forEach(l -> l.setLevel(Level.WARNING));
  }

  /** {@code debug}, {@code info}, {@code warn} or {@code error}, as {@code --log.level} takes them. */
  static void setLevel(String level) {
    Logger.getLogger("")
        .setLevel(
            switch (level.toLowerCase(Locale.ROOT)) {
              case "debug" -> Level.FINE;
              case "warn" -> Level.WARNING;
              case "error" -> Level.SEVERE;
              default -> Level.INFO;
            });
  }

  /** SLF4J's names for JUL's levels, as slf4j-jdk14 maps them (error SEVERE, warn WARNING, debug FINE, trace FINEST). */
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

  /** One record as one line; the exception's stack, if any, on the lines after it. */
  static String format(LogRecord r) {
    String name = r.getLoggerName() == null ? "" : r.getLoggerName();
    StringBuilder line =
        new StringBuilder(128)
            .append("ts=").append(TS.format(Instant.ofEpochMilli(r.getMillis())))
            .append(" level=").append(levelName(r.getLevel()))
            .append(" logger=").append(name.substring(name.lastIndexOf('.') + 1))
            .append(' ').append(LINE.formatMessage(r))
            .append('\n');
    if (r.getThrown() != null) {
      java.io.StringWriter stack = new java.io.StringWriter();
      r.getThrown().printStackTrace(new java.io.PrintWriter(stack));
      line.append(stack);
    }
    return line.toString();
  }

  /** One line per record; also JUL's {0} parameters, which gRPC uses, through {@code formatMessage}. */
  private static final Formatter LINE =
      new Formatter() {
        @Override
        public String format(LogRecord record) {
          return LogLines.format(record);
        }
      };
}
