package io.winstats.exporter.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.PathHandler;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.winstats.exporter.ListenAddress;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.metrics.ResourceMetrics;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.summary.SummaryAssembler;
import io.winstats.summary.SummaryJson;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code /healthz}, {@code /stats/summary}, {@code /metrics} and {@code /metrics/resource}.
 *
 * <p>Nothing here samples: every body comes from the published {@link Snapshot}. Summary and resource-metrics bodies
 * are rendered once per snapshot version and served as cached bytes from the I/O thread; only a cache miss or a
 * {@code /metrics} scrape is dispatched to a worker.
 */
public final class ExporterServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ExporterServer.class);
  private static final HttpString ALLOW = new HttpString("Allow");
  private static final Set<HttpString> READ_METHODS = Set.of(Methods.GET, Methods.HEAD);
  private static final Set<HttpString> SUMMARY_METHODS = Set.of(Methods.GET, Methods.HEAD, Methods.POST);

  private enum Body {
    SUMMARY,
    SUMMARY_CPU_AND_MEMORY,
    RESOURCE_METRICS
  }

  private record RenderKey(long version, Body body) {}

  private final Supplier<Snapshot> snapshots;
  private final SummaryAssembler assembler;
  private final MetricsRenderer renderer;
  private final Cache<RenderKey, RenderedBody> rendered = Caffeine.newBuilder().maximumSize(8).build();
  private final PathHandler routes;
  private final Undertow undertow;

  public ExporterServer(
      ListenAddress address,
      Supplier<Snapshot> snapshots,
      SummaryAssembler assembler,
      MetricsRenderer renderer) {
    this.snapshots = snapshots;
    this.assembler = assembler;
    this.renderer = renderer;
    PathHandler routes =
        new PathHandler(this::notFound)
            .addExactPath("/", allow(READ_METHODS, this::landingPage))
            .addExactPath("/healthz", allow(READ_METHODS, this::healthz))
            .addExactPath("/stats/summary", allow(SUMMARY_METHODS, this::summary))
            .addExactPath("/metrics", allow(READ_METHODS, this::metrics))
            .addExactPath("/metrics/resource", allow(READ_METHODS, this::resourceMetrics));
    this.undertow =
        Undertow.builder()
            .addHttpListener(address.port(), address.host())
            .setIoThreads(2)
            .setWorkerThreads(4)
            .setServerOption(UndertowOptions.MAX_HEADER_SIZE, 16 * 1024)
            .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, 64L * 1024)
            .setServerOption(UndertowOptions.MAX_PARAMETERS, 32)
            .setServerOption(UndertowOptions.MAX_HEADERS, 64)
            .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, 10_000)
            .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 60_000)
            .setHandler(this::guarded)
            .build();
    this.routes = routes;
  }

  /** Starts listening; throws if the address cannot be bound. */
  public void start() {
    undertow.start();
  }

  /** The port actually bound (useful with port 0). */
  public int port() {
    return ((InetSocketAddress) undertow.getListenerInfo().get(0).getAddress()).getPort();
  }

  private void guarded(HttpServerExchange exchange) {
    try {
      routes.handleRequest(exchange);
    } catch (Exception e) {
      String id = UUID.randomUUID().toString();
      LOG.error("event=handler_failed path={} error_id={}", exchange.getRequestPath(), id, e);
      if (!exchange.isResponseStarted()) {
        plain(exchange, 500, "internal error " + id + "\n");
      }
    }
  }

  private static HttpHandler allow(Set<HttpString> methods, HttpHandler next) {
    String allowed = String.join(", ", methods.stream().map(HttpString::toString).sorted().toList());
    return exchange -> {
      if (!methods.contains(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().put(ALLOW, allowed);
        plain(exchange, 405, "method " + exchange.getRequestMethod() + " not allowed; use " + allowed + "\n");
        return;
      }
      next.handleRequest(exchange);
    };
  }

  private void notFound(HttpServerExchange exchange) {
    plain(exchange, 404, "not found; endpoints: /healthz /stats/summary /metrics /metrics/resource\n");
  }

  private void landingPage(HttpServerExchange exchange) {
    plain(
        exchange,
        200,
        "winstats-exporter\n/healthz\n/stats/summary\n/stats/summary?only_cpu_and_memory=true\n/metrics\n/metrics/resource\n");
  }

  private void healthz(HttpServerExchange exchange) {
    if (!snapshots.get().ready()) {
      notReady(exchange);
      return;
    }
    plain(exchange, 200, "ok\n");
  }

  private void summary(HttpServerExchange exchange) throws Exception {
    Snapshot snapshot = snapshots.get();
    if (!snapshot.ready()) {
      notReady(exchange);
      return;
    }
    Boolean cpuAndMemoryOnly = booleanParam(exchange, "only_cpu_and_memory");
    if (cpuAndMemoryOnly == null) {
      plain(exchange, 400, "only_cpu_and_memory must be true or false\n");
      return;
    }
    Body body = cpuAndMemoryOnly ? Body.SUMMARY_CPU_AND_MEMORY : Body.SUMMARY;
    serveCached(
        exchange,
        new RenderKey(snapshot.version(), body),
        key -> {
          var summary =
              cpuAndMemoryOnly
                  ? assembler.assembleCpuAndMemory(snapshot.node(), snapshot.previousNode(), snapshot.runtime())
                  : assembler.assemble(snapshot.node(), snapshot.previousNode(), snapshot.runtime());
          return new RenderedBody(SummaryJson.write(summary), "application/json");
        });
  }

  private void resourceMetrics(HttpServerExchange exchange) throws Exception {
    Snapshot snapshot = snapshots.get();
    if (!snapshot.ready()) {
      notReady(exchange);
      return;
    }
    serveCached(
        exchange,
        new RenderKey(snapshot.version(), Body.RESOURCE_METRICS),
        key -> {
          byte[] text = renderer.renderText(ResourceMetrics.build(snapshot));
          return new RenderedBody(text, MetricsRenderer.textContentType());
        });
  }

  private void metrics(HttpServerExchange exchange) {
    if (exchange.isInIoThread()) {
      exchange.dispatch(this::metrics);
      return;
    }
    MetricsRenderer.Rendered r =
        renderer.render(exchange.getRequestHeaders().getFirst(Headers.ACCEPT), acceptsGzip(exchange));
    ByteBuffer[] parts = new ByteBuffer[r.parts().length];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = ByteBuffer.wrap(r.parts()[i]);
    }
    sendParts(exchange, parts, r.length(), r.contentType(), r.gzip());
  }

  /** Serves from the cache on the I/O thread; renders on a worker on a miss. */
  private void serveCached(
      HttpServerExchange exchange, RenderKey key, Function<RenderKey, RenderedBody> render) {
    RenderedBody hit = rendered.getIfPresent(key);
    if (hit != null) {
      send(exchange, hit);
      return;
    }
    if (exchange.isInIoThread()) {
      exchange.dispatch(() -> send(exchange, rendered.get(key, render)));
      return;
    }
    send(exchange, rendered.get(key, render));
  }

  private static void send(HttpServerExchange exchange, RenderedBody body) {
    boolean gzip = acceptsGzip(exchange);
    byte[] bytes = gzip ? body.gzipped() : body.body();
    sendParts(exchange, new ByteBuffer[] {ByteBuffer.wrap(bytes)}, bytes.length, body.contentType(), gzip);
  }

  private static void sendParts(
      HttpServerExchange exchange, ByteBuffer[] parts, long length, String contentType, boolean gzip) {
    exchange.setStatusCode(200);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, contentType);
    exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, length);
    exchange.getResponseHeaders().put(Headers.VARY, "Accept-Encoding");
    if (gzip) {
      exchange.getResponseHeaders().put(Headers.CONTENT_ENCODING, "gzip");
    }
    if (exchange.getRequestMethod().equals(Methods.HEAD)) {
      exchange.endExchange();
      return;
    }
    exchange.getResponseSender().send(parts);
  }

  private static boolean acceptsGzip(HttpServerExchange exchange) {
    for (String value : exchange.getRequestHeaders().get(Headers.ACCEPT_ENCODING) == null
        ? java.util.List.<String>of()
        : exchange.getRequestHeaders().get(Headers.ACCEPT_ENCODING)) {
      for (String coding : value.split(",")) {
        String c = coding.trim().toLowerCase(Locale.ROOT);
        if (c.equals("gzip") || (c.startsWith("gzip;") && !c.replace(" ", "").endsWith("q=0"))) {
          return true;
        }
      }
    }
    return false;
  }

  /** {@code true}/{@code false} as given, {@code false} when absent, {@code null} when unparseable. */
  private static @Nullable Boolean booleanParam(HttpServerExchange exchange, String name) {
    Deque<String> values = exchange.getQueryParameters().get(name);
    if (values == null || values.isEmpty()) {
      return false;
    }
    return switch (values.getFirst().toLowerCase(Locale.ROOT)) {
      case "true", "1", "t" -> true;
      case "false", "0", "f", "" -> false;
      default -> null;
    };
  }

  private static void notReady(HttpServerExchange exchange) {
    exchange.getResponseHeaders().put(Headers.RETRY_AFTER, "1");
    plain(exchange, 503, "no sample yet\n");
  }

  private static void plain(HttpServerExchange exchange, int status, String text) {
    exchange.setStatusCode(status);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, bytes.length);
    exchange.getResponseSender().send(ByteBuffer.wrap(bytes));
  }

  @Override
  public void close() {
    undertow.stop();
  }
}
