package io.winstats.exporter.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * One gzip member (RFC 1952) made of a head compressed once and a tail compressed per response: the head is the gzip
 * header and a deflate stream ended with a sync flush (byte-aligned, no final block), the tail a second deflate stream
 * that ends with the final block, and the trailer's CRC-32 and length are those of both texts together.
 *
 * <p>Why not two gzip members back to back: RFC 1952 allows them, and Prometheus and Go's gzip reader take them, but
 * curl's {@code --compressed} stops after the first member (exit 23, the rest of the body lost), and that is the
 * command an operator types. A deflate stream may continue after a sync flush with blocks from a fresh compressor:
 * each block stands alone when none of its matches reaches back before it (RFC 1951 §3.2).
 */
final class GzipSplice {
  /** The gzip header: deflate, no flags, no time, fastest level (XFL 4), unknown OS (255). */
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 4, (byte) 0xff};

  private GzipSplice() {}

  /**
   * Writes the gzip header and compresses what is written into {@code out} at zlib's fastest level; {@link #close}
   * ends with a sync flush instead of a final block, and {@link #crc32()} and {@link #length()} are then what the
   * trailer needs. Does not close {@code out}.
   */
  static final class Head extends OutputStream {
    private final OutputStream out;
    private final Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
    private final CRC32 crc = new CRC32();
    private final byte[] buffer = new byte[8192];
    private long length;

    Head(OutputStream out) throws IOException {
      this.out = out;
      out.write(HEADER);
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return;
      }
      crc.update(b, off, len);
      length += len;
      deflater.setInput(b, off, len);
      while (!deflater.needsInput()) {
        out.write(buffer, 0, deflater.deflate(buffer, 0, buffer.length, Deflater.NO_FLUSH));
      }
    }

    @Override
    public void close() throws IOException {
      int n;
      do {
        n = deflater.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH);
        out.write(buffer, 0, n);
      } while (n == buffer.length);
      deflater.end();
    }

    int crc32() {
      return (int) crc.getValue();
    }

    long length() {
      return length;
    }
  }

  /**
   * A text compressed as the rest of a member: a deflate stream ending with the final block. Never compared or hashed;
   * the bytes are never written after compression.
   */
  @SuppressWarnings("ArrayRecordComponent")
  record Tail(byte[] deflated, int crc32, long length) {
    static Tail of(byte[] text) {
      Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, text.length / 4));
      byte[] buffer = new byte[8192];
      deflater.setInput(text);
      deflater.finish();
      while (!deflater.finished()) {
        out.write(buffer, 0, deflater.deflate(buffer));
      }
      deflater.end();
      CRC32 crc = new CRC32();
      crc.update(text);
      return new Tail(out.toByteArray(), (int) crc.getValue(), text.length);
    }
  }

  /** The member's trailer: CRC-32 of head and tail texts together, then their length modulo 2^32, little-endian. */
  static byte[] trailer(int headCrc32, long headLength, Tail tail) {
    int crc = crc32Combine(headCrc32, tail.crc32(), tail.length());
    int size = (int) (headLength + tail.length());
    return new byte[] {
      (byte) crc, (byte) (crc >>> 8), (byte) (crc >>> 16), (byte) (crc >>> 24),
      (byte) size, (byte) (size >>> 8), (byte) (size >>> 16), (byte) (size >>> 24)
    };
  }

  /**
   * The CRC-32 of two texts one after the other, from the CRC-32 of each and the second's length: zlib's {@code
   * crc32_combine}, which appends {@code length2} zero bytes to the first CRC by squaring the operator of one zero
   * bit over GF(2), then adds the second.
   */
  static int crc32Combine(int crc1, int crc2, long length2) {
    if (length2 <= 0) {
      return crc1;
    }
    int[] even = new int[32];
    int[] odd = new int[32];
    odd[0] = 0xedb88320; // the CRC-32 polynomial, reflected: the operator for one zero bit
    int row = 1;
    for (int n = 1; n < 32; n++) {
      odd[n] = row;
      row <<= 1;
    }
    square(even, odd); // two zero bits
    square(odd, even); // four zero bits
    long remaining = length2;
    int crc = crc1;
    // Each pass squares the last operator (one zero byte, then two, four, ...) and applies it where the length has
    // that bit.
    int[] last = odd;
    int[] next = even;
    while (remaining != 0) {
      square(next, last);
      if ((remaining & 1) != 0) {
        crc = times(next, crc);
      }
      remaining >>>= 1;
      int[] swap = last;
      last = next;
      next = swap;
    }
    return crc ^ crc2;
  }

  private static int times(int[] matrix, int vector) {
    int sum = 0;
    for (int i = 0; vector != 0; i++, vector >>>= 1) {
      if ((vector & 1) != 0) {
        sum ^= matrix[i];
      }
    }
    return sum;
  }

  private static void square(int[] square, int[] matrix) {
    for (int n = 0; n < 32; n++) {
      square[n] = times(matrix, matrix[n]);
    }
  }
}
