package io.winstats.perfcounters.counters;

import com.google.errorprone.annotations.Immutable;
import java.util.Objects;

/**
 * One Windows performance counter declared as data.
 *
 * @param object the English perf object, verbatim ({@code "Processor Information"})
 * @param instances which instances its path names
 * @param counter the English counter name, verbatim ({@code "% User Time"})
 * @param raw how PDH's raw value is documented to be read
 * @param formatted what its formatted value in a counter log means
 */
@Immutable // the counter enums hold one each; Error Prone checks that it stays immutable (ImmutableEnumChecker)
public record CounterSpec(
    String object, InstanceFilter instances, String counter, RawKind raw, FormattedUnit formatted) {
  public CounterSpec {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(instances, "instances");
    Objects.requireNonNull(counter, "counter");
    Objects.requireNonNull(raw, "raw");
    Objects.requireNonNull(formatted, "formatted");
  }

  /** The local English path, {@code \Object(instances)\Counter}, as {@code PdhAddEnglishCounterW} takes it. */
  public CounterPath path() {
    return new CounterPath(object, instances.pathPart(), counter);
  }
}
