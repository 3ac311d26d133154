package io.winstats.perfcounters.pdh;

/**
 * A counter declared as data: object, instance filter, counter and kind, all English and verbatim. Implemented by one
 * enum per perf object; the constants of one enum share one PDH query.
 */
interface CounterDef {
  /** The English perf object, such as {@code "Processor Information"}. */
  String object();

  /** Which instances the path names. */
  InstanceFilter instances();

  /** The English counter name, such as {@code "% User Time"}. */
  String counter();

  /** How its raw value is read. */
  CounterKind kind();

  /** The English path for {@code PdhAddEnglishCounterW}. */
  default CounterPath path() {
    return new CounterPath(object(), instances().pathPart(), counter());
  }
}
