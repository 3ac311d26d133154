package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.gauge;

import io.prometheus.metrics.model.snapshots.Labels;
import io.winstats.perfcounters.NetworkAdapter;
import java.util.List;

/**
 * windows_exporter v0.31.8's net collector's {@code nic_info} sub-collector, on by default ({@code
 * internal/collector/net/net.go:55-58@v0.31.8}): its three families with their names, label names and help verbatim
 * ({@code net.go:255-272@v0.31.8}), filled as its {@code collectNICInfo} fills them ({@code net.go:423-513@v0.31.8}):
 * {@code nic_info} 1 with the friendly name and MAC address; one {@code nic_operation_status} point per RFC 2863
 * status, 1 for the adapter's own and 0 for the others (none 1 for a code RFC 2863 does not define); one {@code
 * nic_address_info} point per global unicast address of an adapter that is up. {@code windows_net_route_info} is
 * declared there but never emitted, so not here either. Served by {@link WindowsExporterCollector#NET}, one part per
 * adapter the node source read with the sample.
 */
final class WindowsNetAdapterTables {
  private WindowsNetAdapterTables() {}

  static final SeriesTable<NetworkAdapter> ADAPTER =
      SeriesTable.<NetworkAdapter>labelled(List.of())
          .write(
              gauge(
                  "windows_net_nic_info",
                  "A metric with a constant '1' value labeled with the network interface's general information.",
                  List.of("nic", "friendly_name", "mac")),
              (f, family, a, l, at) ->
                  f.add(family, 1.0, Labels.of("nic", a.nic(), "friendly_name", a.friendlyName(), "mac", a.mac()), at))
          .write(
              gauge(
                  "windows_net_nic_operation_status",
                  "The operational status for the interface as defined in RFC 2863 as IfOperStatus.",
                  List.of("nic", "status")),
              (f, family, a, l, at) -> {
                for (NetworkAdapter.OperStatus status : NetworkAdapter.OperStatus.values()) {
                  f.add(
                      family,
                      status.code() == a.operStatus() ? 1.0 : 0.0,
                      Labels.of("nic", a.nic(), "status", status.label()),
                      at);
                }
              })
          .write(
              gauge(
                  "windows_net_nic_address_info",
                  "A metric with a constant '1' value labeled with the network interface's address information.",
                  List.of("nic", "address", "family")),
              (f, family, a, l, at) -> {
                for (NetworkAdapter.Address address : a.addresses()) {
                  f.add(
                      family,
                      1.0,
                      Labels.of("nic", a.nic(), "address", address.address(), "family", address.family()),
                      at);
                }
              })
          .build();
}
