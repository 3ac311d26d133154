package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.counters.NetworkInterfaceCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Network Adapter(*)} (or {@code \Network Interface(*)}) in a counter log as {@link NetworkInterfaceCounters}:
 * the columns {@link CounterLogIntegrator} integrates and those {@link CounterLogRecorder} writes. An interface is
 * read only when it has every {@link NetworkInterfaceCounter}.
 */
final class ReplayNetworkInterface {
  /**
   * The objects that hold {@link NetworkInterfaceCounter}'s counters, in order of preference: {@code Network
   * Adapter(*)}, what the kubelet reads, then {@code Network Interface(*)}.
   */
  static final List<String> OBJECTS = List.of("Network Adapter", NetworkInterfaceCounter.OBJECT);

  private final List<LogHeader.InstanceColumns<NetworkInterfaceCounter>> nics;

  private ReplayNetworkInterface(List<LogHeader.InstanceColumns<NetworkInterfaceCounter>> nics) {
    this.nics = nics;
  }

  // ---------------------------------------------------------------- integration

  /** The interfaces the header offers in full, or null with the reason put in {@code unavailable}. */
  static @Nullable ReplayNetworkInterface plan(LogHeader header, Map<NodePart, String> unavailable) {
    for (String object : OBJECTS) {
      Set<String> instances = header.instances(object);
      if (instances.isEmpty()) {
        continue;
      }
      List<LogHeader.InstanceColumns<NetworkInterfaceCounter>> plans =
          header.complete(object, instances, NetworkInterfaceCounter.class, null);
      if (plans.isEmpty()) {
        unavailable.put(NodePart.NETWORK, header.incomplete(object, instances, NetworkInterfaceCounter.class, null));
        return null;
      }
      return new ReplayNetworkInterface(plans);
    }
    unavailable.put(NodePart.NETWORK, "the log has no Network Adapter(*) or Network Interface(*) counters");
    return null;
  }

  List<NetworkInterfaceCounters> read(LoggedRow row) {
    List<NetworkInterfaceCounters> result = new ArrayList<>();
    for (LogHeader.InstanceColumns<NetworkInterfaceCounter> nic : nics) {
      result.add(
          new NetworkInterfaceCounters(
              nic.instance(),
              row.count(nic.column(NetworkInterfaceCounter.BYTES_RECEIVED)),
              row.count(nic.column(NetworkInterfaceCounter.BYTES_SENT)),
              row.count(nic.column(NetworkInterfaceCounter.PACKETS_RECEIVED)),
              row.count(nic.column(NetworkInterfaceCounter.PACKETS_SENT)),
              row.gauge(nic.column(NetworkInterfaceCounter.PACKETS_RECEIVED_ERRORS)),
              row.gauge(nic.column(NetworkInterfaceCounter.PACKETS_OUTBOUND_ERRORS)),
              row.gauge(nic.column(NetworkInterfaceCounter.PACKETS_RECEIVED_DISCARDED)),
              row.gauge(nic.column(NetworkInterfaceCounter.PACKETS_OUTBOUND_DISCARDED))));
    }
    return result;
  }

  // ---------------------------------------------------------------- recording

  /** Adds every {@link NetworkInterfaceCounter} of interface {@code name} under {@code Network Adapter}. */
  static void record(String name, RecordedColumn.Columns out) {
    String object = OBJECTS.get(0);
    for (NetworkInterfaceCounter counter : NetworkInterfaceCounter.values()) {
      ToLongFunction<NetworkInterfaceCounters> field =
          switch (counter) {
            case BYTES_RECEIVED -> NetworkInterfaceCounters::rxBytes;
            case BYTES_SENT -> NetworkInterfaceCounters::txBytes;
            case PACKETS_RECEIVED -> NetworkInterfaceCounters::rxPackets;
            case PACKETS_SENT -> NetworkInterfaceCounters::txPackets;
            case PACKETS_RECEIVED_ERRORS -> NetworkInterfaceCounters::rxErrors;
            case PACKETS_OUTBOUND_ERRORS -> NetworkInterfaceCounters::txErrors;
            case PACKETS_RECEIVED_DISCARDED -> NetworkInterfaceCounters::rxDropped;
            case PACKETS_OUTBOUND_DISCARDED -> NetworkInterfaceCounters::txDropped;
          };
      out.add(object, name, counter, (p, c, dt) -> {
        NetworkInterfaceCounters now = nic(c, name);
        if (now == null) {
          return null;
        }
        if (!counter.formatted().isRate()) {
          return Long.toString(field.applyAsLong(now));
        }
        NetworkInterfaceCounters before = p == null ? null : nic(p, name);
        return RecordedColumn.perSecond(before == null ? null : field.applyAsLong(before), field.applyAsLong(now), dt);
      });
    }
  }

  private static @Nullable NetworkInterfaceCounters nic(NodeSample sample, String name) {
    return sample.interfaces().stream().filter(i -> i.name().equals(name)).findFirst().orElse(null);
  }
}
