package io.winstats.perfcounters.win32;

import io.winstats.perfcounters.NodePart;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * How a node part read from a Win32 API once per sample fails and recovers: a failed read leaves the part empty and
 * {@code missing} with its cause, logs {@code event=<name>_unreadable} at WARN once per change of cause, and the first
 * read after it logs {@code event=<name>_recovered} at INFO. Not thread-safe: one sampling thread.
 */
final class PartRead {
  private final NodePart part;
  private final String name;
  private final Logger log;
  private @Nullable String lastFailure;

  PartRead(NodePart part, String name, Logger log) {
    this.part = Objects.requireNonNull(part, "part");
    this.name = Objects.requireNonNull(name, "name");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** What {@code read} returns; on a failure an empty list and the part put in {@code missing} with the reason. */
  <T> List<T> read(Supplier<List<T>> read, Map<NodePart, String> missing) {
    try {
      List<T> items = read.get();
      if (lastFailure != null) {
        log.info("event={}_recovered", name);
        lastFailure = null;
      }
      return items;
    } catch (RuntimeException e) {
      String failure =
          e instanceof Win32Exception ? e.getMessage() : e.getClass().getSimpleName() + ": " + e.getMessage();
      if (!Objects.equals(failure, lastFailure)) {
        log.warn("event={}_unreadable error=\"{}\"", name, failure);
        lastFailure = failure;
      }
      missing.put(part, String.valueOf(failure));
      return List.of();
    }
  }
}
