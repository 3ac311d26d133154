package io.winstats.perfcounters.pdh;

import org.jspecify.annotations.Nullable;

/** Which instances a counter path names. */
enum InstanceFilter {
  /** {@code (*)}: every instance, aggregates included; the source drops names ending in {@code _Total}. */
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
  @Nullable String pathPart() {
    return pathPart;
  }
}
