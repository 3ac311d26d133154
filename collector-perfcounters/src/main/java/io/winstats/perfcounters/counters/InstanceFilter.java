package io.winstats.perfcounters.counters;

import org.jspecify.annotations.Nullable;

/** Which instances a declared counter's path names. */
public enum InstanceFilter {
  /** {@code (*)}: every instance, aggregates included; the sources drop names ending in {@code _Total}. */
  ALL("*"),
  /** {@code (_Total)}: the aggregate instance only. */
  TOTAL("_Total"),
  /** The object has no instances. */
  NONE(null);

  private final @Nullable String pathPart;

  InstanceFilter(@Nullable String pathPart) {
    this.pathPart = pathPart;
  }

  /** The text between the parentheses, or {@code null} for {@link #NONE}. */
  public @Nullable String pathPart() {
    return pathPart;
  }
}
