package io.winstats.exporter.history;

import io.winstats.exporter.history.HistoryViews.ContainerView;
import io.winstats.exporter.history.HistoryViews.NodeView;
import io.winstats.exporter.history.HistoryViews.PodHistory;
import io.winstats.exporter.history.HistoryViews.PodView;
import io.winstats.exporter.history.HistoryViews.Values;
import io.winstats.perfcounters.NodePlatform;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The last {@code samples} node samples and runtime samples, as the figures the node page charts: the node's, each
 * pod's and each container's ({@link Figure}). Each is recorded as its sample is published; nothing is rendered until
 * someone reads. A pod or container is held while it has a sample in the window.
 *
 * <p>The bytes held are bounded: {@link #limitBytes()} is computed from {@link #POD_SERIES_LIMIT} pods and {@link
 * #CONTAINER_SERIES_LIMIT} containers of the longest names Kubernetes allows, each with its figures × {@code samples}
 * values, plus the node's. A pod or container that would take the history over it is left out (counted in {@link
 * #droppedSeries()}); {@link #bytes()} never exceeds it. The counts are upper bounds of what the JVM holds (strings
 * at two bytes a character, every object's header counted), not measured.
 *
 * <p>Thread-safe: recorders (the sampling loops) and readers (request handlers) take its lock, readers only to copy.
 */
public final class NodeHistory {
  /** Ten minutes at the default 10 s interval. */
  public static final int DEFAULT_SAMPLES = 60;

  /** Pods held at once, at most: 250 (the largest node measured) and pods replaced within the window. */
  static final int POD_SERIES_LIMIT = 320;

  /** Containers held at once, at most: three a pod. */
  static final int CONTAINER_SERIES_LIMIT = 3 * POD_SERIES_LIMIT;

  // Kubernetes' own limits: a pod name is a DNS subdomain (253), a namespace and a container name DNS labels (63),
  // a UID 36 characters.
  private static final int POD_IDENTITY_CHARS = 253 + 63 + 36;
  private static final int CONTAINER_NAME_CHARS = 63;
  // A map entry, the holder object and its fields; a pod's holder also has a TreeMap of containers.
  private static final int POD_OVERHEAD = 48 + 32 + 48;
  private static final int CONTAINER_OVERHEAD = 48 + 24;

  private final int samples;
  private final String nodeName;
  private final NodePlatform platform;
  private final Duration interval;
  private final long limitBytes;

  private final long[] nodeTimes;
  private final Series node;
  private long nodeCount;

  private final long[] podTimes;
  private long podCount;
  private final Map<String, PodSeries> pods = new HashMap<>();

  private long bytes;
  private long droppedSeries;
  private long version;

  /**
   * @param samples how many samples of each figure to keep, at least 2 (a rate needs two)
   * @param nodeName the node's name, as the JSON names it
   * @param platform the node's kind, as the JSON names it
   * @param interval the sampling interval, as the JSON names it (how often a reader may find a new sample)
   */
  public NodeHistory(int samples, String nodeName, NodePlatform platform, Duration interval) {
    if (samples < 2) {
      throw new IllegalArgumentException("samples must be at least 2, not " + samples);
    }
    this.samples = samples;
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.platform = Objects.requireNonNull(platform, "platform");
    this.interval = Objects.requireNonNull(interval, "interval");
    this.nodeTimes = new long[samples];
    this.podTimes = new long[samples];
    this.node = new Series(Figure.NODE.size(), samples);
    this.bytes = fixedBytes(samples);
    this.limitBytes = limitBytes(samples);
  }

  /** The bytes a history of {@code samples} may hold: the node's and the pods' and containers' at their limits. */
  static long limitBytes(int samples) {
    return fixedBytes(samples)
        + POD_SERIES_LIMIT * podBytes(POD_IDENTITY_CHARS, samples)
        + CONTAINER_SERIES_LIMIT * containerBytes(CONTAINER_NAME_CHARS, samples);
  }

  private static long fixedBytes(int samples) {
    return Series.bytes(Figure.NODE.size(), samples) + 2 * (16 + 8L * samples);
  }

  private static long podBytes(int identityChars, int samples) {
    return POD_OVERHEAD + 3 * 40 + 2L * identityChars + Series.bytes(Figure.POD.size(), samples);
  }

  private static long containerBytes(int nameChars, int samples) {
    return CONTAINER_OVERHEAD + 40 + 2L * nameChars + Series.bytes(Figure.CONTAINER.size(), samples);
  }

  /** Samples kept of each figure. */
  public int samples() {
    return samples;
  }

  String nodeName() {
    return nodeName;
  }

  NodePlatform platform() {
    return platform;
  }

  Duration interval() {
    return interval;
  }

  /** The most bytes this history holds, by the count {@link #bytes()} makes. */
  public long limitBytes() {
    return limitBytes;
  }

  /** The bytes held now: an upper bound, counted as series are added and dropped. */
  public synchronized long bytes() {
    return bytes;
  }

  /** Pods and containers left out since start because holding them would have passed {@link #limitBytes()}. */
  public synchronized long droppedSeries() {
    return droppedSeries;
  }

  /** Increases with every recorded sample: the key of a body rendered from this history. */
  public synchronized long version() {
    return version;
  }

  /** Records a node sample: a value or {@link Series#ABSENT} per {@link Figure#NODE} figure. */
  synchronized void recordNode(Instant time, long[] figures) {
    int slot = (int) (nodeCount % samples);
    nodeTimes[slot] = time.toEpochMilli();
    node.write(slot, figures);
    nodeCount++;
    version++;
  }

  /** Records a runtime sample: its pods, each with its containers. */
  synchronized void recordPods(Instant time, List<PodRow> rows) {
    long frame = podCount;
    int slot = (int) (frame % samples);
    podTimes[slot] = time.toEpochMilli();
    forgetOutsideWindow(frame);
    for (PodSeries pod : pods.values()) {
      pod.series.clear(slot);
      pod.containers.values().forEach(c -> c.series.clear(slot));
    }
    for (PodRow row : rows) {
      PodSeries pod = pods.get(row.uid());
      if (pod == null) {
        long need = podBytes(row.namespace().length() + row.name().length() + row.uid().length(), samples);
        if (bytes + need > limitBytes) {
          droppedSeries += 1 + row.containers().size();
          continue;
        }
        pod = new PodSeries(row.namespace(), row.name(), row.uid(), new Series(Figure.POD.size(), samples), need);
        pods.put(row.uid(), pod);
        bytes += need;
      }
      pod.series.write(slot, row.figures());
      pod.lastFrame = frame;
      for (ContainerRow c : row.containers()) {
        ContainerSeries container = pod.containers.get(c.name());
        if (container == null) {
          long need = containerBytes(c.name().length(), samples);
          if (bytes + need > limitBytes) {
            droppedSeries++;
            continue;
          }
          container = new ContainerSeries(c.name(), new Series(Figure.CONTAINER.size(), samples), need);
          pod.containers.put(c.name(), container);
          bytes += need;
        }
        container.series.write(slot, c.figures());
        container.lastFrame = frame;
      }
    }
    podCount++;
    version++;
  }

  /** Drops the pods and containers whose last sample leaves the window as {@code frame} takes its slot. */
  private void forgetOutsideWindow(long frame) {
    long oldestKept = frame - samples + 1;
    for (Iterator<PodSeries> it = pods.values().iterator(); it.hasNext(); ) {
      PodSeries pod = it.next();
      if (pod.lastFrame < oldestKept) {
        it.remove();
        bytes -= pod.bytes;
        for (ContainerSeries c : pod.containers.values()) {
          bytes -= c.bytes;
        }
        continue;
      }
      for (Iterator<ContainerSeries> ci = pod.containers.values().iterator(); ci.hasNext(); ) {
        ContainerSeries c = ci.next();
        if (c.lastFrame < oldestKept) {
          ci.remove();
          bytes -= c.bytes;
        }
      }
    }
  }

  /** The node's window and the pods of the newest runtime sample with their two newest samples. */
  synchronized NodeView nodeView() {
    long[] nodeFrames = frames(nodeCount, Math.min(nodeCount, samples));
    long[] podFrames = frames(podCount, Math.min(podCount, 2));
    List<PodView> present = new ArrayList<>();
    for (PodSeries pod : pods.values()) {
      if (podCount > 0 && pod.lastFrame == podCount - 1) {
        present.add(view(pod, podFrames));
      }
    }
    return new NodeView(
        samples,
        times(nodeTimes, nodeFrames),
        new Values(Figure.NODE, values(node, Figure.NODE.size(), nodeFrames)),
        times(podTimes, podFrames),
        present,
        droppedSeries);
  }

  /** One pod's window, or {@code null} when the history holds no pod of that UID. */
  synchronized @Nullable PodHistory podView(String uid) {
    PodSeries pod = pods.get(uid);
    if (pod == null) {
      return null;
    }
    long[] frames = frames(podCount, Math.min(podCount, samples));
    return new PodHistory(samples, times(podTimes, frames), view(pod, frames));
  }

  private PodView view(PodSeries pod, long[] frames) {
    List<ContainerView> containers = new ArrayList<>();
    for (ContainerSeries c : pod.containers.values()) {
      containers.add(
          new ContainerView(c.name, new Values(Figure.CONTAINER, values(c.series, Figure.CONTAINER.size(), frames))));
    }
    return new PodView(
        pod.namespace,
        pod.name,
        pod.uid,
        pod.lastFrame == podCount - 1,
        new Values(Figure.POD, values(pod.series, Figure.POD.size(), frames)),
        containers);
  }

  /** The last {@code n} frame numbers before {@code count}, oldest first. */
  private static long[] frames(long count, long n) {
    long[] out = new long[(int) n];
    for (int i = 0; i < n; i++) {
      out[i] = count - n + i;
    }
    return out;
  }

  private long[] times(long[] ring, long[] frames) {
    long[] out = new long[frames.length];
    for (int i = 0; i < frames.length; i++) {
      out[i] = ring[(int) (frames[i] % samples)];
    }
    return out;
  }

  private long[][] values(Series series, int figures, long[] frames) {
    long[][] out = new long[figures][frames.length];
    for (int f = 0; f < figures; f++) {
      for (int i = 0; i < frames.length; i++) {
        out[f][i] = series.get(f, (int) (frames[i] % samples));
      }
    }
    return out;
  }

  /**
   * One pod of a runtime sample, as recorded.
   *
   * @param figures a value or {@link Series#ABSENT} per {@link Figure#POD} figure
   */
  @SuppressWarnings("ArrayRecordComponent") // handed over once, never compared
  record PodRow(String namespace, String name, String uid, long[] figures, List<ContainerRow> containers) {
    PodRow {
      containers = List.copyOf(containers);
    }
  }

  /**
   * One container of a pod, as recorded.
   *
   * @param figures a value or {@link Series#ABSENT} per {@link Figure#CONTAINER} figure
   */
  @SuppressWarnings("ArrayRecordComponent") // handed over once, never compared
  record ContainerRow(String name, long[] figures) {}

  private static final class PodSeries {
    final String namespace;
    final String name;
    final String uid;
    final Series series;
    final long bytes;
    final Map<String, ContainerSeries> containers = new TreeMap<>();
    long lastFrame;

    PodSeries(String namespace, String name, String uid, Series series, long bytes) {
      this.namespace = namespace;
      this.name = name;
      this.uid = uid;
      this.series = series;
      this.bytes = bytes;
    }
  }

  private static final class ContainerSeries {
    final String name;
    final Series series;
    final long bytes;
    long lastFrame;

    ContainerSeries(String name, Series series, long bytes) {
      this.name = name;
      this.series = series;
      this.bytes = bytes;
    }
  }
}
