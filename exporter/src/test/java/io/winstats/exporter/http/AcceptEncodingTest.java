package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RFC 9110 §12.5.3: a coding with any spelling of weight zero is refused; §12.4.2's qvalue grammar. */
class AcceptEncodingTest {
  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "gzip | true",
        "GZIP | true",
        "gzip, deflate, br | true",
        "gzip;q=1.0 | true",
        "gzip; q=0.5 | true",
        "gzip;q=0.001 | true",
        "x-gzip | true",
        "gzip;q=0 | false",
        "gzip;q=0.0 | false",
        "gzip;q=0.000 | false",
        "gzip ; Q=0.00 | false",
        "deflate, gzip;q=0. | false",
        "identity | false",
        "'' | false",
        "* | true",
        "*;q=0 | false",
        "gzip;q=0, *;q=1 | false",
        "br, *;q=0.1 | true",
        // found by WebInputsFuzzTest: an element of semicolons alone threw ArrayIndexOutOfBoundsException (a 500)
        "';, gzip' | true",
        "';;' | false",
      })
  void gzipOnlyWithAWeightAboveZero(String field, boolean allowed) {
    assertThat(AcceptEncoding.allowsGzip(List.of(field))).isEqualTo(allowed);
  }
}
