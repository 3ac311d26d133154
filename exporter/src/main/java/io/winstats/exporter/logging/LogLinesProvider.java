package io.winstats.exporter.logging;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The daemon's SLF4J provider (found through {@code META-INF/services}): {@link EventLogger}s over
 * {@code java.util.logging}. It replaced slf4j-jdk14, which formats the message before JUL sees it, so that a value
 * with spaces could not be told from the next field.
 */
public final class LogLinesProvider implements SLF4JServiceProvider {
  private final Map<String, EventLogger> loggers = new ConcurrentHashMap<>();
  private final ILoggerFactory factory = name -> loggers.computeIfAbsent(name, EventLogger::new);
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();

  @Override
  public ILoggerFactory getLoggerFactory() {
    return factory;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {}
}
