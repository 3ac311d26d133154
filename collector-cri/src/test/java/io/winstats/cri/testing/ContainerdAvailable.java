package io.winstats.cri.testing;

import io.winstats.testing.Prerequisite;
import java.util.Optional;

/** The host can run {@link ContainerdHarness}: {@code @Requires(prerequisites = ContainerdAvailable.class)}. */
public final class ContainerdAvailable implements Prerequisite {
  @Override
  public Optional<String> unmetReason() {
    return ContainerdHarness.unavailableReason().map(reason -> "containerd harness unavailable: " + reason);
  }
}
