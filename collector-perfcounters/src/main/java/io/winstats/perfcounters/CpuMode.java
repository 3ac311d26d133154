package io.winstats.perfcounters;

/**
 * The CPU time modes of both platforms. Linux fills the /proc/stat modes; Windows fills {@link #USER},
 * {@link #PRIVILEGED}, {@link #IDLE}, {@link #INTERRUPT} and {@link #DPC} (where privileged already includes interrupt
 * and DPC time, so those two are informative, not additive).
 */
public enum CpuMode {
  USER,
  NICE,
  SYSTEM,
  IDLE,
  IOWAIT,
  IRQ,
  SOFTIRQ,
  STEAL,
  PRIVILEGED,
  INTERRUPT,
  DPC;

  /** The {@code mode} label value as node_exporter and windows_exporter spell it. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
