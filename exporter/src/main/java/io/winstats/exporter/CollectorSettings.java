package io.winstats.exporter;

import io.winstats.exporter.metrics.Collector;
import io.winstats.exporter.metrics.EnabledCollectors;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The collectors' switches ({@code collector.*}), one per {@link Collector} row, in {@link #SWITCHES}: a
 * collector on by default is turned off by {@code --no-collector.NAME}, one off by default turned on by {@code
 * --collector.NAME}; either is {@code collector.NAME: true|false} in the file.
 */
final class CollectorSettings {
  private CollectorSettings() {}

  /** Each row's switch. */
  private static final Map<Collector, Setting<Boolean>> BY_COLLECTOR = switches();

  /** The switches, in the rows' order, which is their usage order ({@code --help}'s). */
  static final List<Setting<Boolean>> SWITCHES = List.copyOf(BY_COLLECTOR.values());

  private static Map<Collector, Setting<Boolean>> switches() {
    Map<Collector, Setting<Boolean>> switches = new EnumMap<>(Collector.class);
    Arrays.stream(Collector.values()).forEach(c -> switches.put(c, of(c)));
    return switches;
  }

  private static Setting<Boolean> of(Collector collector) {
    String name = "collector." + collector.flagName();
    return collector.onByDefault()
        ? Setting.onSwitch(name, collector.help())
        : Setting.offSwitch(name, collector.help());
  }

  /** The collectors turned on, each by its switch's value. */
  static EnabledCollectors enabled(Function<Setting<Boolean>, Boolean> value) {
    Set<Collector> on = EnumSet.noneOf(Collector.class);
    BY_COLLECTOR.forEach(
        (collector, setting) -> {
          if (value.apply(setting)) {
            on.add(collector);
          }
        });
    return new EnabledCollectors(on);
  }
}
