package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.fill;
import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.require;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NetworkInterfaceCountersBuilder;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding.NetworkInterfaceCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Network Interface(*)} as {@link NetworkInterfaceBinding#NETWORK_INTERFACE} binds it: one {@link
 * NetworkInterfaceCounters} per adapter with every needed counter readable (the others set when read), 32-bit counters
 * carried across their wrap.
 * Confined to the sampling thread.
 */
final class PdhNetworkInterface {
  static final Set<? extends PerfCounter> COUNTERS = EnumSet.allOf(NetworkInterfaceCounter.class);

  private final CumulativeCounters<String> counts = new CumulativeCounters<>();

  @Nullable List<NetworkInterfaceCounters> read(Collected c, Map<NodePart, String> missing) {
    List<Reading> readings = new ArrayList<>();
    for (Figure<NetworkInterfaceCounter, ?, ?> f : NetworkInterfaceBinding.NETWORK_INTERFACE.figures()) {
      if (f.needed()) {
        readings.add(reading(c, f.counter()));
      }
    }
    if (!require(NodePart.NETWORK, missing, readings.toArray(Reading[]::new))) {
      return null;
    }
    List<NetworkInterfaceCounters> out = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (String nic : readings.get(0).items().keySet()) {
      if (InstanceNames.isTotal(nic)) {
        continue;
      }
      NetworkInterfaceCountersBuilder builder = NetworkInterfaceCounters.builder(nic);
      if (fill(builder, NetworkInterfaceBinding.NETWORK_INTERFACE, c, nic, counts, keys) == null) {
        out.add(builder.build());
      }
    }
    counts.retainOnly(keys);
    return out;
  }
}
