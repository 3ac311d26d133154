package io.winstats.exporter.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the samples {@code bench/soak-nmt} writes (issue 44: one TSV row per minute of the daemon's RSS, threads,
 * descriptors, code cache in use and the committed KB of each Native Memory Tracking area) and prints, per column, the
 * value after {@code skip} minutes, the last value and the least-squares slope per hour from that minute on; then
 * writes an SVG of RSS, NMT's total commit and its largest areas over the run.
 *
 * <p>Run with {@code bench/soak-slope SAMPLES.tsv [skip=30] [svg=docs/soak-memory.svg]}.
 */
public final class SoakChart {
  /** The samples: minutes since the first, and each column's values (KB for memory columns). */
  record Samples(List<Double> minutes, Map<String, List<Double>> columns, List<String> loads) {
    static Samples parse(List<String> lines) {
      if (lines.isEmpty()) {
        throw new IllegalArgumentException("no header");
      }
      String[] header = lines.get(0).split("\t", -1);
      if (header.length < 3 || !header[0].equals("time") || !header[1].equals("load")) {
        throw new IllegalArgumentException("expected a header time, load, ...: " + lines.get(0));
      }
      Map<String, List<Double>> columns = new LinkedHashMap<>();
      for (int i = 2; i < header.length; i++) {
        columns.put(header[i], new ArrayList<>());
      }
      List<Double> minutes = new ArrayList<>();
      List<String> loads = new ArrayList<>();
      Instant first = null;
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.split("\t", -1);
        if (f.length != header.length) {
          continue; // a row written while the daemon exited: fewer areas than the header
        }
        Instant at = Instant.parse(f[0]);
        first = first == null ? at : first;
        minutes.add(Duration.between(first, at).toMillis() / 60_000.0);
        loads.add(f[1]);
        for (int i = 2; i < header.length; i++) {
          columns.get(header[i]).add(f[i].equals("NA") ? Double.NaN : Double.parseDouble(f[i]));
        }
      }
      return new Samples(minutes, columns, loads);
    }
  }

  private SoakChart() {}

  /** The least-squares slope of {@code y} over {@code x} (per unit of x) for the points with x at or after from. */
  static double slope(List<Double> x, List<Double> y, double from) {
    double n = 0;
    double sx = 0;
    double sy = 0;
    for (int i = 0; i < x.size(); i++) {
      if (x.get(i) >= from && !y.get(i).isNaN()) {
        n++;
        sx += x.get(i);
        sy += y.get(i);
      }
    }
    if (n < 2) {
      return Double.NaN;
    }
    double mx = sx / n;
    double my = sy / n;
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < x.size(); i++) {
      if (x.get(i) >= from && !y.get(i).isNaN()) {
        sxy += (x.get(i) - mx) * (y.get(i) - my);
        sxx += (x.get(i) - mx) * (x.get(i) - mx);
      }
    }
    return sxx == 0 ? Double.NaN : sxy / sxx;
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: SoakChart SAMPLES.tsv [skip=30] [svg=PATH]");
    }
    double skip = 30;
    Path svg = null;
    for (String a : List.of(args).subList(1, args.length)) {
      if (a.startsWith("skip=")) {
        skip = Double.parseDouble(a.substring(5));
      } else if (a.startsWith("svg=")) {
        svg = Path.of(a.substring(4));
      } else {
        throw new IllegalArgumentException("unknown option " + a);
      }
    }
    Samples s = Samples.parse(Files.readAllLines(Path.of(args[0])));
    List<Double> m = s.minutes();
    double end = m.get(m.size() - 1);
    System.out.printf(Locale.ROOT, "%d samples over %.1f min; load %s .. %s; slope from minute %.0f on%n%n",
        m.size(), end, s.loads().get(0), s.loads().get(s.loads().size() - 1), skip);
    System.out.println("| column | first | at minute " + (int) skip + " | last | slope per hour after |");
    System.out.println("|---|---|---|---|---|");
    for (Map.Entry<String, List<Double>> c : s.columns().entrySet()) {
      List<Double> v = c.getValue();
      boolean kb = c.getKey().endsWith("_kb") || Character.isUpperCase(c.getKey().charAt(0));
      double scale = kb ? 1024.0 : 1.0;
      String unit = kb ? " MiB" : "";
      int at = 0;
      while (at < m.size() - 1 && m.get(at) < skip) {
        at++;
      }
      System.out.printf(Locale.ROOT, "| %s | %.2f%s | %.2f%s | %.2f%s | %+.2f%s |%n", c.getKey(),
          v.get(0) / scale, unit, v.get(at) / scale, unit, v.get(v.size() - 1) / scale, unit,
          slope(m, v, skip) * 60 / scale, unit);
    }
    if (svg != null) {
      Files.writeString(svg, svg(s, skip));
      System.out.println("\nwrote " + svg);
    }
  }

  private static final String[] COLOURS = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"
  };

  /** RSS and NMT's total commit, and the five largest NMT areas at the end, in MiB over minutes. */
  static String svg(Samples s, double skip) {
    Map<String, List<Double>> lines = new LinkedHashMap<>();
    lines.put("RSS", s.columns().get("rss_kb"));
    lines.put("NMT total committed", s.columns().get("Total"));
    s.columns().entrySet().stream()
        .filter(e -> Character.isUpperCase(e.getKey().charAt(0)) && !e.getKey().equals("Total"))
        .sorted((a, b) -> Double.compare(last(b.getValue()), last(a.getValue())))
        .limit(5)
        .forEach(e -> lines.put("NMT " + e.getKey().replace('_', ' '), e.getValue()));
    lines.values().removeIf(v -> v == null);
    double width = 760;
    double height = 420;
    double left = 60;
    double right = 220;
    double top = 30;
    double bottom = 50;
    double maxX = Math.max(1, s.minutes().get(s.minutes().size() - 1));
    double maxY = 0;
    for (List<Double> v : lines.values()) {
      for (double d : v) {
        maxY = Double.isNaN(d) ? maxY : Math.max(maxY, d / 1024);
      }
    }
    double yTop = Math.ceil(maxY / 20) * 20;
    double plotW = width - left - right;
    double plotH = height - top - bottom;
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\""
            + " font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n", width, height));
    b.append(String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"18\">Daemon memory over the soak (MiB), generated by"
        + " SoakChart from bench/soak-nmt's samples</text>%n", left));
    for (double y = 0; y <= yTop; y += 20) {
      double py = top + plotH - y / yTop * plotH;
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
          + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>%n", left, py, left + plotW, py, left - 6,
          py + 4, y));
    }
    double stepX = maxX > 60 ? 20 : 10;
    for (double x = 0; x <= maxX; x += stepX) {
      double px = left + x / maxX * plotW;
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
          + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>%n", px, top, px, top + plotH, px,
          top + plotH + 16, x));
    }
    double skipX = left + Math.min(skip, maxX) / maxX * plotW;
    b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\""
        + " stroke-dasharray=\"4 3\"/>%n", skipX, top, skipX, top + plotH));
    b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">minutes since the"
        + " daemon's first sample (dashed: start of the slope)</text>%n", left + plotW / 2, height - 12));
    int i = 0;
    for (Map.Entry<String, List<Double>> e : lines.entrySet()) {
      String colour = COLOURS[i % COLOURS.length];
      StringBuilder points = new StringBuilder();
      List<Double> v = e.getValue();
      for (int k = 0; k < v.size(); k++) {
        if (!v.get(k).isNaN()) {
          points.append(String.format(Locale.ROOT, "%.1f,%.1f ", left + s.minutes().get(k) / maxX * plotW,
              top + plotH - v.get(k) / 1024 / yTop * plotH));
        }
      }
      b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\""
          + " points=\"%s\"/>%n", colour, points.toString().strip()));
      double ly = top + 10 + i * 18;
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
          + " stroke-width=\"3\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>%n", left + plotW + 12, ly, left + plotW + 30,
          ly, colour, left + plotW + 36, ly + 4, e.getKey()));
      i++;
    }
    b.append("</svg>\n");
    return b.toString();
  }

  private static double last(List<Double> v) {
    return v.isEmpty() ? 0 : v.get(v.size() - 1);
  }
}
