package io.winstats.perfcounters.counters;

/** {@code \Process(_Total)}: the kubelet's node working set is the private working set summed over all processes. */
public enum ProcessCounter implements PerfCounter {
  WORKING_SET_PRIVATE("Working Set - Private", RawKind.RAW_LARGE, FormattedUnit.BYTES);

  public static final String OBJECT = "Process";

  private final CounterSpec spec;

  ProcessCounter(String counter, RawKind raw, FormattedUnit formatted) {
    this.spec = new CounterSpec(OBJECT, InstanceFilter.TOTAL, counter, raw, formatted);
  }

  @Override
  public CounterSpec spec() {
    return spec;
  }
}
