package io.winstats.cri;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Pod network counters.
 *
 * @param timestamp the runtime's time of the reading
 * @param interfaces every interface, the default interface first
 */
public record NetworkUsage(Instant timestamp, List<InterfaceUsage> interfaces) {
  public NetworkUsage {
    Objects.requireNonNull(timestamp, "timestamp");
    interfaces = List.copyOf(interfaces);
  }
}
