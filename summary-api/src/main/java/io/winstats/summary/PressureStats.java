package io.winstats.summary;

import io.winstats.cri.cgroups.Pressure;
import io.winstats.cri.cgroups.PressureLine;
import io.winstats.summary.SummaryTypes.CpuStats;
import io.winstats.summary.SummaryTypes.IoStats;
import io.winstats.summary.SummaryTypes.MemoryStats;
import io.winstats.summary.SummaryTypes.PsiData;
import io.winstats.summary.SummaryTypes.PsiStats;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Pressure stall information as the kubelet's {@code PSIStats}: on the CPU and memory of the node, pods and
 * containers, and as their {@code io}. Where a pressure file is absent (cgroup v1, Windows, no PSI) the field is
 * absent, never zero.
 */
final class PressureStats {
  private PressureStats() {}

  static @Nullable CpuStats withPsi(@Nullable CpuStats cpu, @Nullable Pressure pressure) {
    return cpu == null || pressure == null ? cpu : cpu.withPsi(psi(pressure));
  }

  static @Nullable MemoryStats withPsi(@Nullable MemoryStats memory, @Nullable Pressure pressure) {
    return memory == null || pressure == null ? memory : memory.withPsi(psi(pressure));
  }

  /** {@code io} only where there is IO pressure to report: the kubelet's IOStats carries nothing else. */
  static @Nullable IoStats io(Instant at, @Nullable Pressure pressure) {
    return pressure == null ? null : new IoStats(at, psi(pressure));
  }

  /**
   * A pressure file as {@code PSIStats}. {@code full} is zero where the file has no {@code full} line
   * ({@code /proc/pressure/cpu} before Linux 5.13), as cAdvisor's zero-valued {@code PSIData} shows it.
   */
  private static PsiStats psi(Pressure p) {
    PressureLine full = p.full();
    return new PsiStats(full == null ? new PsiData(0, 0, 0, 0) : psiData(full), psiData(p.some()));
  }

  private static PsiData psiData(PressureLine l) {
    return new PsiData(l.totalMicros(), l.avg10(), l.avg60(), l.avg300());
  }
}
