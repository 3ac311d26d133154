package io.winstats.exporter.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodSample;
import io.winstats.cri.ResourceSpec;
import io.winstats.cri.RuntimeSample;
import io.winstats.exporter.history.HistoryViews.ContainerView;
import io.winstats.exporter.history.HistoryViews.NodeView;
import io.winstats.exporter.history.HistoryViews.PodHistory;
import io.winstats.exporter.history.HistoryViews.PodView;
import io.winstats.exporter.history.HistoryViews.Values;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The history's JSON, version 1 (docs/NODE-PAGE.md): {@code /api/v1/history/node}, the node's window and the pods of
 * the newest runtime sample with their latest figures, sorted by CPU; {@code /api/v1/history/pod}, one pod's window
 * and its containers'. A figure absent at a time is {@code null}, never 0. Thread-safe; writes only when called.
 */
public final class HistoryJson {
  /** The {@code apiVersion} of every body; a change that breaks a reader makes a v2 beside it. */
  public static final String API_VERSION = "winstats.io/history/v1";

  private static final JsonFactory JSON = JsonFactory.builder().build();
  private final JsonGenerator out;

  private HistoryJson(JsonGenerator out) {
    this.out = out;
  }

  /** The body of {@code /api/v1/history/node}. */
  public static byte[] node(NodeHistory history) {
    NodeView view = history.nodeView();
    return write(json -> json.node(history, view));
  }

  /**
   * The body of {@code /api/v1/history/pod} for the pod of {@code uid}, or {@code null} when the history holds none.
   *
   * @param current the newest runtime sample, for the pod's labels and its containers' images and limits (which are
   *     not history); {@code null} or without the pod leaves them out
   */
  public static byte @Nullable [] pod(NodeHistory history, String uid, @Nullable RuntimeSample current) {
    PodHistory view = history.podView(uid);
    if (view == null) {
      return null;
    }
    PodSample sample = null;
    if (current != null) {
      for (PodSample p : current.pods()) {
        if (p.ref().uid().equals(uid)) {
          sample = p;
        }
      }
    }
    PodSample found = sample;
    return write(json -> json.pod(history, view, found));
  }

  private interface Body {
    void writeTo(HistoryJson json) throws IOException;
  }

  private static byte[] write(Body body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 * 1024);
    try (JsonGenerator g = JSON.createGenerator(bytes)) {
      body.writeTo(new HistoryJson(g));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the history", e);
    }
    return bytes.toByteArray();
  }

  private void node(NodeHistory history, NodeView view) throws IOException {
    out.writeStartObject();
    header(history);
    out.writeObjectFieldStart("node");
    out.writeStringField("name", history.nodeName());
    out.writeStringField("platform", history.platform().name().toLowerCase(Locale.ROOT));
    out.writeEndObject();
    times(view.nodeTimes());
    series(view.node(), view.nodeTimes());
    out.writeFieldName("podsTime");
    if (view.podTimes().length == 0) {
      out.writeNull();
    } else {
      out.writeNumber(view.podTimes()[view.podTimes().length - 1]);
    }
    out.writeArrayFieldStart("pods");
    List<PodView> pods = new ArrayList<>(view.pods());
    pods.sort((a, b) -> tableOrder(a, b, view.podTimes()));
    for (PodView pod : pods) {
      out.writeStartObject();
      identity(pod);
      latestFields(pod.values(), view.podTimes());
      out.writeArrayFieldStart("containers");
      for (ContainerView c : pod.containers()) {
        out.writeStartObject();
        out.writeStringField("name", c.name());
        latestFields(c.values(), view.podTimes());
        out.writeEndObject();
      }
      out.writeEndArray();
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeNumberField("droppedSeries", view.droppedSeries());
    out.writeEndObject();
  }

  private void pod(NodeHistory history, PodHistory view, @Nullable PodSample sample) throws IOException {
    out.writeStartObject();
    header(history);
    PodView pod = view.pod();
    out.writeObjectFieldStart("pod");
    identity(pod);
    out.writeBooleanField("present", pod.present());
    out.writeObjectFieldStart("labels");
    if (sample != null) {
      for (Map.Entry<String, String> label : sample.labels().entrySet()) {
        out.writeStringField(label.getKey(), label.getValue());
      }
    }
    out.writeEndObject();
    out.writeEndObject();
    times(view.times());
    series(pod.values(), view.times());
    out.writeArrayFieldStart("containers");
    for (ContainerView c : pod.containers()) {
      ContainerSample current = sample == null ? null : running(sample, c.name());
      out.writeStartObject();
      out.writeStringField("name", c.name());
      out.writeFieldName("image");
      if (current == null) {
        out.writeNull();
      } else {
        out.writeString(current.image());
      }
      ResourceSpec limits = current == null ? null : current.resources();
      nullableNumber("cpuLimitNanoCores", limits == null ? null : cpuLimitNanoCores(limits));
      Long memoryLimit = limits == null ? null : limits.memoryLimitBytes();
      // The CRI's 0 is no limit.
      nullableNumber("memoryLimitBytes", memoryLimit == null || memoryLimit <= 0 ? null : memoryLimit);
      series(c.values(), view.times());
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  /** The CFS quota over its period, in nano-cores; none without a positive quota (-1 and 0 are no limit). */
  private static @Nullable Long cpuLimitNanoCores(ResourceSpec limits) {
    Long quota = limits.cpuQuotaMicros();
    Long period = limits.cpuPeriodMicros();
    if (quota == null || period == null || quota <= 0 || period <= 0) {
      return null;
    }
    return quota * 1_000_000_000L / period;
  }

  /** The newest attempt of the container of that name in the runtime sample. */
  private static @Nullable ContainerSample running(PodSample pod, String name) {
    ContainerSample found = null;
    for (ContainerSample c : pod.containers()) {
      if (c.name().equals(name) && (found == null || c.attempt() > found.attempt())) {
        found = c;
      }
    }
    return found;
  }

  private void header(NodeHistory history) throws IOException {
    out.writeStringField("apiVersion", API_VERSION);
    out.writeNumberField("samples", history.samples());
    out.writeNumberField("intervalMillis", history.interval().toMillis());
  }

  private void identity(PodView pod) throws IOException {
    out.writeStringField("namespace", pod.namespace());
    out.writeStringField("name", pod.name());
    out.writeStringField("uid", pod.uid());
  }

  private void times(long[] times) throws IOException {
    out.writeArrayFieldStart("times");
    for (long t : times) {
      out.writeNumber(t);
    }
    out.writeEndArray();
  }

  /** Every figure of the list, as an array aligned with {@code times}. */
  private void series(Values values, long[] times) throws IOException {
    out.writeObjectFieldStart("series");
    for (int f = 0; f < values.figures().size(); f++) {
      out.writeArrayFieldStart(values.figures().get(f).jsonName());
      for (int i = 0; i < times.length; i++) {
        number(values.served(f, i, times));
      }
      out.writeEndArray();
    }
    out.writeEndObject();
  }

  /** Every figure of the list at the newest time, as fields. */
  private void latestFields(Values values, long[] times) throws IOException {
    for (int f = 0; f < values.figures().size(); f++) {
      out.writeFieldName(values.figures().get(f).jsonName());
      number(latest(values, f, times));
    }
  }

  private static @Nullable Number latest(Values values, int f, long[] times) {
    return times.length == 0 ? null : values.served(f, times.length - 1, times);
  }

  private void nullableNumber(String field, @Nullable Long value) throws IOException {
    out.writeFieldName(field);
    if (value == null) {
      out.writeNull();
    } else {
      out.writeNumber(value);
    }
  }

  private void number(@Nullable Number value) throws IOException {
    if (value == null) {
      out.writeNull();
    } else if (value instanceof Double d) {
      out.writeNumber(d);
    } else {
      out.writeNumber(value.longValue());
    }
  }

  /** The table's order: by CPU, highest first, a pod without a CPU figure last; then by namespace, name, UID. */
  private static int tableOrder(PodView a, PodView b, long[] times) {
    Number cpuA = latest(a.values(), 0, times);
    Number cpuB = latest(b.values(), 0, times);
    if (cpuA != null && cpuB != null) {
      int byCpu = Double.compare(cpuB.doubleValue(), cpuA.doubleValue());
      if (byCpu != 0) {
        return byCpu;
      }
    } else if (cpuA != null || cpuB != null) {
      return cpuA != null ? -1 : 1;
    }
    return Comparator.comparing(PodView::namespace)
        .thenComparing(PodView::name)
        .thenComparing(PodView::uid)
        .compare(a, b);
  }
}
