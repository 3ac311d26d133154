package io.winstats.exporter.metrics;

import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.jspecify.annotations.Nullable;

/**
 * Renders {@code /metrics} with client_java's own exposition writers (Prometheus text 0.0.4, OpenMetrics 1.0,
 * Prometheus protobuf), in two parts:
 *
 * <ul>
 *   <li>the families built from the published snapshot (cAdvisor, node, build info) — rendered once per snapshot
 *       version, format and encoding, then served from a cache;
 *   <li>the daemon's live families (Micrometer self, JVM and process metrics) — a few dozen lines that cost more per
 *       render (~0.3 ms and ~300 KB of garbage) than serving the cached part; rendered again once they are older than
 *       {@code liveTtl} (one second in the daemon), so that they stay current without costing every scrape.
 * </ul>
 *
 * <p>The parts concatenate: text and protobuf families are self-delimiting, OpenMetrics needs only the cached part's
 * {@code # EOF} trailer dropped; gzip is one member, the cached part compressed once up to a sync flush and the live
 * part's deflate stream and the trailer appended per scrape ({@link GzipSplice}). Thread-safe.
 */
public final class MetricsRenderer {
  /**
   * A response in parts, sent back to back; {@code gzip} when the parts together are one gzip member. Each part is a
   * fresh view whose position and limit are the caller's own; the cached part is a direct buffer, which the socket
   * writes as it is (a heap array is copied into a temporary direct buffer on every write, again for what a partial
   * write left). The caller runs {@code sent} once the parts are written or the send failed, and reads no part after:
   * the cached part's memory is freed when the last send of a superseded version ends ({@link SharedBody}).
   */
  // The array goes as it is to a gathering write (Undertow's Sender.send(ByteBuffer[])); a response is never compared.
  @SuppressWarnings("ArrayRecordComponent")
  public record Rendered(ByteBuffer[] parts, String contentType, boolean gzip, Runnable sent) {
    /** Total bytes of all parts. */
    public long length() {
      long n = 0;
      for (ByteBuffer p : parts) {
        n += p.remaining();
      }
      return n;
    }
  }

  private record Key(String contentType, boolean gzip) {}

  private record LiveKey(String contentType, boolean gzip) {}

  /**
   * The cached part: its bytes (for gzip, a member's header and a deflate stream ended by a sync flush) and, for gzip,
   * the CRC-32 and length of the text compressed, which the trailer needs.
   */
  private record SnapshotPart(SharedBody bytes, int crc32, long length) {}

  /**
   * A rendered live part: the text, or for gzip its deflate stream ending the member ({@code tail}) with what the
   * trailer needs. A cache entry, never compared or hashed; the bytes are never written after rendering.
   */
  @SuppressWarnings("ArrayRecordComponent")
  private record LivePart(byte[] bytes, GzipSplice.@Nullable Tail tail, long renderedAtNanos) {}

  private static final byte[] OPENMETRICS_EOF = "# EOF\n".getBytes(StandardCharsets.UTF_8);

  /**
   * Text 0.0.4 timestamps are integer milliseconds; client_java writes seconds unless told otherwise, which Prometheus
   * rejects.
   */
  private final ExpositionFormats formats =
      ExpositionFormats.init(
          PrometheusProperties.builder()
              .exporterProperties(ExporterProperties.builder().prometheusTimestampsInMs(true).build())
              .build());

  private final PrometheusRegistry snapshotSeries;
  private final PrometheusRegistry liveSeries;
  private final LongSupplier version;
  private final long liveTtlNanos;
  private final FamilyFilter families;
  private final LongSupplier nanoTime;
  private final LatestVersionCache<Key, SnapshotPart> cached = new LatestVersionCache<>(part -> part.bytes().release());
  private final Map<LiveKey, LivePart> live = new ConcurrentHashMap<>();
  private final AtomicLong lastSeriesCount = new AtomicLong();
  private final Map<Key, Integer> lastBodyBytes = new ConcurrentHashMap<>();

  /**
   * @param snapshotSeries collectors whose output changes only with the snapshot version
   * @param liveSeries collectors rendered on every scrape
   * @param version the published snapshot's version
   * @param liveTtl how long a rendered live part is served again; zero renders it on every scrape
   * @param nanoTime a monotonic clock for {@code liveTtl}
   */
  public MetricsRenderer(
      PrometheusRegistry snapshotSeries,
      PrometheusRegistry liveSeries,
      LongSupplier version,
      Duration liveTtl,
      LongSupplier nanoTime) {
    this(snapshotSeries, liveSeries, version, liveTtl, nanoTime, FamilyFilter.ALL);
  }

  /** As above, serving only the families {@code families} lets through. */
  public MetricsRenderer(
      PrometheusRegistry snapshotSeries,
      PrometheusRegistry liveSeries,
      LongSupplier version,
      Duration liveTtl,
      LongSupplier nanoTime,
      FamilyFilter families) {
    this.families = families;
    this.snapshotSeries = snapshotSeries;
    this.liveSeries = liveSeries;
    this.version = version;
    this.liveTtlNanos = liveTtl.toNanos();
    this.nanoTime = nanoTime;
  }

  /**
   * {@code /metrics} in the format {@code accept} prefers (text 0.0.4 when it names none we write), from the newest
   * snapshot: its cached part is rendered once per snapshot version, format and encoding, on the first request.
   */
  public Rendered render(@Nullable String accept, boolean gzip) {
    ExpositionFormatWriter writer = formats.findWriter(accept);
    Key key = new Key(writer.getContentType(), gzip);
    while (true) {
      // Null when a newer version was cached or freed since the version was read: the newest is read again.
      SnapshotPart snapshot = cached.get(version.getAsLong(), key, k -> renderSnapshotPart(writer, k));
      ByteBuffer bytes = snapshot == null ? null : snapshot.bytes().retain();
      if (snapshot == null || bytes == null) {
        continue;
      }
      LivePart live = livePart(writer, gzip);
      GzipSplice.Tail tail = live.tail();
      ByteBuffer[] parts =
          tail == null
              ? new ByteBuffer[] {bytes, ByteBuffer.wrap(live.bytes())}
              : new ByteBuffer[] {
                bytes,
                ByteBuffer.wrap(live.bytes()),
                ByteBuffer.wrap(GzipSplice.trailer(snapshot.crc32(), snapshot.length(), tail))
              };
      return new Rendered(parts, writer.getContentType(), gzip, snapshot.bytes()::release);
    }
  }

  /** Snapshot parts rendered so far, one per snapshot version, format and encoding asked for. */
  public long snapshotRenders() {
    return cached.computations();
  }

  /** The snapshot parts the cache holds now: those of the newest version asked for, none superseded. */
  List<SharedBody> heldSnapshotParts() {
    return cached.held().stream().map(SnapshotPart::bytes).toList();
  }

  private LivePart livePart(ExpositionFormatWriter writer, boolean gzip) {
    long now = nanoTime.getAsLong();
    LiveKey key = new LiveKey(writer.getContentType(), gzip);
    LivePart part = live.get(key);
    if (part == null || now - part.renderedAtNanos() >= liveTtlNanos) {
      // Concurrent scrapes may both render; either result is current, and the last one stays.
      byte[] text = write(writer, families.apply(liveSeries.scrape()));
      GzipSplice.Tail tail = gzip ? GzipSplice.Tail.of(text) : null;
      part = new LivePart(tail == null ? text : tail.deflated(), tail, now);
      live.put(key, part);
    }
    return part;
  }

  /** Prometheus text 0.0.4 of {@code snapshots}, as the kubelet serves {@code /metrics/resource}. */
  public byte[] renderText(MetricSnapshots snapshots) {
    return write(formats.getPrometheusTextFormatWriter(), snapshots);
  }

  /** Series (data points) in the snapshot part as last rendered, for {@code winstats_exporter_series}. */
  public long lastSeriesCount() {
    return lastSeriesCount.get();
  }

  private SnapshotPart renderSnapshotPart(ExpositionFormatWriter writer, Key key) {
    MetricSnapshots snapshots = families.apply(snapshotSeries.scrape());
    long series = 0;
    for (MetricSnapshot s : snapshots) {
      series += s.getDataPoints().size();
    }
    lastSeriesCount.set(series);
    // The writer streams into the direct buffer the socket will write (through gzip when asked), sized from the last
    // body of this kind: no heap copy of a 1-4 MB body per render, which the serial collector had to promote.
    DirectBody body = new DirectBody(lastBodyBytes.getOrDefault(key, 0));
    try {
      GzipSplice.Head head = key.gzip() ? new GzipSplice.Head(body) : null;
      try (OutputStream out = head == null ? body : head;
          HeldBackTrailer text = new HeldBackTrailer(out, trailerOf(writer))) {
        writer.write(text, snapshots);
      }
      lastBodyBytes.put(key, body.size());
      return head == null
          ? new SnapshotPart(body.shared(), 0, 0)
          : new SnapshotPart(body.shared(), head.crc32(), head.length());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What the writer ends its body with that the live part's own body repeats: OpenMetrics' {@code # EOF}. */
  private static byte[] trailerOf(ExpositionFormatWriter writer) {
    return writer instanceof OpenMetricsTextFormatWriter ? OPENMETRICS_EOF : new byte[0];
  }

  /**
   * Passes bytes on, holding back the last {@code trailer.length}; on close drops them if they are the trailer, else
   * passes them on. Closes nothing below it.
   */
  private static final class HeldBackTrailer extends OutputStream {
    private final OutputStream out;
    private final byte[] trailer;
    private final byte[] held;
    private int heldCount;

    HeldBackTrailer(OutputStream out, byte[] trailer) {
      this.out = out;
      this.trailer = trailer;
      this.held = new byte[trailer.length];
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      int keep = held.length;
      if (len >= keep) {
        out.write(held, 0, heldCount);
        out.write(b, off, len - keep);
        System.arraycopy(b, off + len - keep, held, 0, keep);
        heldCount = keep;
        return;
      }
      int overflow = heldCount + len - keep;
      if (overflow > 0) {
        out.write(held, 0, overflow);
        System.arraycopy(held, overflow, held, 0, heldCount - overflow);
        heldCount -= overflow;
      }
      System.arraycopy(b, off, held, heldCount, len);
      heldCount += len;
    }

    @Override
    public void close() throws IOException {
      if (heldCount != trailer.length || !Arrays.equals(held, trailer)) {
        out.write(held, 0, heldCount);
      }
      heldCount = 0;
    }
  }

  /**
   * A byte stream into a direct buffer, grown by copying into a larger one when the body outgrows the last one's
   * size (the outgrown one freed at once). The socket writes a direct buffer as it is; a heap array it would copy on
   * every write.
   */
  private static final class DirectBody extends OutputStream {
    private ByteBuffer buffer;

    DirectBody(int lastSize) {
      buffer = ByteBuffer.allocateDirect(Math.max(16 * 1024, lastSize + lastSize / 8));
    }

    @Override
    public void write(int b) {
      ensure(1);
      buffer.put((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      buffer.put(b, off, len);
    }

    private void ensure(int more) {
      if (buffer.remaining() < more) {
        ByteBuffer larger = ByteBuffer.allocateDirect(Math.max(buffer.capacity() * 2, buffer.position() + more));
        larger.put(buffer.flip());
        SharedBody.free(buffer);
        buffer = larger;
      }
    }

    int size() {
      return buffer.position();
    }

    /** The body, held once by the cache; nothing is written after. */
    SharedBody shared() {
      return SharedBody.filled(buffer);
    }
  }

  private static byte[] write(ExpositionFormatWriter writer, MetricSnapshots snapshots) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    try {
      writer.write(out, snapshots);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Gzip at zlib's fastest level. Every Prometheus scrape asks for gzip, so a new snapshot's body is compressed once
   * per scrape: level 1 takes a fraction of the default level's CPU for a body a little larger, and the body is sent
   * over the node's own network to a scraper nearby.
   */
  private static GZIPOutputStream fastGzip(OutputStream out) throws IOException {
    return new GZIPOutputStream(out, 8192) {
      {
        def.setLevel(Deflater.BEST_SPEED);
      }
    };
  }

  /** One gzip member holding {@code body}. */
  public static byte[] gzip(byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, body.length / 4));
    try (GZIPOutputStream gz = fastGzip(out)) {
      gz.write(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The text writer's content type, for bodies rendered with {@link #renderText}. */
  public static String textContentType() {
    return PrometheusTextFormatWriter.CONTENT_TYPE;
  }

  /**
   * The snapshot part's families as this renderer serves them, every one built from the same snapshot version (read
   * again while a publication lands in between), from the per-version collectors' caches where a scrape built them.
   */
  public ServedFamilies series() {
    for (int attempt = 1; ; attempt++) {
      long before = version.getAsLong();
      MetricSnapshots snapshots = families.apply(snapshotSeries.scrape());
      if (version.getAsLong() == before || attempt == 3) {
        return ServedFamilies.of(before, snapshots);
      }
    }
  }
}
