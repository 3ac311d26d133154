package io.winstats.perfcounters.replay;

/** A counter as a log names it: the English counter name and how its formatted value is read. */
interface LoggedCounter {
  /** The English counter name, verbatim ({@code "% Processor Time"}). */
  String counterName();

  CounterKind kind();
}
