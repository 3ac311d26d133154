package io.winstats.exporter.bench;

import io.winstats.exporter.testing.DaemonProcess;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The node page's cost (issue 47), run by {@code bench/node viewers=0,1,5}: on the same daemon and pods, windows with
 * that many {@link PageViewer}s open, interleaved (each round in turn forwards and backwards, so a drift of the
 * machine or of the history still filling falls on every count alike), each compared with the unviewed window of its
 * own round. The daemon's CPU is its process CPU time over the window (work done, not latency: the machine is shared).
 */
final class PageCost {
  /** One window's measurement, for {@link #measure}. */
  @FunctionalInterface
  interface Window {
    NodeBenchmark.Footprint measure() throws Exception;
  }

  /** One window: its pods, round, viewers, the history reads they made, and the daemon's figures over it. */
  record Row(
      int pods, int round, int viewers, long historyReads, double cpuMillis, double rssAvgMiB, double rssMaxMiB) {}

  private PageCost() {}

  /** Every round's windows, in the order they ran; {@code viewers} must hold 0 (each round's reference). */
  static List<Row> windows(
      int pods, List<Integer> viewers, int rounds, Window window, String base, DaemonProcess daemon) throws Exception {
    if (!viewers.contains(0)) {
      throw new IllegalArgumentException("viewers must include 0, the unviewed reference, got " + viewers);
    }
    List<Row> rows = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      List<Integer> order = new ArrayList<>(viewers);
      if (round % 2 == 1) {
        Collections.reverse(order);
      }
      for (int v : order) {
        List<PageViewer> open = new ArrayList<>();
        NodeBenchmark.Footprint f;
        try {
          for (int i = 0; i < v; i++) {
            open.add(PageViewer.open(base, i));
          }
          f = window.measure();
        } finally {
          for (PageViewer viewer : open) {
            viewer.close();
          }
        }
        long reads = open.stream().mapToLong(PageViewer::historyRequests).sum();
        Row row = new Row(pods, round, v, reads, f.cpuMillis(), f.rssAvgMiB(), f.rssMaxMiB());
        System.out.printf(
            Locale.ROOT,
            "%d pods, round %d, %d viewers: %d history reads, %.1f mCPU, RSS %.1f MiB avg, %.1f max (pid %d)%n",
            pods, round, v, reads, f.cpuMillis(), f.rssAvgMiB(), f.rssMaxMiB(), daemon.pid());
        rows.add(row);
      }
    }
    return rows;
  }

  /** The ratio of a window's figure to the unviewed window of the same pods and round. */
  static double ratio(List<Row> rows, Row row, boolean cpu) {
    Row reference =
        rows.stream()
            .filter(r -> r.pods() == row.pods() && r.round() == row.round() && r.viewers() == 0)
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no unviewed window in round " + row.round()));
    return cpu ? row.cpuMillis() / reference.cpuMillis() : row.rssAvgMiB() / reference.rssAvgMiB();
  }

  static void print(List<Row> rows, int windowSeconds, int warmupSeconds) {
    System.out.printf(
        "%nThe node page's cost: %d s windows after %d s of warm-up, interleaved; ratios against the unviewed window"
            + " of the same round%n| pods | round | viewers | history reads | daemon mCPU | RSS MiB avg | RSS MiB max"
            + " | mCPU / unviewed | RSS / unviewed |%n|---|---|---|---|---|---|---|---|---|%n",
        windowSeconds, warmupSeconds);
    for (Row r : rows) {
      System.out.printf(
          Locale.ROOT, "| %d | %d | %d | %d | %.1f | %.1f | %.1f | %.2f | %.3f |%n",
          r.pods(), r.round(), r.viewers(), r.historyReads(), r.cpuMillis(), r.rssAvgMiB(), r.rssMaxMiB(),
          ratio(rows, r, true), ratio(rows, r, false));
    }
  }
}
