package io.winstats.exporter;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Every setting's effective value, checked by its setting's parser (the command line over the file over the default),
 * read by the setting: {@code config.settings().value(WebSettings.X)}. A setting read this way needs no component of
 * {@link ExporterConfig} of its own. Immutable.
 */
final class SettingValues {
  private final Map<Setting<?>, Object> values;

  SettingValues(Map<Setting<?>, Object> values) {
    this.values = Map.copyOf(values);
  }

  /**
   * The value of a setting with a default.
   *
   * @throws IllegalStateException when it has none: it has no default (read it with {@link #optional}), or it is in
   *     no group's list of {@link Settings#ALL}
   */
  <T> T value(Setting<T> setting) {
    T value = optional(setting);
    if (value == null) {
      throw new IllegalStateException(
          setting.flag() + " has no value: a setting without a default is read with optional, and one in no group's"
              + " list (Settings.ALL) has none");
    }
    return value;
  }

  /** The value, or null when none was given and the setting has no default (or an empty one that means none). */
  @SuppressWarnings("unchecked") // put by the setting's own parser
  <T> @Nullable T optional(Setting<T> setting) {
    return (T) values.get(setting);
  }
}
