package io.winstats.perfcounters.sources;

import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.pdh.PdhNodeSource;
import io.winstats.perfcounters.procfs.ProcfsNodeSource;
import io.winstats.perfcounters.replay.ReplayNodeSource;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;

/**
 * Opens the node counter source a {@code --node.source} value names.
 *
 * <p>Accepted forms:
 *
 * <ul>
 *   <li>{@code auto}: the platform's source, {@code procfs} on Linux and {@code pdh} on Windows;
 *   <li>{@code procfs}: {@code /proc} of this host;
 *   <li>{@code procfs:<root>}: a proc tree at {@code <root>} (a container's {@code /host/proc}, a test fixture), with
 *       {@code /} as the root filesystem;
 *   <li>{@code procfs:<root>,rootfs=<dir>}: for a daemon in a container, the host's proc tree at {@code <root>} and the
 *       host's root filesystem at {@code <dir>} (node_exporter's {@code --path.rootfs}): filesystems are read from the
 *       host's mount table {@code <root>/1/mounts} and resolved under {@code <dir>};
 *   <li>{@code pdh}: Windows performance counters (Windows only);
 *   <li>{@code replay:<file>[,speed=<N>|max][,bias=<minutes>]}: a PDH-CSV counter log, at N times its recorded pace (1
 *       when absent) or one row per sample with {@code max}; {@code bias} is the logging machine's Windows time-zone
 *       bias, used when the log's banner has none.
 * </ul>
 */
public final class NodeCounterSources {
  /** The accepted forms, for error messages. */
  public static final String ACCEPTED =
      "auto, procfs, procfs:<root>[,rootfs=<dir>], pdh,"
          + " replay:<file>[,speed=<N>|max][,bias=<minutes>][,time=replay|recorded]";

  private NodeCounterSources() {}

  /**
   * Opens the source {@code spec} names.
   *
   * @param clock stamps (procfs) or paces (replay) the samples
   * @param windowsHost whether this host is Windows, the caller's one answer (the daemon's {@code HostOs}): {@code
   *     auto} is {@code pdh} there and {@code procfs} elsewhere, and {@code pdh} opens only there
   * @throws IllegalArgumentException when {@code spec} is not one of the accepted forms, or names {@code pdh} (also
   *     through {@code auto}) on a host that is not Windows
   * @throws NodeSourceException when the named source exists but cannot be opened (no procfs, an unreadable log)
   */
  public static NodeCounterSource open(String spec, Clock clock, boolean windowsHost) {
    return open(
        spec,
        clock,
        List.of(),
        WorkingSetDefinition.KUBELET,
        PdhNodeSource.DEFAULT_KUBELET_ROOT_DIRECTORY,
        windowsHost);
  }

  /**
   * Opens the source {@code spec} names with custom PDH counters, the node working set as {@code workingSet} defines
   * it, and (PDH) the kubelet's root directory, whose volume is read live for the Summary's node filesystem.
   *
   * @throws IllegalArgumentException also when {@code customCounters} is not empty, or {@code workingSet} is not
   *     {@link WorkingSetDefinition#KUBELET}, and the source is not PDH
   */
  public static NodeCounterSource open(
      String spec,
      Clock clock,
      List<CustomCounter> customCounters,
      WorkingSetDefinition workingSet,
      Path kubeletRootDirectory,
      boolean windowsHost) {
    String trimmed = spec.strip();
    if (trimmed.equals("auto")) {
      return open(
          windowsHost ? "pdh" : "procfs", clock, customCounters, workingSet, kubeletRootDirectory, windowsHost);
    }
    if (!customCounters.isEmpty() && !trimmed.equals("pdh")) {
      throw new IllegalArgumentException("custom performance counters need the pdh source, not " + trimmed);
    }
    if (workingSet != WorkingSetDefinition.KUBELET && !trimmed.equals("pdh")) {
      throw new IllegalArgumentException(
          "the " + workingSet.flagValue() + " node working set needs the pdh source, not " + trimmed);
    }
    if (trimmed.equals("procfs")) {
      return ProcfsNodeSource.open(clock);
    }
    if (trimmed.startsWith("procfs:") && trimmed.length() > "procfs:".length()) {
      return openProcfs(trimmed.substring("procfs:".length()), clock);
    }
    if (trimmed.equals("pdh")) {
      if (!windowsHost) {
        throw new IllegalArgumentException("pdh source is only available on Windows");
      }
      return PdhNodeSource.open(clock, customCounters, workingSet, kubeletRootDirectory);
    }
    if (trimmed.startsWith("replay:") && trimmed.length() > "replay:".length()) {
      return openReplay(trimmed.substring("replay:".length()), clock);
    }
    throw new IllegalArgumentException("unsupported node source '" + spec + "'; accepted: " + ACCEPTED);
  }

  private static NodeCounterSource openProcfs(String argument, Clock clock) {
    int comma = argument.lastIndexOf(',');
    if (comma >= 0 && argument.substring(comma + 1).strip().startsWith("rootfs=")) {
      String procRoot = argument.substring(0, comma).strip();
      String rootFs = argument.substring(comma + 1).strip().substring("rootfs=".length());
      if (procRoot.isEmpty() || rootFs.isEmpty()) {
        throw new IllegalArgumentException("procfs needs a proc root and a rootfs directory; accepted: " + ACCEPTED);
      }
      return ProcfsNodeSource.openHost(Path.of(procRoot), Path.of(rootFs), clock, System::nanoTime);
    }
    return ProcfsNodeSource.open(Path.of(argument), Path.of("/"), clock, System::nanoTime);
  }

  private static NodeCounterSource openReplay(String argument, Clock clock) {
    String file = argument;
    double speed = 1;
    Integer bias = null;
    ReplayNodeSource.Timeline timeline = ReplayNodeSource.Timeline.REPLAY;
    // options trail the file name, so a file name may itself hold commas
    while (true) {
      int comma = file.lastIndexOf(',');
      if (comma < 0) {
        break;
      }
      String option = file.substring(comma + 1).strip();
      if (option.startsWith("speed=")) {
        speed = parseSpeed(option.substring("speed=".length()));
      } else if (option.startsWith("bias=")) {
        bias = parseBias(option.substring("bias=".length()));
      } else if (option.equals("time=recorded")) {
        timeline = ReplayNodeSource.Timeline.RECORDED;
      } else if (option.equals("time=replay")) {
        timeline = ReplayNodeSource.Timeline.REPLAY;
      } else {
        break;
      }
      file = file.substring(0, comma);
    }
    if (file.isBlank()) {
      throw new IllegalArgumentException("replay needs a file; accepted: " + ACCEPTED);
    }
    return ReplayNodeSource.open(Path.of(file), speed, bias, timeline, clock);
  }

  private static double parseSpeed(String value) {
    if (value.toLowerCase(Locale.ROOT).equals("max")) {
      return Double.POSITIVE_INFINITY;
    }
    double speed;
    try {
      speed = Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("replay speed must be a positive number or max: '" + value + "'", e);
    }
    if (!(speed > 0) || Double.isInfinite(speed)) {
      throw new IllegalArgumentException("replay speed must be a positive number or max: '" + value + "'");
    }
    return speed;
  }

  private static int parseBias(String value) {
    try {
      int bias = Integer.parseInt(value);
      if (Math.abs(bias) > 24 * 60) {
        throw new IllegalArgumentException("replay bias must be within ±1440 minutes: " + value);
      }
      return bias;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("replay bias must be whole minutes: '" + value + "'", e);
    }
  }
}
