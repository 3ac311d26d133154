package io.winstats.exporter.logging;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jspecify.annotations.Nullable;

/**
 * A record of the daemon's own: the event's fields, each value as given (quoted only when written), and the words of
 * the message that were not a field.
 */
final class EventRecord extends LogRecord {
  private static final long serialVersionUID = 1L;

  /**
   * One {@code key=value} of an event.
   *
   * @param value the text logfmt writes
   * @param typed the argument itself when the value is one argument that is a number or a boolean (JSON writes it
   *     as one), else {@code null}
   */
  record Field(String key, String value, @Nullable Object typed) {
    Field(String key, String value) {
      this(key, value, null);
    }
  }

  private final transient List<Field> fields;
  private final String text;

  EventRecord(Level level, List<Field> fields, String text, String message) {
    super(level, message);
    this.fields = List.copyOf(fields);
    this.text = text;
  }

  List<Field> fields() {
    return fields;
  }

  /** Words of the message outside any field; empty for a message of fields only. */
  String text() {
    return text;
  }
}
