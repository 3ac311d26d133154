package io.winstats.perfcounters.counters;

/**
 * A counter as a counter path names it and a counter log holds it: the English object and counter names and what its
 * formatted value means. Every {@link PerfCounter} is one; the replay recorder's own {@code \Winstats Node} counters
 * are only this, since PDH never reads them.
 */
public interface LoggedCounter {
  /** The English perf object, verbatim ({@code "Memory"}). */
  String object();

  /** The English counter name, verbatim ({@code "% Processor Time"}). */
  String counter();

  /** What the formatted value in a log means. */
  FormattedUnit formatted();
}
