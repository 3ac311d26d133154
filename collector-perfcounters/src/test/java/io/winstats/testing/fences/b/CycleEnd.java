package io.winstats.testing.fences.b;

import io.winstats.testing.fences.a.CycleStart;
import org.jspecify.annotations.Nullable;

/** The other half of the package cycle {@link CycleStart} begins. */
public final class CycleEnd {
  public @Nullable CycleStart back() {
    return null;
  }
}
