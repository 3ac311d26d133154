package io.winstats.exporter.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

/** Gzip response bodies read strictly. */
public final class GzipBodies {
  private GzipBodies() {}

  /**
   * The text of a body that must be exactly one gzip member: header, one deflate stream, trailer, nothing after.
   * GZIPInputStream would read a second member too, as Prometheus does; curl's {@code --compressed} stops after the
   * first (exit 23, the rest lost), so a body of two members fails here.
   */
  public static byte[] oneMember(byte[] body) throws IOException {
    assertThat(body[0] & 0xff).isEqualTo(0x1f);
    assertThat(body[1] & 0xff).isEqualTo(0x8b);
    assertThat(body[3]).as("no optional header fields").isZero();
    Inflater inflater = new Inflater(true);
    inflater.setInput(body, 10, body.length - 10);
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      while (!inflater.finished()) {
        int n = inflater.inflate(buffer);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw new IOException("deflate stream cut short");
        }
        text.write(buffer, 0, n);
      }
    } catch (DataFormatException e) {
      throw new IOException(e);
    }
    assertThat(inflater.getRemaining()).as("bytes after the deflate stream: the trailer only").isEqualTo(8);
    ByteBuffer trailer = ByteBuffer.wrap(body, body.length - 8, 8).order(ByteOrder.LITTLE_ENDIAN);
    CRC32 crc = new CRC32();
    crc.update(text.toByteArray());
    assertThat(trailer.getInt() & 0xffffffffL).as("CRC-32").isEqualTo(crc.getValue());
    assertThat(trailer.getInt()).as("ISIZE").isEqualTo(text.size());
    // And the JDK's reader agrees.
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
      assertThat(in.readAllBytes()).isEqualTo(text.toByteArray());
    }
    return text.toByteArray();
  }
}
