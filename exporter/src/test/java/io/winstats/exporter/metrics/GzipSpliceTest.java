package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.exporter.testing.GzipBodies;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class GzipSpliceTest {
  private static int crc(byte[] b, int from, int to) {
    CRC32 crc = new CRC32();
    crc.update(b, from, to - from);
    return (int) crc.getValue();
  }

  @Test
  void combinedCrcIsTheCrcOfBothTextsOneAfterTheOther() {
    Random random = new Random(24);
    byte[] text = new byte[70_000];
    random.nextBytes(text);
    for (int split : new int[] {0, 1, 7, 8, 255, 4096, 65_537, 69_999, 70_000}) {
      assertThat(GzipSplice.crc32Combine(crc(text, 0, split), crc(text, split, text.length), text.length - split))
          .as("split at %d", split)
          .isEqualTo(crc(text, 0, text.length));
    }
  }

  @Test
  void aHeadAndATailMakeOneMemberOfBothTexts() throws IOException {
    byte[] head = "# HELP a A.\n# TYPE a gauge\na 1.0\n".repeat(2_000).getBytes();
    byte[] tail = "b 2.0\n".getBytes();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    GzipSplice.Head compressed = new GzipSplice.Head(body);
    compressed.write(head, 0, head.length);
    compressed.close();
    GzipSplice.Tail rest = GzipSplice.Tail.of(tail);
    body.write(rest.deflated());
    body.write(GzipSplice.trailer(compressed.crc32(), compressed.length(), rest));

    byte[] both = Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, both, head.length, tail.length);
    assertThat(GzipBodies.oneMember(body.toByteArray())).isEqualTo(both);
  }

  @Test
  void anEmptyTailStillEndsTheMember() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    GzipSplice.Head compressed = new GzipSplice.Head(body);
    compressed.write("x 1\n".getBytes(), 0, 4);
    compressed.close();
    GzipSplice.Tail rest = GzipSplice.Tail.of(new byte[0]);
    body.write(rest.deflated());
    body.write(GzipSplice.trailer(compressed.crc32(), compressed.length(), rest));
    assertThat(GzipBodies.oneMember(body.toByteArray())).isEqualTo("x 1\n".getBytes());
  }
}
