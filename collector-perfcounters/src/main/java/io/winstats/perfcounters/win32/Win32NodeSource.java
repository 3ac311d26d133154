package io.winstats.perfcounters.win32;

import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.PerfCounterReadings;
import io.winstats.perfcounters.WindowsService;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Windows node source whose samples also carry the figures of Win32 APIs other than PDH: the services ({@link
 * ServiceReader}). They are read right after the counters, on the caller's thread, so once per sampling interval and
 * never per scrape (windows_exporter enumerates the services on every scrape). A failure of theirs is a missing part of
 * the sample ({@link NodePart#SERVICES}); the counters' parts are the wrapped source's.
 *
 * <p>{@link #sample()} and {@link #close()} from one thread at a time, as the wrapped source's.
 */
public final class Win32NodeSource implements NodeCounterSource {
  private final NodeCounterSource counters;
  private final ServiceReader services;

  /** Wraps {@code counters}; closing this closes both. */
  public Win32NodeSource(NodeCounterSource counters, ServiceReader services) {
    this.counters = Objects.requireNonNull(counters, "counters");
    this.services = Objects.requireNonNull(services, "services");
  }

  @Override
  public String name() {
    return counters.name();
  }

  @Override
  public NodePlatform platform() {
    return counters.platform();
  }

  /** The wrapped source's sample with the services read now. */
  @Override
  public NodeSample sample() {
    NodeSample sample = counters.sample();
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);
    missing.putAll(sample.missing());
    List<WindowsService> serviceList = services.read(missing);
    return sample.toBuilder().services(serviceList).missing(missing).build();
  }

  @Override
  public Optional<PerfCounterReadings> perfCounterReadings() {
    return counters.perfCounterReadings();
  }

  @Override
  public void close() {
    try {
      services.close();
    } finally {
      counters.close();
    }
  }
}
