package io.winstats.perfcounters.procfs;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import java.util.ArrayList;
import java.util.List;

/**
 * Every interface of {@code /proc/net/dev} (of the network namespace the proc root belongs to), loopback included.
 *
 * @param interfaces one entry per interface line, in file order
 */
record NetDev(List<NetworkInterfaceCounters> interfaces) {
  static final String FILE = "/proc/net/dev";

  NetDev {
    interfaces = List.copyOf(interfaces);
  }

  /**
   * Parses the text of {@code /proc/net/dev}: two header lines, then {@code name: } and 16 counters (8 receive, 8
   * transmit).
   *
   * @throws io.winstats.perfcounters.NodeSourceException MALFORMED when the header is absent or a line is short or
   *     unparsable
   */
  static NetDev parse(String text) {
    String[] lines = text.split("\n");
    if (lines.length < 2 || !lines[0].contains("Receive") || !lines[1].contains("bytes")) {
      throw ProcfsText.malformed(FILE, "no header");
    }
    List<NetworkInterfaceCounters> result = new ArrayList<>();
    for (int i = 2; i < lines.length; i++) {
      String line = lines[i];
      if (line.isBlank()) {
        continue;
      }
      int colon = line.lastIndexOf(':');
      if (colon <= 0) {
        throw ProcfsText.malformed(FILE, "no interface name: " + line);
      }
      String name = line.substring(0, colon).strip();
      String[] f = ProcfsText.fields(line.substring(colon + 1));
      if (f.length < 16) {
        throw ProcfsText.malformed(FILE, name + " has " + f.length + " counters, 16 expected");
      }
      result.add(
          NetworkInterfaceCounters.builder(name)
              .rxBytes(ProcfsText.parseCounter(FILE, f[0]))
              .txBytes(ProcfsText.parseCounter(FILE, f[8]))
              .rxPackets(ProcfsText.parseCounter(FILE, f[1]))
              .txPackets(ProcfsText.parseCounter(FILE, f[9]))
              .rxErrors(ProcfsText.parseCounter(FILE, f[2]))
              .txErrors(ProcfsText.parseCounter(FILE, f[10]))
              .rxDropped(ProcfsText.parseCounter(FILE, f[3]))
              .txDropped(ProcfsText.parseCounter(FILE, f[11]))
              .build());
    }
    return new NetDev(result);
  }
}
