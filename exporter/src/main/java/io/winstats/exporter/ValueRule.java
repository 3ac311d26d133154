package io.winstats.exporter;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a setting's value may be, stated for those who check it before the daemon does (the Helm chart's schema and
 * templates, through {@code ConfigSchema}). The setting's parser stays the daemon's own check; {@code
 * SettingRulesTest} holds each rule to it.
 *
 * @param kind the value's kind, from the setting's placeholder
 * @param choices the only values taken, or empty for any of the kind
 * @param minimum the smallest number taken (a size: in bytes), or null
 * @param maximum the largest number taken, or null
 */
@RecordBuilder
record ValueRule(Kind kind, List<String> choices, @Nullable Long minimum, @Nullable Long maximum)
    implements ValueRuleBuilder.With {

  /** The kinds of value. */
  enum Kind {
    /** On or off: true or false in the file, {@code --name} or {@code --no-name} on the command line. */
    SWITCH,
    /** A Go duration such as {@code 10s} or {@code 1m30s}. */
    DURATION,
    /** A number of bytes, bare or with a unit ({@code 16384}, {@code 16KiB}). */
    SIZE,
    /** A whole number. */
    WHOLE_NUMBER,
    /** Any text (a path, an address, a word). */
    TEXT
  }

  ValueRule {
    Objects.requireNonNull(kind, "kind");
    choices = List.copyOf(choices);
  }

  /** The rule a placeholder implies: none is a switch, DURATION, SIZE and N their kinds, any other text. */
  static ValueRule of(String paramLabel) {
    Kind kind =
        switch (paramLabel) {
          case "" -> Kind.SWITCH;
          case "DURATION" -> Kind.DURATION;
          case "SIZE" -> Kind.SIZE;
          case "N" -> Kind.WHOLE_NUMBER;
          default -> Kind.TEXT;
        };
    return ValueRuleBuilder.builder().kind(kind).choices(List.of()).build();
  }

  /** This rule, for a number from {@code min} to {@code max}; {@code withChoices} (generated) gives the words. */
  ValueRule withRange(long min, long max) {
    return withMinimum(min).withMaximum(max);
  }
}
