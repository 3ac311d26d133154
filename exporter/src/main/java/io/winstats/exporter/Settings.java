package io.winstats.exporter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The catalogue of the daemon's settings: each is declared once, in its group's class ({@link WebSettings},
 * {@link MetricsSettings}, {@link CollectorSettings}, {@link CriSettings}, {@link SamplingSettings}, {@link
 * NodeSettings}, {@link OtlpSettings}, {@link LogSettings}), and listed here in usage order. The command line, the
 * configuration file, {@code --print-config} and {@code --help} read this list. Flag names are spelled as Prometheus
 * exporters spell theirs. README's flag table lists the same settings ({@code ReadmeFlagTableTest}).
 */
final class Settings {
  private Settings() {}

  static final Setting<Path> CONFIG_FILE =
      Setting.commandLineOnly(
          "config.file",
          "FILE",
          "YAML file with any of these settings (web.listen-address: ..., nested or dotted) and perfcounters:"
              + " custom PDH counters. Flags given here override it.",
          Path::of);

  static final Setting<Boolean> PRINT_CONFIG =
      Setting.commandLineOnly(
          "print-config", "", "Print the effective configuration as YAML and exit.", Boolean::valueOf);

  /** Every setting, in usage order; the collectors' switches are one per collector row. */
  static final List<Setting<?>> ALL = inUsageOrder();

  private static List<Setting<?>> inUsageOrder() {
    List<Setting<?>> all =
        new ArrayList<>(
            List.of(
                WebSettings.LISTEN_ADDRESS,
                WebSettings.CONFIG_FILE,
                WebSettings.BEARER_TOKEN_FILE,
                WebSettings.MAX_HEADER_BYTES,
                WebSettings.MAX_BODY_BYTES,
                WebSettings.REQUEST_TIMEOUT,
                WebSettings.IDLE_TIMEOUT,
                WebSettings.MAX_CONNECTIONS,
                WebSettings.TELEMETRY_PATH,
                WebSettings.DISABLE_EXPORTER_METRICS,
                WebSettings.NODE_PAGE,
                MetricsSettings.INCLUDE,
                MetricsSettings.EXCLUDE));
    all.addAll(CollectorSettings.SWITCHES);
    all.addAll(
        List.of(
            CriSettings.ENDPOINT,
            CriSettings.TIMEOUT,
            CriSettings.STATS_CALL,
            CriSettings.WINDOWS_STATS,
            SamplingSettings.INTERVAL,
            NodeSettings.SOURCE,
            NodeSettings.MEMORY_WORKING_SET,
            NodeSettings.KUBELET_ROOT_DIR,
            NodeSettings.SERVICE_INCLUDE,
            NodeSettings.SERVICE_EXCLUDE,
            NodeSettings.NAME,
            SamplingSettings.RECORD,
            OtlpSettings.ENABLED,
            OtlpSettings.INTERVAL,
            CONFIG_FILE,
            PRINT_CONFIG,
            LogSettings.LEVEL,
            LogSettings.FORMAT));
    return List.copyOf(all);
  }

  /** The settings a configuration file may hold, in usage order. */
  static List<Setting<?>> inFile() {
    return ALL.stream().filter(Setting::inFile).toList();
  }

  /** The setting a file key names, or null. */
  static @Nullable Setting<?> byName(String name) {
    return ALL.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
  }
}
