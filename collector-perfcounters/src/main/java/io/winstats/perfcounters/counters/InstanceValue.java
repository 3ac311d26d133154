package io.winstats.perfcounters.counters;

import java.util.Objects;

/**
 * One value of a {@link CustomCounter}.
 *
 * @param instance the instance name ({@code #n}-disambiguated), or {@code ""} for an object without instances
 * @param value the value in the counter's own unit (see {@link CustomCounter})
 */
public record InstanceValue(String instance, double value) {
  public InstanceValue {
    Objects.requireNonNull(instance, "instance");
  }
}
