package io.winstats.cri.cgroups;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One interface's counters from a network namespace's {@code /proc/<pid>/net/dev}, as cAdvisor reads a container's
 * network ({@code networkStatsFromProc} in {@code container/libcontainer/handler.go}): what CRI's Linux {@code
 * NetworkInterfaceUsage} leaves out (packets, drops) for the pod's interfaces.
 */
public record NetDevInterface(
    String name,
    long rxBytes,
    long rxPackets,
    long rxErrors,
    long rxDropped,
    long txBytes,
    long txPackets,
    long txErrors,
    long txDropped) {
  public NetDevInterface {
    Objects.requireNonNull(name, "name");
  }

  /**
   * Every interface of a {@code net/dev} text: two header lines, then {@code name: rx_bytes rx_packets rx_errs
   * rx_drop fifo frame compressed multicast tx_bytes tx_packets tx_errs tx_drop ...}. Malformed lines are skipped.
   */
  public static List<NetDevInterface> parse(String text) {
    List<NetDevInterface> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String[] f = CgroupReader.FIELDS.split(line.substring(colon + 1).strip());
      if (f.length < 12) {
        continue;
      }
      try {
        out.add(
            new NetDevInterface(
                line.substring(0, colon).strip(),
                Long.parseLong(f[0]),
                Long.parseLong(f[1]),
                Long.parseLong(f[2]),
                Long.parseLong(f[3]),
                Long.parseLong(f[8]),
                Long.parseLong(f[9]),
                Long.parseLong(f[10]),
                Long.parseLong(f[11])));
      } catch (NumberFormatException e) {
        // A header line ("face |bytes ...") or a torn read; the other interfaces still count.
      }
    }
    return out;
  }
}
