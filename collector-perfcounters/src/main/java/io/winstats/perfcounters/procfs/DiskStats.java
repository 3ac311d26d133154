package io.winstats.perfcounters.procfs;

import io.winstats.perfcounters.DiskIoCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The whole disks of {@code /proc/diskstats}: partitions, loop, ram, zram and floppy devices are left out with
 * node_exporter's default {@code --collector.diskstats.device-exclude} pattern.
 *
 * @param disks one entry per kept device, in file order
 */
record DiskStats(List<DiskIoCounters> disks) {
  static final String FILE = "/proc/diskstats";

  /** node_exporter's default device exclude ({@code collector/diskstats_linux.go}). */
  static final Pattern IGNORED_DEVICES = Pattern.compile("^(z?ram|loop|fd|(h|s|v|xv)d[a-z]|nvme\\d+n\\d+p)\\d+$");

  /** The kernel counts diskstats sectors in 512-byte units whatever the device's sector size. */
  private static final long SECTOR_BYTES = 512;

  private static final long NANOS_PER_MILLI = 1_000_000;

  DiskStats {
    disks = List.copyOf(disks);
  }

  /**
   * Parses the text of {@code /proc/diskstats} (major, minor, name and at least 11 counters; newer kernels append
   * discard and flush counters, which are ignored).
   *
   * @throws io.winstats.perfcounters.NodeSourceException MALFORMED when a kept line is short or unparsable
   */
  static DiskStats parse(String text) {
    List<DiskIoCounters> result = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] f = ProcfsText.fields(line);
      if (f.length == 0) {
        continue;
      }
      if (f.length < 14) {
        throw ProcfsText.malformed(FILE, "line has " + f.length + " fields, at least 14 expected: " + line.strip());
      }
      String device = f[2];
      if (IGNORED_DEVICES.matcher(device).matches()) {
        continue;
      }
      result.add(
          DiskIoCounters.builder(device)
              .readBytes(ProcfsText.parseScaledCounter(FILE, f[5], SECTOR_BYTES))
              .writtenBytes(ProcfsText.parseScaledCounter(FILE, f[9], SECTOR_BYTES))
              .reads(ProcfsText.parseCounter(FILE, f[3]))
              .writes(ProcfsText.parseCounter(FILE, f[7]))
              .readTimeNanos(ProcfsText.parseScaledCounter(FILE, f[6], NANOS_PER_MILLI))
              .writeTimeNanos(ProcfsText.parseScaledCounter(FILE, f[10], NANOS_PER_MILLI))
              .ioTimeNanos(ProcfsText.parseScaledCounter(FILE, f[12], NANOS_PER_MILLI))
              .queueLength(ProcfsText.parseCounter(FILE, f[11]))
              .weightedIoTimeNanos(ProcfsText.parseScaledCounter(FILE, f[13], NANOS_PER_MILLI))
              .build());
    }
    return new DiskStats(result);
  }
}
