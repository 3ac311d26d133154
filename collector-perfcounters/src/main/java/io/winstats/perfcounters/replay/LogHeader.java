package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.LoggedCounter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The counter columns of a {@link CounterLog}'s header, looked up by object, instance and counter, case-insensitively
 * as PDH matches them. Only the first host of a multi-host (relog-merged) log is indexed.
 */
final class LogHeader {
  private final List<@Nullable CounterPath> columns;
  private final @Nullable String host;
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, Set<String>> instancesByObject = new HashMap<>();

  /** One instance's columns of a counter set, for each counter the instance needs. */
  record InstanceColumns<C extends Enum<C> & LoggedCounter>(String instance, Map<C, Integer> columns) {
    /** The column of {@code counter}; a plan from {@link LogHeader#complete} has one for each counter it needs. */
    int column(C counter) {
      return Objects.requireNonNull(columns.get(counter), () -> instance + " has no column for " + counter.counter());
    }
  }

  LogHeader(List<@Nullable CounterPath> columns) {
    this.columns = columns;
    CounterPath first = columns.stream().filter(Objects::nonNull).findFirst().orElse(null);
    this.host = first == null ? null : first.host();
    for (int i = 0; i < columns.size(); i++) {
      CounterPath path = columns.get(i);
      if (path != null && sameHost(path.host(), host)) {
        index.putIfAbsent(key(path.object(), path.instance(), path.counter()), i);
        if (path.instance() != null) {
          instancesByObject
              .computeIfAbsent(path.object().toLowerCase(Locale.ROOT), o -> new LinkedHashSet<>())
              .add(path.instance());
        }
      }
    }
  }

  /** The host of the first counter column, whose counters are read; null when it is a local path or there is none. */
  @Nullable String host() {
    return host;
  }

  /** The path of column {@code column}, for messages. */
  @Nullable CounterPath path(int column) {
    return columns.get(column);
  }

  /** The instances of {@code object} in header order, empty when the log has none. */
  Set<String> instances(String object) {
    return instancesByObject.getOrDefault(object.toLowerCase(Locale.ROOT), Set.of());
  }

  @Nullable Integer column(String object, @Nullable String instance, LoggedCounter counter) {
    return index.get(key(object, instance, counter.counter()));
  }

  /** The columns of {@code type}'s counters that {@code object(instance)} has. */
  <C extends Enum<C> & LoggedCounter> Map<C, Integer> columns(
      String object, @Nullable String instance, Class<C> type) {
    Map<C, Integer> result = new EnumMap<>(type);
    for (C counter : type.getEnumConstants()) {
      Integer column = column(object, instance, counter);
      if (column != null) {
        result.put(counter, column);
      }
    }
    return result;
  }

  /** The instances that have every counter of {@code needed} (every constant of {@code type} when null). */
  <C extends Enum<C> & LoggedCounter> List<InstanceColumns<C>> complete(
      String object, Set<String> instances, Class<C> type, @Nullable Set<C> needed) {
    Set<C> required = needed == null ? Set.of(type.getEnumConstants()) : needed;
    List<InstanceColumns<C>> plans = new ArrayList<>();
    for (String instance : instances) {
      Map<C, Integer> byCounter = columns(object, instance, type);
      byCounter.keySet().retainAll(required);
      if (byCounter.keySet().containsAll(required)) {
        plans.add(new InstanceColumns<>(instance, byCounter));
      }
    }
    return plans;
  }

  /** Why no instance is {@link #complete}: what the first instance lacks. */
  <C extends Enum<C> & LoggedCounter> String incomplete(
      String object, Set<String> instances, Class<C> type, @Nullable Set<C> needed) {
    Set<C> required = needed == null ? Set.of(type.getEnumConstants()) : needed;
    String instance = instances.iterator().next();
    Set<C> present = columns(object, instance, type).keySet();
    String lacking =
        required.stream()
            .filter(c -> !present.contains(c))
            .sorted()
            .map(LoggedCounter::counter)
            .collect(Collectors.joining(", "));
    return "no instance of " + object + "(*) has every counter the node model needs; " + object + "(" + instance
        + ") lacks " + lacking;
  }

  /** Host names compare as PDH compares them, case-insensitively; a local path (no host) matches only another. */
  private static boolean sameHost(@Nullable String a, @Nullable String b) {
    return a == null ? b == null : a.equalsIgnoreCase(b);
  }

  private static String key(String object, @Nullable String instance, String counter) {
    return object.toLowerCase(Locale.ROOT) + '\u0000' + (instance == null ? "" : instance) + '\u0000'
        + counter.toLowerCase(Locale.ROOT);
  }
}
