package io.winstats.perfcounters.counters;

/**
 * A Windows performance counter declared as data, implemented by one enum per perf object whose constants each carry a
 * {@link CounterSpec}. The constants of one enum share one object, so one PDH query and one set of log columns.
 */
public interface PerfCounter extends LoggedCounter {
  /** The declaration. */
  CounterSpec spec();

  @Override
  default String object() {
    return spec().object();
  }

  /** Which instances the path names. */
  default InstanceFilter instances() {
    return spec().instances();
  }

  @Override
  default String counter() {
    return spec().counter();
  }

  /** How PDH's raw value is documented to be read. */
  default RawKind raw() {
    return spec().raw();
  }

  @Override
  default FormattedUnit formatted() {
    return spec().formatted();
  }

  /** The local English path, such as {@code \Processor Information(*)\% User Time}. */
  default CounterPath path() {
    return spec().path();
  }
}
