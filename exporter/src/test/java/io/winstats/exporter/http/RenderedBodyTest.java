package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.exporter.testing.GzipBodies;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A body's forms are freed when the cache has released it and its last send has ended, and not before (issue 45). */
class RenderedBodyTest {
  private static final byte[] TEXT = "{\"node\":{}}\n".getBytes(StandardCharsets.UTF_8);

  @Test
  void bothFormsAreFreedWhenTheCacheAndEverySendHaveLetGo() throws Exception {
    RenderedBody body = new RenderedBody(TEXT, "application/json");
    RenderedBody.Held text = body.retain(false);
    RenderedBody.Held gzip = body.retain(true);
    assertThat(text).isNotNull();
    assertThat(gzip).isNotNull();
    byte[] compressed = new byte[gzip.bytes().remaining()];
    gzip.bytes().get(compressed);
    assertThat(GzipBodies.oneMember(compressed)).isEqualTo(TEXT);

    body.release(); // a newer version replaced it in the cache
    assertThat(body.freed()).isFalse();
    assertThat(body.retain(false)).isNull();
    assertThat(body.retain(true)).isNull();
    text.sent();
    assertThat(body.freed()).isFalse();
    gzip.sent();
    assertThat(body.freed()).isTrue();
  }

  @Test
  void aBodyNoSendHoldsIsFreedWhenReleasedAndMakesNoGzipForm() {
    RenderedBody body = new RenderedBody(TEXT, "application/json");
    body.release();
    assertThat(body.freed()).isTrue();
    assertThat(body.retain(true)).isNull();
    body.release(); // the cache lets go once; a second release changes nothing
    assertThat(body.freed()).isTrue();
  }
}
