package io.winstats.perfcounters.procfs;

import io.winstats.perfcounters.CpuMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The parts of {@code /proc/stat} the node source uses.
 *
 * @param total the aggregate {@code cpu} line, which the kernel sums over every possible CPU, so it keeps growing when
 *     a CPU goes offline
 * @param cpus the per-CPU lines (cpu0, cpu1, ...), one per online CPU, in file order
 * @param bootTimeEpochSeconds {@code btime}, or null when the line is absent
 * @param forksSinceBoot {@code processes}: processes and threads created since boot (not a count of live processes)
 * @param procsRunning {@code procs_running}: runnable tasks now
 * @param contextSwitches {@code ctxt}: context switches since boot
 */
record ProcStat(
    CpuLine total,
    List<CpuLine> cpus,
    @Nullable Long bootTimeEpochSeconds,
    @Nullable Long forksSinceBoot,
    @Nullable Long procsRunning,
    @Nullable Long contextSwitches) {

  static final String FILE = "/proc/stat";

  /** The modes of a {@code cpu} line in file order; {@code guest} and {@code guest_nice} are already in user/nice. */
  private static final CpuMode[] COLUMNS = {
    CpuMode.USER, CpuMode.NICE, CpuMode.SYSTEM, CpuMode.IDLE, CpuMode.IOWAIT, CpuMode.IRQ, CpuMode.SOFTIRQ,
    CpuMode.STEAL
  };

  ProcStat {
    Objects.requireNonNull(total, "total");
    cpus = List.copyOf(cpus);
  }

  /**
   * One {@code cpu} line in clock ticks (USER_HZ) by mode.
   *
   * @param name {@code ""} for the aggregate line, else the CPU number ({@code "0"})
   * @param ticksByMode modes present on the line; kernels before 2.6.11 lack steal, before 2.6.0 iowait/irq/softirq
   */
  record CpuLine(String name, Map<CpuMode, Long> ticksByMode) {
    CpuLine {
      Objects.requireNonNull(name, "name");
      ticksByMode = Collections.unmodifiableMap(new EnumMap<>(ticksByMode));
    }

    long ticks(CpuMode mode) {
      return ticksByMode.getOrDefault(mode, 0L);
    }
  }

  /**
   * Parses the text of {@code /proc/stat}.
   *
   * @throws io.winstats.perfcounters.NodeSourceException MALFORMED when the aggregate cpu line is absent or a number
   *     does not parse
   */
  static ProcStat parse(String text) {
    CpuLine total = null;
    List<CpuLine> cpus = new ArrayList<>();
    Long btime = null;
    Long forks = null;
    Long running = null;
    Long ctxt = null;
    for (String line : text.split("\n")) {
      String[] f = ProcfsText.fields(line);
      if (f.length == 0) {
        continue;
      }
      String key = f[0];
      if (key.startsWith("cpu")) {
        CpuLine cpu = cpuLine(key, f);
        if (cpu.name().isEmpty()) {
          total = cpu;
        } else {
          cpus.add(cpu);
        }
      } else if (f.length >= 2) {
        switch (key) {
          case "btime" -> btime = ProcfsText.parseCounter(FILE, f[1]);
          case "processes" -> forks = ProcfsText.parseCounter(FILE, f[1]);
          case "procs_running" -> running = ProcfsText.parseCounter(FILE, f[1]);
          case "ctxt" -> ctxt = ProcfsText.parseCounter(FILE, f[1]);
          default -> {
            // intr, softirq, procs_blocked: not used
          }
        }
      }
    }
    if (total == null) {
      throw ProcfsText.malformed(FILE, "no aggregate 'cpu' line");
    }
    return new ProcStat(total, cpus, btime, forks, running, ctxt);
  }

  private static CpuLine cpuLine(String key, String[] f) {
    String name = key.substring(3);
    if (!name.chars().allMatch(Character::isDigit)) {
      throw ProcfsText.malformed(FILE, "not a cpu line: " + key);
    }
    if (f.length < 5) {
      throw ProcfsText.malformed(FILE, key + " has " + (f.length - 1) + " fields, at least 4 expected");
    }
    EnumMap<CpuMode, Long> ticks = new EnumMap<>(CpuMode.class);
    for (int i = 0; i < COLUMNS.length && i + 1 < f.length; i++) {
      ticks.put(COLUMNS[i], ProcfsText.parseCounter(FILE, f[i + 1]));
    }
    return new CpuLine(name, ticks);
  }
}
