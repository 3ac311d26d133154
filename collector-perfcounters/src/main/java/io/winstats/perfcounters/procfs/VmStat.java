package io.winstats.perfcounters.procfs;

/**
 * Page-fault counters from {@code /proc/vmstat}, cumulative since boot.
 *
 * @param pageFaults {@code pgfault}: minor and major faults
 * @param majorPageFaults {@code pgmajfault}: faults that needed I/O
 */
record VmStat(long pageFaults, long majorPageFaults) {
  static final String FILE = "/proc/vmstat";

  /**
   * Parses the text of {@code /proc/vmstat}.
   *
   * @throws io.winstats.perfcounters.NodeSourceException MALFORMED when pgfault or pgmajfault is absent or unparsable
   */
  static VmStat parse(String text) {
    Long faults = null;
    Long major = null;
    for (String line : text.split("\n")) {
      String[] f = ProcfsText.fields(line);
      if (f.length != 2) {
        continue;
      }
      if (f[0].equals("pgfault")) {
        faults = ProcfsText.parseCounter(FILE, f[1]);
      } else if (f[0].equals("pgmajfault")) {
        major = ProcfsText.parseCounter(FILE, f[1]);
      }
    }
    if (faults == null || major == null) {
      throw ProcfsText.malformed(FILE, "no pgfault or pgmajfault line");
    }
    return new VmStat(faults, major);
  }
}
