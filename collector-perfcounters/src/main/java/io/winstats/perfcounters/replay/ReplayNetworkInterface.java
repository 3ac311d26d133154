package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NetworkInterfaceCountersBuilder;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.binding.Binding;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding.NetworkInterfaceCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Network Adapter(*)} (or {@code \Network Interface(*)}) in a counter log as {@link NetworkInterfaceCounters},
 * as {@link NetworkInterfaceBinding} binds them: the columns {@link CounterLogIntegrator} integrates and those {@link
 * CounterLogRecorder} writes. An interface is read only when it has every counter.
 */
final class ReplayNetworkInterface {
  private static final Binding<NetworkInterfaceCounter, NetworkInterfaceCounters, NetworkInterfaceCountersBuilder>
      BINDING = NetworkInterfaceBinding.NETWORK_INTERFACE;

  private final List<BoundColumns<NetworkInterfaceCounter, NetworkInterfaceCounters, NetworkInterfaceCountersBuilder>>
      nics;

  private ReplayNetworkInterface(
      List<BoundColumns<NetworkInterfaceCounter, NetworkInterfaceCounters, NetworkInterfaceCountersBuilder>> nics) {
    this.nics = nics;
  }

  // ---------------------------------------------------------------- integration

  /** The interfaces the header offers in full, or null with the reason put in {@code unavailable}. */
  static @Nullable ReplayNetworkInterface plan(LogHeader header, Map<NodePart, String> unavailable) {
    for (String object : BINDING.objects()) {
      Set<String> instances = header.instances(object);
      if (instances.isEmpty()) {
        continue;
      }
      List<BoundColumns<NetworkInterfaceCounter, NetworkInterfaceCounters, NetworkInterfaceCountersBuilder>> plans =
          new ArrayList<>();
      for (String instance : instances) {
        plans.add(BoundColumns.of(header, object, instance, BINDING));
      }
      if (plans.stream().noneMatch(BoundColumns::complete)) {
        unavailable.put(
            NodePart.NETWORK, LogHeader.incomplete(object, plans.get(0).instance(), plans.get(0).lacking()));
        return null;
      }
      plans.removeIf(p -> !p.complete());
      return new ReplayNetworkInterface(plans);
    }
    unavailable.put(NodePart.NETWORK, "the log has no Network Adapter(*) or Network Interface(*) counters");
    return null;
  }

  List<NetworkInterfaceCounters> read(LoggedRow row) {
    List<NetworkInterfaceCounters> result = new ArrayList<>();
    for (BoundColumns<NetworkInterfaceCounter, NetworkInterfaceCounters, NetworkInterfaceCountersBuilder> nic : nics) {
      NetworkInterfaceCountersBuilder builder = NetworkInterfaceCounters.builder(nic.instance());
      nic.read(row, builder);
      result.add(builder.build());
    }
    return result;
  }

  // ---------------------------------------------------------------- recording

  /** Adds every counter of interface {@code name} under {@code Network Adapter}. */
  static void record(NetworkInterfaceCounters first, RecordedColumn.Columns out) {
    String name = first.name();
    out.addFigures(BINDING.recordedObject(), name, BINDING, first, s -> nic(s, name));
  }

  private static @Nullable NetworkInterfaceCounters nic(NodeSample sample, String name) {
    return sample.interfaces().stream().filter(i -> i.name().equals(name)).findFirst().orElse(null);
  }
}
