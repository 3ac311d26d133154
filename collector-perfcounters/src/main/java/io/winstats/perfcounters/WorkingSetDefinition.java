package io.winstats.perfcounters;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Which figure a Windows node reports as its memory working set ({@link NodeMemory#workingSetBytes()}): the Summary's
 * {@code node.memory.workingSetBytes} (and the {@code availableBytes} derived from it), {@code
 * node_memory_working_set_bytes} and the root {@code container_memory_working_set_bytes}.
 */
public enum WorkingSetDefinition {
  /**
   * The kubelet's: {@code \Process(_Total)\Working Set - Private}, the sum of every process's private working set
   * (kubernetes {@code pkg/kubelet/winstats}). It leaves out shared pages and kernel memory, so it reads low
   * (kubernetes#112111, Azure/AKS#3390); absent when the {@code Process} object cannot be read.
   */
  KUBELET,
  /**
   * Physical memory in use: {@code GlobalMemoryStatusEx.ullTotalPhys} − {@code \Memory\Available Bytes}, what Task
   * Manager shows and windows_exporter's memory collector gives; absent when either is unknown.
   */
  PHYSICAL;

  /** The flag value, {@code kubelet} or {@code physical}. */
  public String flagValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The definition whose {@link #flagValue()} is {@code value}, ignoring surrounding whitespace.
   *
   * @throws IllegalArgumentException when {@code value} is not {@code kubelet} or {@code physical}
   */
  public static WorkingSetDefinition parse(String value) {
    for (WorkingSetDefinition d : values()) {
      if (d.flagValue().equals(value.strip())) {
        return d;
      }
    }
    throw new IllegalArgumentException("'" + value + "' is not one of kubelet, physical");
  }

  /**
   * The working set under this definition.
   *
   * @param privateWorkingSetBytes {@code \Process(_Total)\Working Set - Private}, or {@code null} when not read
   * @param totalBytes the physical memory, or {@code null} when not read
   * @param availableBytes {@code \Memory\Available Bytes}, or {@code null} when not read
   */
  public @Nullable Long workingSetBytes(
      @Nullable Long privateWorkingSetBytes, @Nullable Long totalBytes, @Nullable Long availableBytes) {
    return switch (this) {
      case KUBELET -> privateWorkingSetBytes;
      case PHYSICAL -> totalBytes == null || availableBytes == null ? null : Math.max(0, totalBytes - availableBytes);
    };
  }
}
