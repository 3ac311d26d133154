package io.winstats.perfcounters.pdh;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** An SLF4J logger that keeps every formatted line, for assertions on operator-facing log lines. Thread-safe. */
public final class CapturingLogger extends LegacyAbstractLogger {
  private static final long serialVersionUID = 1L;

  /** One logged line. */
  public record Line(Level level, String message) {}

  private final List<Line> lines = new ArrayList<>();

  public CapturingLogger() {
    this.name = "capture";
  }

  public synchronized List<Line> lines() {
    return List.copyOf(lines);
  }

  public synchronized List<String> at(Level level) {
    return lines.stream().filter(l -> l.level() == level).map(Line::message).toList();
  }

  @Override
  protected String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  protected synchronized void handleNormalizedLoggingCall(
      Level level, Marker marker, String messagePattern, Object[] arguments, Throwable throwable) {
    lines.add(new Line(level, MessageFormatter.basicArrayFormat(messagePattern, arguments)));
  }

  @Override
  public boolean isTraceEnabled() {
    return true;
  }

  @Override
  public boolean isDebugEnabled() {
    return true;
  }

  @Override
  public boolean isInfoEnabled() {
    return true;
  }

  @Override
  public boolean isWarnEnabled() {
    return true;
  }

  @Override
  public boolean isErrorEnabled() {
    return true;
  }
}
