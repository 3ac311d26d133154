package io.winstats.perfcounters.counters;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A user-configured PDH counter exported as a Prometheus series.
 *
 * <p>Values ({@link InstanceValue#value()}):
 * <ul>
 *   <li>{@link Type#COUNTER}: cumulative. 100 ns timers become seconds (FirstValue × 10⁻⁷, as windows_exporter does);
 *       {@code PERF_ELAPSED_TIME} becomes seconds elapsed; any other type is its FirstValue, with 32-bit counters
 *       carried across their 2^32 wrap.
 *   <li>{@link Type#GAUGE}: PDH's own display value, computed from our raw samples with
 *       {@code PdhCalculateCounterFromRawValue} ({@code PDH_FMT_DOUBLE | PDH_FMT_NOCAP100}); a type that needs two
 *       samples gives no value on the first sample or for an instance seen for the first time.
 * </ul>
 *
 * @param path the English counter path, {@code \Object(Instance)\Counter}; a wildcard instance gives one value per
 *     instance with {@code _Total} aggregates dropped
 * @param metricName the Prometheus metric name
 * @param type counter or gauge
 * @param labels constant labels, sorted by name
 * @param instanceLabel the label that carries the instance name, or {@code null} for a path without instances
 */
public record CustomCounter(
    String path, String metricName, Type type, Map<String, String> labels, @Nullable String instanceLabel) {

  /** The Prometheus type. */
  public enum Type {
    GAUGE,
    COUNTER
  }

  private static final Pattern METRIC = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  public CustomCounter {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(metricName, "metricName");
    Objects.requireNonNull(type, "type");
    CounterPath parsed = CounterPath.parse(path);
    if (!METRIC.matcher(metricName).matches()) {
      throw new IllegalArgumentException("invalid metric name: " + metricName);
    }
    for (String name : labels.keySet()) {
      if (!LABEL.matcher(name).matches() || name.startsWith("__")) {
        throw new IllegalArgumentException("invalid label name: " + name);
      }
    }
    if (instanceLabel != null) {
      if (!LABEL.matcher(instanceLabel).matches() || labels.containsKey(instanceLabel)) {
        throw new IllegalArgumentException("invalid or duplicate instance label: " + instanceLabel);
      }
    } else if (parsed.wildcard()) {
      throw new IllegalArgumentException("a wildcard path needs an instance label: " + path);
    }
    labels = Collections.unmodifiableMap(new TreeMap<>(labels));
  }

  /** The parsed path. */
  public CounterPath counterPath() {
    return CounterPath.parse(path);
  }
}
