package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.require;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.counters.NetworkInterfaceCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Network Interface(*)} as {@link NetworkInterfaceCounters}, one per adapter with every counter readable,
 * 32-bit counters carried across their wrap. Confined to the sampling thread.
 */
final class PdhNetworkInterface {
  static final Set<? extends PerfCounter> COUNTERS = EnumSet.allOf(NetworkInterfaceCounter.class);

  private final CumulativeCounters<String> counts = new CumulativeCounters<>();

  @Nullable List<NetworkInterfaceCounters> read(Collected c, Map<NodePart, String> missing) {
    Map<NetworkInterfaceCounter, Reading> r = new EnumMap<>(NetworkInterfaceCounter.class);
    for (NetworkInterfaceCounter d : NetworkInterfaceCounter.values()) {
      r.put(d, reading(c, d));
    }
    if (!require(NodePart.NETWORK, missing, r.values().toArray(Reading[]::new))) {
      return null;
    }
    List<NetworkInterfaceCounters> out = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (String nic : get(r, NetworkInterfaceCounter.BYTES_RECEIVED).items().keySet()) {
      if (InstanceNames.isTotal(nic)) {
        continue;
      }
      Map<NetworkInterfaceCounter, Long> v = new EnumMap<>(NetworkInterfaceCounter.class);
      boolean complete = true;
      for (Map.Entry<NetworkInterfaceCounter, Reading> e : r.entrySet()) {
        Reading reading = e.getValue();
        RawCounter raw = reading.items().get(nic);
        if (raw == null) {
          complete = false;
          break;
        }
        String key = e.getKey().name() + "|" + nic;
        keys.add(key);
        v.put(e.getKey(), counts.update(key, raw.firstValue(), PerfCounterType.is64Bit(reading.type())));
      }
      if (!complete) {
        continue;
      }
      out.add(
          new NetworkInterfaceCounters(
              nic,
              get(v, NetworkInterfaceCounter.BYTES_RECEIVED),
              get(v, NetworkInterfaceCounter.BYTES_SENT),
              get(v, NetworkInterfaceCounter.PACKETS_RECEIVED),
              get(v, NetworkInterfaceCounter.PACKETS_SENT),
              get(v, NetworkInterfaceCounter.PACKETS_RECEIVED_ERRORS),
              get(v, NetworkInterfaceCounter.PACKETS_OUTBOUND_ERRORS),
              get(v, NetworkInterfaceCounter.PACKETS_RECEIVED_DISCARDED),
              get(v, NetworkInterfaceCounter.PACKETS_OUTBOUND_DISCARDED)));
    }
    counts.retainOnly(keys);
    return out;
  }

  /** The entry every counter has by construction: the maps above are filled for each constant. */
  private static <V> V get(Map<NetworkInterfaceCounter, V> byCounter, NetworkInterfaceCounter counter) {
    return Objects.requireNonNull(byCounter.get(counter), counter::name);
  }
}
