package io.winstats.exporter;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One setting of the daemon, declared once in its group's class ({@link WebSettings}, {@link CriSettings}, ...) and
 * listed there in its group's usage order, which {@link Settings#ALL} joins: the flag is {@code --name}, and a
 * setting the file may hold has the YAML key {@code name}, nested by its dots or written with them. The command line
 * ({@link ExporterCommand}), the file ({@link ConfigFile}) and {@code --print-config} all read this declaration, and
 * the daemon reads the effective value by the setting ({@code config.settings().value(WebSettings.X)}).
 *
 * @param name the flag without its dashes, and the YAML key
 * @param paramLabel the value's placeholder in the usage ({@code DURATION}); empty for a switch (on when given; one
 *     on by default is turned off by {@code --no-name})
 * @param defaultValue the text used when neither the command line nor the file gives one, or null for none
 * @param help the usage text, without the default, which the usage adds
 * @param inFile whether the configuration file may hold it ({@code --config.file} and {@code --print-config} may not)
 * @param parser checks a text value and converts it; applied to flag, file and default values alike
 * @param printed what {@code --print-config} writes, from the effective configuration, or null to write the value as
 *     its kind reads ({@link #printedValue(ExporterConfig)})
 * @param rule what the value may be, as the Helm chart's schema and checks state it ({@code ConfigSchema}); the
 *     parser is the daemon's own check, and a test holds the two together
 * @param example a value other than the default, which {@code SettingsTest} gives by flag and by file (a switch's is
 *     the state it is not in by default); null for none, as for a setting whose file the test writes
 * @param <T> the checked value's type
 */
@RecordBuilder
record Setting<T>(
    String name,
    String paramLabel,
    @Nullable String defaultValue,
    String help,
    boolean inFile,
    Parser<T> parser,
    @Nullable Function<ExporterConfig, @Nullable Object> printed,
    ValueRule rule,
    @Nullable String example)
    implements SettingBuilder.With<T> {

  Setting {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(paramLabel, "paramLabel");
    Objects.requireNonNull(help, "help");
    Objects.requireNonNull(parser, "parser");
    Objects.requireNonNull(rule, "rule");
  }

  /** This setting, whose value is one of {@code words} (as {@code --print-config} writes them). */
  Setting<T> withChoices(List<String> words) {
    return withRule(rule.withChoices(words));
  }

  /** This setting, whose value is a number (a size: of bytes) from {@code minimum} to {@code maximum}. */
  Setting<T> withRange(long minimum, long maximum) {
    return withRule(rule.withRange(minimum, maximum));
  }

  /**
   * What {@code --print-config} writes for this setting, or null for nothing (no value, or not a file's setting):
   * its {@link #printed()} function's answer, else its value as its kind reads: a duration as {@link DurationFlag}
   * writes it, a size as {@link ByteSizeFlag} does, a switch or another number as itself, anything else as its text.
   */
  @Nullable Object printedValue(ExporterConfig config) {
    if (!inFile) {
      return null;
    }
    if (printed != null) {
      return printed.apply(config);
    }
    Object value = config.settings().optional(this);
    if (value == null || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Duration duration) {
      return DurationFlag.format(duration);
    }
    if (value instanceof Number number) {
      return rule.kind() == ValueRule.Kind.SIZE ? ByteSizeFlag.format(number.longValue()) : number;
    }
    return value.toString();
  }

  /** Checks and converts a text value. */
  @FunctionalInterface
  interface Parser<T> {
    /**
     * Checks {@code text} and converts it.
     *
     * @return the value, or null for a text that means none (an empty file path)
     * @throws IllegalArgumentException with the problem, which is reported as {@code --name: message}
     * @throws Invalid with problems that already name their place, reported as they are
     */
    @Nullable T parse(String text);
  }

  /** Problems with a value that name their own place (such as the lines of a web configuration file). */
  static final class Invalid extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    Invalid(List<String> problems) {
      super(String.join("; ", problems));
      this.problems = List.copyOf(problems);
    }

    List<String> problems() {
      return problems;
    }
  }

  /**
   * A setting with a value: {@code --name=LABEL} on the command line, the key {@code name} in the file; {@code
   * --print-config} writes the value as its kind reads ({@link #printedValue(ExporterConfig)}).
   */
  static <T> Setting<T> valued(
      String name, String paramLabel, @Nullable String defaultValue, String help, Parser<T> parser) {
    return declared(name, paramLabel, defaultValue, help, parser).build();
  }

  /** A setting with a value that {@code --print-config} writes as {@code printed} answers. */
  static <T> Setting<T> valued(
      String name,
      String paramLabel,
      @Nullable String defaultValue,
      String help,
      Parser<T> parser,
      Function<ExporterConfig, @Nullable Object> printed) {
    return declared(name, paramLabel, defaultValue, help, parser).printed(printed).build();
  }

  /** An on/off setting, off by default: given alone on the command line it is on; in the file, true or false. */
  static Setting<Boolean> offSwitch(String name, String help) {
    return declared(name, "", "false", help, SettingChecks::bool).example("true").build();
  }

  /** An on/off setting, on by default: {@code --no-name} (or {@code false} in the file) turns it off. */
  static Setting<Boolean> onSwitch(String name, String help) {
    return declared(name, "", "true", help, SettingChecks::bool).example("false").build();
  }

  /** A setting of the command line alone, which the file may not hold and {@code --print-config} does not print. */
  static <T> Setting<T> commandLineOnly(String name, String paramLabel, String help, Parser<T> parser) {
    return declared(name, paramLabel, null, help, parser).inFile(false).build();
  }

  /** A setting the file may hold, with its rule from its label, no printed function and no example yet. */
  private static <T> SettingBuilder<T> declared(
      String name, String paramLabel, @Nullable String defaultValue, String help, Parser<T> parser) {
    return SettingBuilder.<T>builder()
        .name(name)
        .paramLabel(paramLabel)
        .defaultValue(defaultValue)
        .help(help)
        .inFile(true)
        .parser(parser)
        .rule(ValueRule.of(paramLabel));
  }

  /** The flag, {@code --name}. */
  String flag() {
    return "--" + name;
  }

  /** A switch takes no value: given is true. */
  boolean isSwitch() {
    return paramLabel.isEmpty();
  }

  /** A switch that is on unless turned off: {@code --no-name} turns it off, as kingpin's negatable flags do. */
  boolean isNegatable() {
    return isSwitch() && "true".equals(defaultValue);
  }
}
