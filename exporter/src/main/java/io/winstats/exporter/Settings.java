package io.winstats.exporter;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The catalogue of the daemon's settings: each is declared once, in its group's class ({@link WebSettings},
 * {@link MetricsSettings}, {@link CollectorSettings}, {@link CriSettings}, {@link SamplingSettings}, {@link
 * NodeSettings}, {@link OtlpSettings}, {@link LogSettings}), and listed beside its declaration in that group's list
 * ({@code ALL}; the collectors' {@code SWITCHES}), in usage order; {@link #ALL} joins the groups. The command line, the
 * configuration file, {@code --print-config} and {@code --help} read this list, and {@link ExporterCommand#toConfig}
 * keeps every setting's effective value in {@link SettingValues}, which the daemon reads by the setting. Flag names are
 * spelled as Prometheus exporters spell theirs. README's flag table lists the same settings ({@code
 * ReadmeFlagTableTest}).
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

  /** The settings of the command line alone, in usage order: after the OTLP push, before the log's. */
  private static final List<Setting<?>> COMMAND_LINE = List.of(CONFIG_FILE, PRINT_CONFIG);

  /** Every setting, in usage order ({@code --help}'s): the groups' lists, one after another. */
  static final List<Setting<?>> ALL =
      Stream.of(
              WebSettings.ALL,
              MetricsSettings.ALL,
              CollectorSettings.SWITCHES,
              CriSettings.ALL,
              SamplingSettings.ALL,
              NodeSettings.ALL,
              OtlpSettings.ALL,
              COMMAND_LINE,
              LogSettings.ALL)
          .<Setting<?>>flatMap(List::stream)
          .toList();

  /** The settings a configuration file may hold, in usage order. */
  static List<Setting<?>> inFile() {
    return ALL.stream().filter(Setting::inFile).toList();
  }

  /** The setting a file key names, or null. */
  static @Nullable Setting<?> byName(String name) {
    return ALL.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
  }
}
