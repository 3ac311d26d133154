package io.winstats.exporter;

import io.winstats.exporter.testing.PrometheusText;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decodes a {@code /metrics/resource} body with the rules metrics-server (v0.7, {@code pkg/scraper/client/resource})
 * applies, so that a test can tell what metrics-server would keep:
 *
 * <ul>
 *   <li>only the node, container and start-time series it knows, matched by name prefix up to {@code {};
 *   <li>labels found by searching for {@code container="}, {@code pod="} and {@code namespace="} in the label text;
 *   <li>a sample without a timestamp takes the scrape time;
 *   <li>the node is dropped unless it has a timestamp, non-zero CPU and non-zero memory;
 *   <li>a whole pod is dropped when any of its containers lacks CPU or memory.
 * </ul>
 */
public final class MetricsServerDecoder {
  public record Point(long cpuNanos, long memoryBytes, long timestampMillis, double startTimeSeconds) {}

  public record Batch(Point node, Map<String, Map<String, Point>> pods) {}

  private MetricsServerDecoder() {}

  public static Batch decode(String body, long scrapeMillis) {
    long[] node = new long[3]; // cpu, memory, timestamp
    Map<String, Map<String, long[]>> pods = new LinkedHashMap<>();
    Map<String, Map<String, Double>> starts = new LinkedHashMap<>();
    for (PrometheusText s : PrometheusText.parse(body)) {
      long ts = s.timestampMillis() == null ? scrapeMillis : s.timestampMillis();
      switch (s.name()) {
        case "node_cpu_usage_seconds_total" -> {
          node[0] = (long) (s.value() * 1e9);
          node[2] = ts;
        }
        case "node_memory_working_set_bytes" -> {
          node[1] = (long) s.value();
          node[2] = ts;
        }
        case "container_cpu_usage_seconds_total", "container_memory_working_set_bytes" -> {
          long[] c = container(pods, s);
          if (s.name().startsWith("container_cpu")) {
            c[0] = (long) (s.value() * 1e9);
          } else {
            c[1] = (long) s.value();
          }
          c[2] = ts;
        }
        case "container_start_time_seconds" -> {
          container(pods, s);
          starts.computeIfAbsent(podKey(s), k -> new LinkedHashMap<>()).put(s.labels().getOrDefault("container", ""), s.value());
        }
        default -> {}
      }
    }
    Point nodePoint = node[2] == 0 || node[0] == 0 || node[1] == 0 ? null : new Point(node[0], node[1], node[2], 0);
    Map<String, Map<String, Point>> kept = new LinkedHashMap<>();
    pods.forEach(
        (pod, containers) -> {
          Map<String, Point> points = new LinkedHashMap<>();
          for (Map.Entry<String, long[]> c : containers.entrySet()) {
            long[] v = c.getValue();
            if (v[0] == 0 || v[1] == 0) {
              return; // metrics-server drops the whole pod
            }
            double start = starts.getOrDefault(pod, Map.of()).getOrDefault(c.getKey(), 0.0);
            points.put(c.getKey(), new Point(v[0], v[1], v[2], start));
          }
          if (!points.isEmpty()) {
            kept.put(pod, points);
          }
        });
    return new Batch(nodePoint, kept);
  }

  private static long[] container(Map<String, Map<String, long[]>> pods, PrometheusText s) {
    return pods.computeIfAbsent(podKey(s), k -> new LinkedHashMap<>())
        .computeIfAbsent(s.labels().getOrDefault("container", ""), k -> new long[3]);
  }

  private static String podKey(PrometheusText s) {
    return s.labels().getOrDefault("namespace", "") + "/" + s.labels().getOrDefault("pod", "");
  }
}
