package io.winstats.summary;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.winstats.summary.SummaryTypes.Summary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Writes a {@link Summary} as the kubelet does: compact JSON, times as RFC 3339 in UTC with second precision. */
public final class SummaryJson {

  private static final DateTimeFormatter RFC3339_SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  private static final ObjectWriter WRITER = newMapper().writerFor(Summary.class);

  private SummaryJson() {}

  /** The JSON bytes (UTF-8) of {@code summary}. Thread-safe. */
  public static byte[] write(Summary summary) {
    try {
      return WRITER.writeValueAsBytes(summary);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("cannot serialize summary", e);
    }
  }

  /** {@code metav1.Time} drops fractions of a second. */
  static String formatTime(Instant time) {
    return RFC3339_SECONDS.format(time.truncatedTo(ChronoUnit.SECONDS));
  }

  private static ObjectMapper newMapper() {
    SimpleModule times = new SimpleModule("metav1-time");
    times.addSerializer(Instant.class, new InstantSerializer());
    return new ObjectMapper().registerModule(times);
  }

  private static final class InstantSerializer extends StdSerializer<Instant> {
    private static final long serialVersionUID = 1L;

    InstantSerializer() {
      super(Instant.class);
    }

    @Override
    public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
      gen.writeString(formatTime(value));
    }
  }
}
