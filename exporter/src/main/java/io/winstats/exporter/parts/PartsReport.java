package io.winstats.exporter.parts;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Parts as a report: the overall state (the worst row), the exit code {@code check} ends with, and the rows as text
 * for a person or as JSON for a tool ({@code check --output=json} and the daemon's {@code /status}).
 */
public record PartsReport(List<PartStatus> rows) {
  /** Every part is ok or not applicable. */
  public static final int EXIT_OK = 0;

  /** A part is degraded, none failed: figures are served, some from a fallback or missing. Not picocli's 1 or 2. */
  public static final int EXIT_DEGRADED = 3;

  /** A part failed: the figures it gives are missing. */
  public static final int EXIT_FAILED = 4;

  private static final JsonFactory JSON = new JsonFactory();
  private static final Pattern ADDRESS =
      Pattern.compile("\\b(?:\\d{1,3}\\.){3}\\d{1,3}\\b|\\[[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*\\]");

  public PartsReport {
    rows = List.copyOf(rows);
  }

  /** The worst state of any row: failed, else degraded, else ok. */
  public PartState overall() {
    if (rows.stream().anyMatch(r -> r.state() == PartState.FAILED)) {
      return PartState.FAILED;
    }
    return rows.stream().anyMatch(r -> r.state() == PartState.DEGRADED) ? PartState.DEGRADED : PartState.OK;
  }

  public int exitCode() {
    return switch (overall()) {
      case FAILED -> EXIT_FAILED;
      case DEGRADED -> EXIT_DEGRADED;
      default -> EXIT_OK;
    };
  }

  /**
   * The report with every name in {@code names} (node, pod, image names, socket paths; longest first) replaced by its
   * placeholder, and every IPv4 address and bracketed IPv6 address by {@code <address>}, so that it can be pasted
   * in public.
   */
  public PartsReport redacted(Map<String, String> names) {
    List<Map.Entry<String, String>> longestFirst =
        names.entrySet().stream()
            .filter(e -> !e.getKey().isBlank())
            .sorted(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed())
            .toList();
    java.util.function.UnaryOperator<@Nullable String> redact =
        text -> {
          if (text == null) {
            return null;
          }
          String out = text;
          for (Map.Entry<String, String> e : longestFirst) {
            out = out.replace(e.getKey(), e.getValue());
          }
          return ADDRESS.matcher(out).replaceAll("<address>");
        };
    return new PartsReport(
        rows.stream()
            .map(
                r ->
                    new PartStatus(
                        r.name(), r.state(), Objects.requireNonNull(redact.apply(r.detail())), redact.apply(r.cause()),
                        redact.apply(r.fix()), r.lastSuccess(), redact.apply(r.lastError()), r.errorCount()))
            .toList());
  }

  /** One line per part, its state, then what was found; a cause and a fix on lines of their own below it. */
  public String text() {
    int width = rows.stream().mapToInt(r -> r.name().length()).max().orElse(0);
    StringBuilder out = new StringBuilder();
    for (PartStatus r : rows) {
      out.append(String.format(Locale.ROOT, "%-" + width + "s  %-14s %s", r.name(), r.state().word(), r.detail())
              .stripTrailing())
          .append('\n');
      if (r.cause() != null) {
        out.append(" ".repeat(width + 2)).append("cause: ").append(r.cause()).append('\n');
      }
      if (r.fix() != null) {
        out.append(" ".repeat(width + 2)).append("fix: ").append(r.fix()).append('\n');
      }
    }
    return out.append("overall: ").append(overall().word()).append('\n').toString();
  }

  /** {@code {"state": ..., "parts": [{"name", "state", "detail", "cause", "fix", "last_success", ...}]}}. */
  public String json() {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("state", overall().word());
      g.writeArrayFieldStart("parts");
      for (PartStatus r : rows) {
        g.writeStartObject();
        g.writeStringField("name", r.name());
        g.writeStringField("state", r.state().word());
        g.writeStringField("detail", r.detail());
        nullable(g, "cause", r.cause());
        nullable(g, "fix", r.fix());
        Instant lastSuccess = r.lastSuccess();
        nullable(g, "last_success", lastSuccess == null ? null : lastSuccess.toString());
        nullable(g, "last_error", r.lastError());
        g.writeNumberField("error_count", r.errorCount());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.append('\n').toString();
  }

  private static void nullable(JsonGenerator g, String field, @Nullable String value) throws IOException {
    if (value == null) {
      g.writeNullField(field);
    } else {
      g.writeStringField(field, value);
    }
  }
}
