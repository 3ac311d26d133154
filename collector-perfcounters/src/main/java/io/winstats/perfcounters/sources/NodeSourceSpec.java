package io.winstats.perfcounters.sources;

import io.winstats.perfcounters.replay.ReplayNodeSource;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which node counter source to open, as a {@code --node.source} value names it, parsed once ({@link #parse}) and
 * opened by {@link NodeCounterSources}. {@code auto} is resolved at parsing, by the host the caller names: a spec is
 * always one of the three sources.
 *
 * <p>Accepted forms ({@link #ACCEPTED}):
 *
 * <ul>
 *   <li>{@code auto}: {@code pdh} on Windows, {@code procfs} elsewhere;
 *   <li>{@code procfs}: {@code /proc} of this host;
 *   <li>{@code procfs:PROC}: a proc tree at {@code PROC} (a container's {@code /host/proc}, a test fixture), with
 *       {@code /} as the root filesystem;
 *   <li>{@code procfs:PROC,rootfs=DIR}: for a daemon in a container, the host's proc tree at {@code PROC} and the
 *       host's root filesystem at {@code DIR} (node_exporter's {@code --path.rootfs}): filesystems are read from the
 *       host's mount table {@code PROC/1/mounts} and resolved under {@code DIR};
 *   <li>{@code pdh}: Windows performance counters (opened on Windows only);
 *   <li>{@code replay:FILE[,speed=N|max][,bias=MINUTES][,time=replay|recorded]}: a PDH-CSV counter log, at N times its
 *       recorded pace (1 when absent) or one row per sample with {@code max}; {@code bias} is the logging machine's
 *       Windows time-zone bias, used when the log's banner has none; samples are stamped with replay time unless
 *       {@code time=recorded}.
 * </ul>
 */
public sealed interface NodeSourceSpec {
  /** The accepted forms, for error messages. */
  String ACCEPTED =
      "auto, procfs, procfs:PROC[,rootfs=DIR], pdh, replay:FILE[,speed=N|max][,bias=MINUTES][,time=replay|recorded]";

  /**
   * A proc tree.
   *
   * @param procRoot where procfs is mounted ({@code /proc} on the host)
   * @param hostRootFs the host's root filesystem when the daemon runs in a container ({@code rootfs=}), whose mount
   *     table is then the host's; {@code null} reads this process's mounts under {@code /}
   */
  record Procfs(Path procRoot, @Nullable Path hostRootFs) implements NodeSourceSpec {
    static final Path HOST_PROC = Path.of("/proc");

    public Procfs {
      Objects.requireNonNull(procRoot, "procRoot");
    }

    @Override
    public String toString() {
      if (hostRootFs != null) {
        return "procfs:" + procRoot + ",rootfs=" + hostRootFs;
      }
      return procRoot.equals(HOST_PROC) ? "procfs" : "procfs:" + procRoot;
    }
  }

  /** Windows performance counters through PDH. */
  record Pdh() implements NodeSourceSpec {
    @Override
    public String toString() {
      return "pdh";
    }
  }

  /**
   * A PDH-CSV counter log played back.
   *
   * @param speed log seconds per clock second, or {@link Double#POSITIVE_INFINITY} for one row per sample
   * @param biasMinutes the logging machine's Windows time-zone bias when the banner has none, or {@code null}
   * @param timeline which time the samples carry
   */
  record Replay(Path file, double speed, @Nullable Integer biasMinutes, ReplayNodeSource.Timeline timeline)
      implements NodeSourceSpec {
    public Replay {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(timeline, "timeline");
      if (!(speed > 0)) {
        throw new IllegalArgumentException("replay speed must be positive: " + speed);
      }
    }

    @Override
    public String toString() {
      StringBuilder text = new StringBuilder("replay:").append(file);
      if (speed != 1) {
        text.append(",speed=")
            .append(Double.isInfinite(speed) ? "max" : BigDecimal.valueOf(speed).stripTrailingZeros().toPlainString());
      }
      if (biasMinutes != null) {
        text.append(",bias=").append(biasMinutes);
      }
      if (timeline == ReplayNodeSource.Timeline.RECORDED) {
        text.append(",time=recorded");
      }
      return text.toString();
    }
  }

  /**
   * Parses a {@code --node.source} value.
   *
   * @param windowsHost whether this host is Windows, the caller's one answer: {@code auto} is {@code pdh} there and
   *     {@code procfs} elsewhere
   * @throws IllegalArgumentException when {@code text} is none of the {@link #ACCEPTED} forms or an option is bad;
   *     the message says which
   */
  static NodeSourceSpec parse(String text, boolean windowsHost) {
    String trimmed = text.strip();
    if (trimmed.equals("auto")) {
      return windowsHost ? new Pdh() : new Procfs(Procfs.HOST_PROC, null);
    }
    if (trimmed.equals("procfs")) {
      return new Procfs(Procfs.HOST_PROC, null);
    }
    if (trimmed.equals("pdh")) {
      return new Pdh();
    }
    if (trimmed.startsWith("procfs:") && trimmed.length() > "procfs:".length()) {
      return procfs(trimmed.substring("procfs:".length()));
    }
    if (trimmed.startsWith("replay:") && trimmed.length() > "replay:".length()) {
      return replay(trimmed.substring("replay:".length()));
    }
    throw new IllegalArgumentException("'" + text + "' is not one of " + ACCEPTED);
  }

  private static Procfs procfs(String argument) {
    int comma = argument.lastIndexOf(',');
    if (comma >= 0 && argument.substring(comma + 1).strip().startsWith("rootfs=")) {
      String procRoot = argument.substring(0, comma).strip();
      String rootFs = argument.substring(comma + 1).strip().substring("rootfs=".length());
      if (procRoot.isEmpty() || rootFs.isEmpty()) {
        throw new IllegalArgumentException("procfs needs a proc root and a rootfs directory; accepted: " + ACCEPTED);
      }
      return new Procfs(Path.of(procRoot), Path.of(rootFs));
    }
    return new Procfs(Path.of(argument), null);
  }

  private static Replay replay(String argument) {
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
        speed = speed(option.substring("speed=".length()));
      } else if (option.startsWith("bias=")) {
        bias = bias(option.substring("bias=".length()));
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
    return new Replay(Path.of(file), speed, bias, timeline);
  }

  private static double speed(String value) {
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

  private static int bias(String value) {
    int bias;
    try {
      bias = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("replay bias must be whole minutes: '" + value + "'", e);
    }
    if (Math.abs(bias) > 24 * 60) {
      throw new IllegalArgumentException("replay bias must be within ±1440 minutes: " + value);
    }
    return bias;
  }
}
