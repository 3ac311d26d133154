package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.counter;
import static io.winstats.exporter.metrics.FamiliesBuilder.labelNames;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.NetDevInterface;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.summary.NodeInterfaces;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The cAdvisor {@code container_network_*} families {@link CadvisorSeriesCollector} serves, with the three parts that
 * fill them: the node root's interfaces, a pod's interfaces as the runtime reports them, and a Linux pod's {@code
 * /proc/<pid>/net/dev} read in the cgroup round.
 */
final class CadvisorNetworkTables {
  private static final List<String> INTERFACE = labelNames(CadvisorSeriesCollector.CONTAINER_LABELS, "interface");

  static final MetricFamilyDescriptor RX_BYTES =
      counter("container_network_receive_bytes_total", "Cumulative count of bytes received", INTERFACE);
  static final MetricFamilyDescriptor TX_BYTES =
      counter("container_network_transmit_bytes_total", "Cumulative count of bytes transmitted", INTERFACE);
  static final MetricFamilyDescriptor RX_ERRORS =
      counter(
          "container_network_receive_errors_total",
          "Cumulative count of errors encountered while receiving",
          INTERFACE);
  static final MetricFamilyDescriptor TX_ERRORS =
      counter(
          "container_network_transmit_errors_total",
          "Cumulative count of errors encountered while transmitting",
          INTERFACE);
  static final MetricFamilyDescriptor RX_DROPPED =
      counter(
          "container_network_receive_packets_dropped_total",
          "Cumulative count of packets dropped while receiving",
          INTERFACE);
  static final MetricFamilyDescriptor TX_DROPPED =
      counter(
          "container_network_transmit_packets_dropped_total",
          "Cumulative count of packets dropped while transmitting",
          INTERFACE);
  static final MetricFamilyDescriptor RX_PACKETS =
      counter("container_network_receive_packets_total", "Cumulative count of packets received", INTERFACE);
  static final MetricFamilyDescriptor TX_PACKETS =
      counter("container_network_transmit_packets_total", "Cumulative count of packets transmitted", INTERFACE);

  static final SeriesTable<NetworkInterfaceCounters> ROOT =
      SeriesTable.<NetworkInterfaceCounters>labelled(INTERFACE)
          .row(RX_BYTES, NetworkInterfaceCounters::rxBytes)
          .row(TX_BYTES, NetworkInterfaceCounters::txBytes)
          .row(RX_ERRORS, NetworkInterfaceCounters::rxErrors)
          .row(TX_ERRORS, NetworkInterfaceCounters::txErrors)
          .row(RX_DROPPED, NetworkInterfaceCounters::rxDropped)
          .row(TX_DROPPED, NetworkInterfaceCounters::txDropped)
          .row(RX_PACKETS, NetworkInterfaceCounters::rxPackets)
          .row(TX_PACKETS, NetworkInterfaceCounters::txPackets)
          .build();

  /** A pod's interfaces as the runtime reports them; HNS endpoint statistics count packets (Windows), CRI does not. */
  static final SeriesTable<InterfaceUsage> POD =
      SeriesTable.<InterfaceUsage>labelled(INTERFACE)
          .row(RX_BYTES, InterfaceUsage::rxBytes)
          .row(TX_BYTES, InterfaceUsage::txBytes)
          .row(RX_ERRORS, InterfaceUsage::rxErrors)
          .row(TX_ERRORS, InterfaceUsage::txErrors)
          .row(RX_DROPPED, InterfaceUsage::rxPacketsDropped)
          .row(TX_DROPPED, InterfaceUsage::txPacketsDropped)
          .row(RX_PACKETS, InterfaceUsage::rxPackets)
          .row(TX_PACKETS, InterfaceUsage::txPackets)
          .build();

  /** A Linux pod's packets from its {@code /proc/<pid>/net/dev}. */
  static final SeriesTable<NetDevInterface> NET_DEV_PACKETS =
      SeriesTable.<NetDevInterface>labelled(INTERFACE)
          .row(RX_PACKETS, NetDevInterface::rxPackets)
          .row(TX_PACKETS, NetDevInterface::txPackets)
          .build();

  /** A Linux pod's drops from its {@code net/dev}, where CRI counts none for the interface. */
  static final SeriesTable<NetDevInterface> NET_DEV_DROPS =
      SeriesTable.<NetDevInterface>labelled(INTERFACE)
          .row(RX_DROPPED, NetDevInterface::rxDropped)
          .row(TX_DROPPED, NetDevInterface::txDropped)
          .build();

  /**
   * What CRI's Linux {@code NetworkInterfaceUsage} lacks, from the pod's {@code /proc/<pid>/net/dev} read in the
   * cgroup round: packets, and the drops of an interface whose CRI figures have none. cAdvisor's interfaces only (no
   * {@code lo}), stamped with the cgroup read's time.
   */
  static void addPodNetDev(FamiliesBuilder f, PodSample pod, CgroupSample cgroups, Labels l) {
    List<NetDevInterface> interfaces = cgroups.podNetworks().get(pod.sandboxId());
    if (interfaces == null) {
      return;
    }
    Instant at = cgroups.timestamp();
    for (NetDevInterface nic : interfaces) {
      if (NodeInterfaces.isIgnored(nic.name())) {
        continue;
      }
      Labels n = l.add("interface", nic.name());
      NET_DEV_PACKETS.add(f, nic, n, at);
      if (!criCountsDrops(pod.network(), nic.name())) {
        NET_DEV_DROPS.add(f, nic, n, at);
      }
    }
  }

  private static boolean criCountsDrops(@Nullable NetworkUsage network, String name) {
    if (network == null) {
      return false;
    }
    for (InterfaceUsage nic : network.interfaces()) {
      if (nic.name().equals(name) && (nic.rxPacketsDropped() != null || nic.txPacketsDropped() != null)) {
        return true;
      }
    }
    return false;
  }

  private CadvisorNetworkTables() {}
}
