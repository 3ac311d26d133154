package io.winstats.testing;

import java.util.Optional;

/** Something a test needs from the host that {@link Requires#tools()} cannot express (a runtime, a kernel feature). */
public interface Prerequisite {
  /** Why the host does not meet it, or empty when it does. */
  Optional<String> unmetReason();
}
