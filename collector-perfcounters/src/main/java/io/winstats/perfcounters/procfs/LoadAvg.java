package io.winstats.perfcounters.procfs;

/**
 * {@code /proc/loadavg}.
 *
 * @param load1 one-minute load average
 * @param load5 five-minute load average
 * @param load15 fifteen-minute load average
 * @param runnableTasks tasks runnable now (the number before the slash)
 * @param tasks kernel scheduling entities (processes and threads) now, the number after the slash; the kubelet's
 *     {@code rlimit.curproc} on Linux
 */
record LoadAvg(double load1, double load5, double load15, long runnableTasks, long tasks) {
  static final String FILE = "/proc/loadavg";

  /**
   * Parses the text of {@code /proc/loadavg}: {@code 0.26 0.23 0.10 1/85 5956}.
   *
   * @throws io.winstats.perfcounters.NodeSourceException MALFORMED when a field is absent or unparsable
   */
  static LoadAvg parse(String text) {
    String[] f = ProcfsText.fields(text);
    if (f.length < 4) {
      throw ProcfsText.malformed(FILE, "expected at least 4 fields: " + text.strip());
    }
    int slash = f[3].indexOf('/');
    if (slash <= 0) {
      throw ProcfsText.malformed(FILE, "no running/total field: " + f[3]);
    }
    return new LoadAvg(
        ProcfsText.parseDecimal(FILE, f[0]),
        ProcfsText.parseDecimal(FILE, f[1]),
        ProcfsText.parseDecimal(FILE, f[2]),
        ProcfsText.parseCounter(FILE, f[3].substring(0, slash)),
        ProcfsText.parseCounter(FILE, f[3].substring(slash + 1)));
  }
}
