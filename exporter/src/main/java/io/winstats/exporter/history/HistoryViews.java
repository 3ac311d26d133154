package io.winstats.exporter.history;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Stretches of history copied out of {@link NodeHistory} under its lock, to be written as JSON outside it. Each holds
 * the sample times, oldest first, and per figure of its list the values held at those times ({@link Series#ABSENT}
 * where absent). Nobody changes the arrays once a view is made.
 */
final class HistoryViews {
  private HistoryViews() {}

  /**
   * The values of a figure list at a view's times.
   *
   * @param figures the list the rows follow ({@link Figure#NODE}, {@link Figure#POD} or {@link Figure#CONTAINER})
   * @param values a row per figure, a column per time
   */
  @SuppressWarnings("ArrayRecordComponent") // a copy made for one JSON body, never compared
  record Values(List<Figure> figures, long[][] values) {
    /**
     * The value served for figure row {@code f} at time {@code i}: a gauge as held, a cumulative figure as its rate
     * per second since the time before; {@code null} where absent, at the first time, across a reset (a decrease)
     * or where the times do not advance.
     */
    @Nullable Number served(int f, int i, long[] times) {
      long v = values[f][i];
      if (v == Series.ABSENT) {
        return null;
      }
      if (!figures.get(f).cumulative()) {
        return v;
      }
      if (i == 0) {
        return null;
      }
      long before = values[f][i - 1];
      long millis = times[i] - times[i - 1];
      if (before == Series.ABSENT || v < before || millis <= 0) {
        return null;
      }
      return (v - before) * 1000.0 / millis;
    }
  }

  /** A container of a pod: its name and its values. */
  record ContainerView(String name, Values values) {}

  /**
   * A pod: who it is, whether it was in the newest runtime sample, its values and its containers', by name.
   */
  record PodView(String namespace, String name, String uid, boolean present, Values values,
      List<ContainerView> containers) {
    PodView {
      containers = List.copyOf(containers);
    }
  }

  /**
   * What {@code /api/v1/history/node} serves.
   *
   * @param nodeTimes the node samples' times, epoch milliseconds
   * @param node the node's values at them
   * @param podTimes the times of the newest two runtime samples (for the rates of the pods' latest values)
   * @param pods the pods of the newest runtime sample, each with its values at {@code podTimes}
   * @param droppedSeries pods and containers left out since start because the history was at its limit
   */
  @SuppressWarnings("ArrayRecordComponent") // a copy made for one JSON body, never compared
  record NodeView(
      int samples, long[] nodeTimes, Values node, long[] podTimes, List<PodView> pods, long droppedSeries) {
    NodeView {
      pods = List.copyOf(pods);
    }
  }

  /** What {@code /api/v1/history/pod} serves: the runtime samples' times and one pod's values at them. */
  @SuppressWarnings("ArrayRecordComponent") // a copy made for one JSON body, never compared
  record PodHistory(int samples, long[] times, PodView pod) {}
}
