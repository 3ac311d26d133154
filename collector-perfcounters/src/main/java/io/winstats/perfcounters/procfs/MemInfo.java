package io.winstats.perfcounters.procfs;

import io.winstats.perfcounters.NodeMemory;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The parts of {@code /proc/meminfo} the node source uses, in bytes (the file's {@code kB} are KiB).
 *
 * @param availableBytes {@code MemAvailable}, absent before Linux 3.14
 * @param committedAsBytes {@code Committed_AS}
 * @param commitLimitBytes {@code CommitLimit}
 * @param anonBytes {@code AnonPages}: the pages of anonymous mappings, the root memory cgroup's RSS (v1 {@code
 *     total_rss}, v2 {@code anon}: both the kernel's NR_ANON_MAPPED, counted over every cgroup), which cAdvisor
 *     reports as the root's {@code Memory.RSS} and the kubelet as the node's {@code rssBytes}
 */
record MemInfo(
    long totalBytes,
    long freeBytes,
    @Nullable Long availableBytes,
    long buffersBytes,
    long cachedBytes,
    long inactiveFileBytes,
    @Nullable Long committedAsBytes,
    @Nullable Long commitLimitBytes,
    @Nullable Long swapTotalBytes,
    @Nullable Long swapFreeBytes,
    @Nullable Long anonBytes) {

  static final String FILE = "/proc/meminfo";

  /**
   * Parses the text of {@code /proc/meminfo}.
   *
   * @throws io.winstats.perfcounters.NodeSourceException MALFORMED when MemTotal, MemFree, Buffers, Cached or
   *     Inactive(file) is absent, or a value does not parse
   */
  static MemInfo parse(String text) {
    Map<String, Long> bytes = new HashMap<>();
    for (String line : text.split("\n")) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String[] f = ProcfsText.fields(line.substring(colon + 1));
      if (f.length == 2 && f[1].equals("kB")) {
        bytes.put(line.substring(0, colon), ProcfsText.parseScaledCounter(FILE, f[0], 1024L));
      } else if (f.length != 1) {
        throw ProcfsText.malformed(FILE, "unexpected line: " + line);
      }
    }
    return new MemInfo(
        required(bytes, "MemTotal"),
        required(bytes, "MemFree"),
        bytes.get("MemAvailable"),
        required(bytes, "Buffers"),
        required(bytes, "Cached"),
        required(bytes, "Inactive(file)"),
        bytes.get("Committed_AS"),
        bytes.get("CommitLimit"),
        bytes.get("SwapTotal"),
        bytes.get("SwapFree"),
        bytes.get("AnonPages"));
  }

  private static long required(Map<String, Long> bytes, String key) {
    Long value = bytes.get(key);
    if (value == null) {
      throw ProcfsText.malformed(FILE, "no " + key + " line");
    }
    return value;
  }

  /**
   * The node memory, with the kubelet/cAdvisor root-cgroup definitions: usage = MemTotal − MemFree and working set =
   * usage − Inactive(file), both floored at 0.
   *
   * @param vmStat page-fault counters, or null when {@code /proc/vmstat} could not be read
   */
  NodeMemory toNodeMemory(@Nullable VmStat vmStat) {
    long usage = Math.max(0, totalBytes - freeBytes);
    long workingSet = Math.max(0, usage - inactiveFileBytes);
    return NodeMemory.builder()
        .totalBytes(totalBytes)
        .availableBytes(availableBytes)
        .workingSetBytes(workingSet)
        .usageBytes(usage)
        .freeBytes(freeBytes)
        .cacheBytes(buffersBytes + cachedBytes)
        .committedBytes(committedAsBytes)
        .commitLimitBytes(commitLimitBytes)
        .pageFaults(vmStat == null ? null : vmStat.pageFaults())
        .majorPageFaults(vmStat == null ? null : vmStat.majorPageFaults())
        .rssBytes(anonBytes)
        .swapTotalBytes(swapTotalBytes)
        .swapFreeBytes(swapFreeBytes)
        .build();
  }
}
