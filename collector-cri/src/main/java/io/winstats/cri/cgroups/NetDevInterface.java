package io.winstats.cri.cgroups;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One interface's counters from a network namespace's {@code /proc/<pid>/net/dev}, as cAdvisor reads a container's
 * network ({@code networkStatsFromProc} in {@code container/libcontainer/handler.go}): what CRI's Linux {@code
 * NetworkInterfaceUsage} leaves out (packets, drops) for the pod's interfaces.
 */
@RecordBuilder
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
    byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
    return parse(b, b.length);
  }

  /**
   * {@link #parse(String)} of the ISO-8859-1 text {@code b[0, length)}, where a cgroup round read it: a line counts
   * when it has a colon after its first character and at least 12 fields after it, of which the eight read are
   * numbers; the name is what comes before the colon, stripped.
   */
  static List<NetDevInterface> parse(byte[] b, int length) {
    List<NetDevInterface> out = new ArrayList<>(4);
    long[] f = new long[12];
    for (int line = 0; line < length; ) {
      int nl = KernelFile.indexOf(b, line, length, (byte) '\n');
      int end = nl < 0 ? length : nl;
      int start = line;
      line = end + 1;
      int colon = KernelFile.indexOf(b, start, end, (byte) ':');
      if (colon <= start) {
        continue;
      }
      int to = KernelFile.stripEnd(b, colon + 1, end);
      int fields = 0;
      try {
        for (int at = KernelFile.stripStart(b, colon + 1, to); at < to && fields < 12; fields++) {
          int fieldEnd = KernelFile.fieldEnd(b, at, to);
          if (fields < 4 || fields >= 8) {
            f[fields] = KernelFile.parseLong(b, at, fieldEnd);
          }
          at = KernelFile.skipSpaces(b, fieldEnd, to);
        }
      } catch (NumberFormatException e) {
        // A header line ("face |bytes ...") or a torn read; the other interfaces still count.
        continue;
      }
      if (fields < 12) {
        continue;
      }
      int nameFrom = KernelFile.stripStart(b, start, colon);
      int nameTo = KernelFile.stripEnd(b, nameFrom, colon);
      out.add(
          builder(new String(b, nameFrom, nameTo - nameFrom, StandardCharsets.ISO_8859_1))
              .rxBytes(f[0])
              .rxPackets(f[1])
              .rxErrors(f[2])
              .rxDropped(f[3])
              .txBytes(f[8])
              .txPackets(f[9])
              .txErrors(f[10])
              .txDropped(f[11])
              .build());
    }
    return out;
  }

  /** A builder for the NetDevInterface of {@code name}, every other component 0, empty or absent until set by name. */
  public static NetDevInterfaceBuilder builder(String name) {
    return NetDevInterfaceBuilder.builder().name(name);
  }
}
