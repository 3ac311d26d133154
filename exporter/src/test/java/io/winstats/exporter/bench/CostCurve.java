package io.winstats.exporter.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * How the node's cost grows with its pods (issue 45): {@code bench/node}'s steady-window figures at each pod count,
 * the marginal cost per pod against the smallest count, and a small SVG of both panels (CPU, RSS) over the pods.
 */
final class CostCurve {
  /** One pod count's steady window: the daemon's CPU, the runtime CPU it causes, its average RSS. */
  record Point(int pods, double daemonMcpu, double runtimeCausedMcpu, double rssAvgMiB) {
    double billMcpu() {
      return daemonMcpu + runtimeCausedMcpu;
    }
  }

  private final List<Point> points;

  CostCurve(List<Point> points) {
    List<Point> sorted = new ArrayList<>(points);
    sorted.sort(Comparator.comparingInt(Point::pods));
    this.points = List.copyOf(sorted);
  }

  /**
   * (C_n - C_base) / (n - base) for each count above the smallest: the cost one more pod adds, the same way at 110 and
   * at 250 pods so the two can be compared ("no higher" at 250).
   */
  static double marginal(Point base, Point at, ToDoubleFunction<Point> figure) {
    return (figure.applyAsDouble(at) - figure.applyAsDouble(base)) / (at.pods() - base.pods());
  }

  /** A markdown table of the marginal cost per pod at each count above the smallest; empty under two counts. */
  String marginalTable() {
    if (points.size() < 2) {
      return "";
    }
    Point base = points.get(0);
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "%nMarginal cost per pod against %d pods:%n", base.pods()));
    b.append("| pods | daemon mCPU per pod | the bill mCPU per pod | RSS MiB per pod |\n|---|---|---|---|\n");
    for (Point p : points.subList(1, points.size())) {
      b.append(String.format(Locale.ROOT, "| %d | %.4f | %.4f | %.4f |%n", p.pods(),
          marginal(base, p, Point::daemonMcpu), marginal(base, p, Point::billMcpu),
          marginal(base, p, Point::rssAvgMiB)));
    }
    return b.toString();
  }

  private static final double PANEL_W = 320;
  private static final double PANEL_H = 220;
  private static final double LEFT = 60;
  private static final double TOP = 40;
  private static final double GAP = 90;

  /** Two panels over the pod counts: CPU (the daemon, and the daemon with the runtime CPU it causes), and RSS. */
  String svg(String caption) {
    double width = LEFT + 2 * PANEL_W + GAP + 30;
    double height = TOP + PANEL_H + 70;
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\""
            + " font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n", width, height));
    b.append(String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"18\">%s</text>%n", LEFT, escape(caption)));
    panel(b, LEFT, "CPU, mCPU", List.of(
        new Line("daemon", "#1f77b4", Point::daemonMcpu),
        new Line("daemon + runtime CPU it causes", "#d62728", Point::billMcpu)));
    panel(b, LEFT + PANEL_W + GAP, "RSS, MiB (steady window average)", List.of(
        new Line("daemon RSS", "#2ca02c", Point::rssAvgMiB)));
    b.append("</svg>\n");
    return b.toString();
  }

  private record Line(String name, String colour, ToDoubleFunction<Point> figure) {}

  private void panel(StringBuilder b, double left, String title, List<Line> lines) {
    double maxX = Math.max(1, points.get(points.size() - 1).pods());
    double maxY = 0;
    for (Line l : lines) {
      for (Point p : points) {
        maxY = Math.max(maxY, l.figure().applyAsDouble(p));
      }
    }
    double step = niceStep(maxY);
    double yTop = Math.max(step, Math.ceil(maxY / step) * step);
    b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%s</text>%n", left, TOP - 8, escape(title)));
    for (double y = 0; y <= yTop + step / 2; y += step) {
      double py = TOP + PANEL_H - y / yTop * PANEL_H;
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
          + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left, py, left + PANEL_W, py, left - 6,
          py + 4, trim(y)));
    }
    for (Point p : points) {
      double px = left + p.pods() / maxX * PANEL_W;
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
          + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>%n", px, TOP, px, TOP + PANEL_H, px,
          TOP + PANEL_H + 16, p.pods()));
    }
    b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">pods (two containers"
        + " each)</text>%n", left + PANEL_W / 2, TOP + PANEL_H + 34));
    int i = 0;
    for (Line l : lines) {
      StringBuilder at = new StringBuilder();
      for (Point p : points) {
        double px = left + p.pods() / maxX * PANEL_W;
        double py = TOP + PANEL_H - l.figure().applyAsDouble(p) / yTop * PANEL_H;
        at.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
        b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", px, py,
            l.colour()));
      }
      b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\""
          + " points=\"%s\"/>%n", l.colour(), at.toString().strip()));
      double ly = TOP + PANEL_H + 52; // legends side by side under the axis title
      double lx = left + i * 150;
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
          + " stroke-width=\"3\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>%n", lx, ly, lx + 16, ly, l.colour(), lx + 20,
          ly + 4, escape(l.name())));
      i++;
    }
  }

  /** 1, 2 or 5 times a power of ten, giving four to ten grid lines up to {@code max}. */
  static double niceStep(double max) {
    if (!(max > 0)) {
      return 1;
    }
    double raw = max / 5;
    double power = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * power >= raw) {
        return m * power;
      }
    }
    return 10 * power;
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
