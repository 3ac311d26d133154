package io.winstats.cri.cgroups;

import java.nio.charset.StandardCharsets;
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
          new NetDevInterface(
              new String(b, nameFrom, nameTo - nameFrom, StandardCharsets.ISO_8859_1),
              f[0], f[1], f[2], f[3], f[8], f[9], f[10], f[11]));
    }
    return out;
  }

  /** A builder for the NetDevInterface of {@code name}, every other component 0, empty or absent until set by name. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Names each component of a {@link NetDevInterface}; not thread-safe. */
  public static final class Builder {
    private final String name;
    private long rxBytes;
    private long rxPackets;
    private long rxErrors;
    private long rxDropped;
    private long txBytes;
    private long txPackets;
    private long txErrors;
    private long txDropped;

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    public Builder rxBytes(long value) {
      this.rxBytes = value;
      return this;
    }

    public Builder rxPackets(long value) {
      this.rxPackets = value;
      return this;
    }

    public Builder rxErrors(long value) {
      this.rxErrors = value;
      return this;
    }

    public Builder rxDropped(long value) {
      this.rxDropped = value;
      return this;
    }

    public Builder txBytes(long value) {
      this.txBytes = value;
      return this;
    }

    public Builder txPackets(long value) {
      this.txPackets = value;
      return this;
    }

    public Builder txErrors(long value) {
      this.txErrors = value;
      return this;
    }

    public Builder txDropped(long value) {
      this.txDropped = value;
      return this;
    }

    public NetDevInterface build() {
      return new NetDevInterface(
          name,
          rxBytes,
          rxPackets,
          rxErrors,
          rxDropped,
          txBytes,
          txPackets,
          txErrors,
          txDropped);
    }
  }
}
