package io.winstats.exporter.http;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.winstats.exporter.history.NodeHistory;
import io.winstats.exporter.metrics.LatestVersionCache;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.metrics.ResourceMetrics;
import io.winstats.exporter.parts.PartsReport;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.SummaryAssembler;
import io.winstats.summary.SummaryJson;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.Options;
import org.xnio.Sequence;
import org.xnio.SslClientAuthMode;

/**
 * Serves {@code /healthz}, {@code /stats/summary}, {@code /metrics}, {@code /metrics/resource} and
 * {@code /metrics/cadvisor}.
 *
 * <p>Nothing here samples: every body comes from the published {@link Snapshot}. Summary and resource-metrics bodies
 * are rendered once per snapshot version and served as cached bytes from the I/O thread; only a cache miss or a
 * {@code /metrics} scrape is dispatched to a worker.
 *
 * <p>With a web configuration it serves HTTPS, re-reading its certificate, key and client CAs when they change, and
 * requires the configured credentials on every path but {@code /healthz}, which stays open for liveness probes.
 * {@link HttpLimits} bound what a client may send and how many may be connected.
 */
public final class ExporterServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ExporterServer.class);
  private static final Set<HttpString> READ_METHODS = Set.of(Methods.GET, Methods.HEAD);
  private static final Set<HttpString> SUMMARY_METHODS = Set.of(Methods.GET, Methods.HEAD, Methods.POST);

  private enum Body {
    SUMMARY,
    SUMMARY_CPU_AND_MEMORY,
    RESOURCE_METRICS
  }

  private final Supplier<Snapshot> snapshots;
  private final SummaryAssembler assembler;
  private final MetricsRenderer renderer;
  private final LatestVersionCache<Body, RenderedBody> rendered = new LatestVersionCache<>(RenderedBody::release);
  private static final String HEALTHZ = "/healthz";
  private final StatusEndpoint status = new StatusEndpoint();
  // How often a TLS handshake or a bearer-token check may look at the files for a change.
  private static final Duration RELOAD_CHECK = Duration.ofSeconds(1);

  private final List<Route> routes;
  private final HttpHandler router;
  private final HttpHandler front;
  private final HttpLimits limits;
  private final @Nullable TlsMaterial tls;
  private final Undertow undertow;
  private final ListenAddress address;
  private final LandingPage landing;
  private final Map<String, Object> description;

  /** Plain HTTP with the default limits and no authentication. */
  public ExporterServer(
      ListenAddress address,
      Supplier<Snapshot> snapshots,
      SummaryAssembler assembler,
      MetricsRenderer renderer) {
    this(address, ServerSettings.DEFAULTS, snapshots, assembler, renderer);
  }

  /**
   * A server with the given limits, and TLS and authentication if {@code settings} asks for them. Throws {@link
   * IllegalArgumentException} when a certificate, key or token file named there cannot be loaded.
   */
  public ExporterServer(
      ListenAddress address,
      ServerSettings settings,
      Supplier<Snapshot> snapshots,
      SummaryAssembler assembler,
      MetricsRenderer renderer) {
    this(address, settings, snapshots, assembler, renderer, null);
  }

  /**
   * As above, and {@code /metrics/cadvisor} — the kubelet's path, the cAdvisor series only — from {@code cadvisor};
   * without one that path is not served.
   */
  public ExporterServer(
      ListenAddress address,
      ServerSettings settings,
      Supplier<Snapshot> snapshots,
      SummaryAssembler assembler,
      MetricsRenderer renderer,
      @Nullable MetricsRenderer cadvisor) {
    this(address, settings, snapshots, assembler, renderer, cadvisor, null);
  }

  /**
   * As above, and with a history the node page and its JSON ({@link HistoryRoutes}), linked from the landing page;
   * without one neither is served.
   */
  public ExporterServer(
      ListenAddress address,
      ServerSettings settings,
      Supplier<Snapshot> snapshots,
      SummaryAssembler assembler,
      MetricsRenderer renderer,
      @Nullable MetricsRenderer cadvisor,
      @Nullable NodeHistory history) {
    this.address = address;
    this.landing = new LandingPage(settings.build(), settings.telemetryPath(), history != null);
    this.snapshots = snapshots;
    this.assembler = assembler;
    this.renderer = renderer;
    this.limits = settings.limits();
    this.routes = routeTable(settings.telemetryPath(), cadvisor, history);
    this.router = Route.router(routes, this::notFound);
    WebConfig web = settings.web();
    this.tls = web == null || web.tls() == null ? null : new TlsMaterial(web.tls(), System::nanoTime, RELOAD_CHECK);
    var tokenFile = settings.bearerTokenFile();
    BearerToken bearer = tokenFile == null ? null : new BearerToken(tokenFile, System::nanoTime, RELOAD_CHECK);
    this.front =
        web == null && bearer == null
            ? this::guarded
            : new AccessControl(
                this::guarded,
                Set.of(HEALTHZ),
                web == null ? null : new LiveWebConfig(web, System::nanoTime, RELOAD_CHECK),
                web == null || web.rateLimit() == null ? null : new TokenBucket(web.rateLimit(), System::nanoTime),
                web != null && web.tls() != null && web.tls().clientAuth().required(),
                bearer);
    this.undertow = undertow(address, limits, tls, web);
    Map<String, Object> guard = new LinkedHashMap<>();
    guard.put("scheme", scheme());
    if (tls != null) {
      guard.put("client_auth", tls.config().clientAuth());
      guard.put("protocols", String.join(",", tls.config().protocols()));
    }
    guard.put("basic_auth_users", web == null ? 0 : web.basicAuthUsers().size());
    guard.put("bearer_token", bearer != null);
    guard.put("max_connections", limits.maxConnections());
    this.description = Collections.unmodifiableMap(guard);
  }

  /** Every path the server answers, with its methods and handler: the one place a route is declared. */
  private List<Route> routeTable(
      String telemetryPath, @Nullable MetricsRenderer cadvisor, @Nullable NodeHistory history) {
    List<Route> table = new ArrayList<>();
    table.add(new Route("/", READ_METHODS, this::landingPage));
    table.add(new Route(HEALTHZ, READ_METHODS, this::healthz));
    table.add(new Route(StatusEndpoint.PATH, READ_METHODS, status::serve));
    table.add(new Route("/stats/summary", SUMMARY_METHODS, this::summary));
    table.add(new Route(telemetryPath, READ_METHODS, exchange -> metrics(exchange, renderer)));
    table.add(new Route("/metrics/resource", READ_METHODS, this::resourceMetrics));
    if (cadvisor != null) {
      table.add(new Route("/metrics/cadvisor", READ_METHODS, exchange -> metrics(exchange, cadvisor)));
    }
    if (history != null) {
      table.addAll(new HistoryRoutes(history, snapshots).routes());
      table.addAll(new NodePageRoutes().routes());
    }
    return List.copyOf(table);
  }

  /** The listener: HTTPS with the web configuration's TLS, else HTTP, within {@code limits}. */
  private Undertow undertow(
      ListenAddress address, HttpLimits limits, @Nullable TlsMaterial tls, @Nullable WebConfig web) {
    Undertow.Builder builder =
        Undertow.builder()
            .setIoThreads(2)
            .setWorkerThreads(4)
            // Also the HTTP/2 header list limit: Undertow takes the smaller of this and the deprecated
            // HTTP2_SETTINGS_MAX_HEADER_LIST_SIZE (Http2Channel.getMaxHeaderSize).
            .setServerOption(UndertowOptions.MAX_HEADER_SIZE, limits.maxHeaderBytes())
            // No MAX_ENTITY_SIZE: Undertow would answer a declared Content-Length above it with a bare 400 before
            // any handler runs; limited() answers 413 instead, and no handler reads a body.
            .setServerOption(UndertowOptions.MAX_PARAMETERS, 32)
            .setServerOption(UndertowOptions.MAX_HEADERS, 64)
            .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, millis(limits.requestTimeout()))
            .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, millis(limits.idleTimeout()))
            // XNIO stops accepting at the high-water mark and resumes below the low-water mark; until then new
            // connections wait in the kernel's listen backlog.
            .setSocketOption(Options.CONNECTION_HIGH_WATER, limits.maxConnections())
            .setSocketOption(Options.CONNECTION_LOW_WATER, limits.maxConnections())
            .setHandler(this::limited);
    if (tls == null) {
      return builder.addHttpListener(address.port(), address.bindHost()).build();
    }
    WebConfig.Tls t = tls.config();
    // Every mode that asks for a certificate only requests it during the handshake, so that /healthz answers
    // probes that have none; AccessControl refuses every other path without one when the mode requires it.
    builder
        .addHttpsListener(address.port(), address.bindHost(), tls.context())
        .setSocketOption(
            Options.SSL_CLIENT_AUTH_MODE,
            t.clientAuth() == WebConfig.ClientAuth.NoClientCert
                ? SslClientAuthMode.NOT_REQUESTED
                : SslClientAuthMode.REQUESTED)
        .setSocketOption(Options.SSL_ENABLED_PROTOCOLS, Sequence.of(t.protocols()))
        .setServerOption(UndertowOptions.ENABLE_HTTP2, web != null && web.http2());
    if (!t.cipherSuites().isEmpty()) {
      builder.setSocketOption(Options.SSL_ENABLED_CIPHER_SUITES, Sequence.of(withTls13Suites(t.cipherSuites())));
    }
    return builder.build();
  }

  /** Go's cipher_suites only govern TLS 1.2 and below; TLS 1.3's suites stay as the JDK enables them. */
  private static List<String> withTls13Suites(List<String> configured) {
    List<String> out = new ArrayList<>(configured);
    try {
      for (String s : SSLContext.getDefault().getDefaultSSLParameters().getCipherSuites()) {
        if ((s.startsWith("TLS_AES_") || s.startsWith("TLS_CHACHA20_")) && !out.contains(s)) {
          out.add(s);
        }
      }
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no default TLS context", e);
    }
    return out;
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
  }

  /** {@code https} with a web config that has TLS, else {@code http}. */
  public String scheme() {
    return tls == null ? "http" : "https";
  }

  /**
   * How the server is guarded, as the start-up log line's fields in order: numbers and booleans as themselves, so a
   * JSON line writes {@code basic_auth_users} as the number the reload line writes.
   */
  public Map<String, Object> description() {
    return description;
  }

  /**
   * Starts listening. An address that cannot be bound is a configuration problem: {@link IllegalArgumentException}
   * naming the address, why, and what to change (Undertow wraps the socket's exception in a bare RuntimeException).
   */
  public void start() {
    try {
      undertow.start();
    } catch (RuntimeException e) {
      String problem = listenProblem(e);
      if (problem == null) {
        throw e;
      }
      undertow.stop();
      throw new IllegalArgumentException("--web.listen-address=" + address + ": " + problem, e);
    }
  }

  /** What keeps {@code address} from being bound, with the fix; null when the failure is not about the address. */
  private @Nullable String listenProblem(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof BindException) {
        String why = String.valueOf(t.getMessage());
        if (why.contains("in use")) {
          return "address already in use: another process listens on port " + address.port()
              + " (find it with ss -ltnp or Get-NetTCPConnection); stop it or choose another port";
        }
        return why.toLowerCase(Locale.ROOT)
            + ": give an address of this host, or ':" + address.port() + "' for every interface";
      }
      if (t instanceof UnknownHostException) {
        return "unknown host " + address.host() + ": give an IP address or a name this host resolves, or ':"
            + address.port() + "' for every interface";
      }
      if (t instanceof SocketException) {
        return String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT)
            + ": give an address of this host, or ':" + address.port() + "' for every interface";
      }
    }
    return null;
  }

  /** The port actually bound (useful with port 0). */
  public int port() {
    return ((InetSocketAddress) undertow.getListenerInfo().get(0).getAddress()).getPort();
  }

  private void limited(HttpServerExchange exchange) throws Exception {
    long length = exchange.getRequestContentLength();
    if (length > limits.maxBodyBytes()) {
      // The body is never read: close the connection rather than drain it.
      exchange.setPersistent(false);
      plain(exchange, 413, "request body larger than " + limits.maxBodyBytes() + " bytes\n");
      return;
    }
    if (length < 0 && exchange.getRequestHeaders().contains(Headers.TRANSFER_ENCODING)) {
      // A chunked body has no declared size and is never read here: close after answering, so that nothing drains
      // a body without end.
      exchange.setPersistent(false);
    }
    front.handleRequest(exchange);
  }

  private void guarded(HttpServerExchange exchange) {
    try {
      router.handleRequest(exchange);
    } catch (Exception e) {
      String id = UUID.randomUUID().toString();
      LOG.error("event=handler_failed path={} error_id={}", exchange.getRequestPath(), id, e);
      if (!exchange.isResponseStarted()) {
        plain(exchange, 500, "internal error " + id + "\n");
      }
    }
  }

  private void notFound(HttpServerExchange exchange) {
    List<String> paths = routes.stream().map(Route::path).filter(p -> !p.equals("/")).toList();
    plain(exchange, 404, "not found; endpoints: " + String.join(" ", paths) + "\n");
  }

  private void landingPage(HttpServerExchange exchange) {
    String accept = exchange.getRequestHeaders().getFirst(Headers.ACCEPT);
    boolean text = LandingPage.wantsText(accept == null ? "" : accept);
    byte[] body = text ? landing.text() : landing.html();
    exchange.setStatusCode(200);
    String type = text ? "text/plain; charset=utf-8" : "text/html; charset=utf-8";
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, type);
    exchange.getResponseHeaders().put(Headers.VARY, "Accept");
    exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, body.length);
    exchange.getResponseSender().send(ByteBuffer.wrap(body));
  }

  private void healthz(HttpServerExchange exchange) {
    if (!snapshots.get().ready()) {
      notReady(exchange);
      return;
    }
    plain(exchange, 200, "ok\n");
  }

  /** What {@code /status} serves: the daemon's parts, read on each request. */
  public void parts(Supplier<PartsReport> report) {
    status.use(report);
  }

  private void summary(HttpServerExchange exchange) throws Exception {
    Snapshot snapshot = snapshots.get();
    NodeSample node = snapshot.node();
    if (node == null) { // not ready()
      notReady(exchange);
      return;
    }
    Deque<String> query = exchange.getQueryParameters().get(SummaryForm.PARAMETER);
    Collection<String> queryValues = query == null ? List.of() : query;
    if (exchange.getRequestMethod().equals(Methods.POST)
        && SummaryForm.isUrlencoded(exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE))) {
      exchange.getRequestReceiver().receiveFullString(
          (ex, form) -> {
            boolean cpuAndMemoryOnly;
            try {
              cpuAndMemoryOnly = SummaryForm.onlyCpuAndMemory(queryValues, form);
            } catch (IllegalArgumentException e) {
              plain(ex, 500, "Internal Error: parse form failed: " + e.getMessage() + "\n");
              return;
            }
            serveSummary(ex, snapshot, cpuAndMemoryOnly);
          },
          StandardCharsets.UTF_8);
      return;
    }
    serveSummary(exchange, snapshot, SummaryForm.onlyCpuAndMemory(queryValues, null));
  }

  private void serveSummary(
      HttpServerExchange exchange, Snapshot snapshot, boolean cpuAndMemoryOnly) {
    Body body = cpuAndMemoryOnly ? Body.SUMMARY_CPU_AND_MEMORY : Body.SUMMARY;
    serveCached(
        exchange,
        snapshot,
        body,
        s -> {
          // A snapshot read after one with a node sample has one too: a node sample is only ever replaced.
          NodeSample n = Objects.requireNonNull(s.node(), "node");
          var summary =
              cpuAndMemoryOnly
                  ? assembler.assembleCpuAndMemory(n, s.previousNode(), s.runtime(), s.cgroups())
                  : assembler.assemble(n, s.previousNode(), s.runtime(), s.cgroups());
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
        snapshot,
        Body.RESOURCE_METRICS,
        s -> new RenderedBody(renderer.renderText(ResourceMetrics.build(s)), MetricsRenderer.textContentType()));
  }

  private void metrics(HttpServerExchange exchange, MetricsRenderer from) {
    if (exchange.isInIoThread()) {
      exchange.dispatch(() -> metrics(exchange, from));
      return;
    }
    MetricsRenderer.Rendered r =
        from.render(exchange.getRequestHeaders().getFirst(Headers.ACCEPT), BodySender.acceptsGzip(exchange));
    BodySender.sendParts(exchange, r.parts(), r.length(), r.contentType(), r.gzip(), r.sent());
  }

  /**
   * Serves {@code read}'s body from the cache on the I/O thread; on a miss renders on a worker, once per snapshot
   * version. A request whose version was superseded meanwhile is served the newest body: never an older version than
   * the cache has, so never a render of an old one.
   */
  private void serveCached(
      HttpServerExchange exchange, Snapshot read, Body key, Function<Snapshot, RenderedBody> render) {
    if (BodySender.trySend(exchange, rendered.getIfPresent(read.version(), key))) {
      return;
    }
    if (exchange.isInIoThread()) {
      exchange.dispatch(() -> renderAndSend(exchange, read, key, render));
      return;
    }
    renderAndSend(exchange, read, key, render);
  }

  private void renderAndSend(
      HttpServerExchange exchange, Snapshot read, Body key, Function<Snapshot, RenderedBody> render) {
    Snapshot snapshot = read;
    while (true) {
      Snapshot s = snapshot;
      if (BodySender.trySend(exchange, rendered.get(s.version(), key, k -> render.apply(s)))) {
        return;
      }
      snapshot = snapshots.get();
    }
  }

  /** Bodies of {@code /stats/summary} and {@code /metrics/resource} rendered so far: one per version and kind asked. */
  long bodyRenders() {
    return rendered.computations();
  }

  /** The bodies the cache holds now: those of the newest version asked for, none superseded. */
  List<RenderedBody> heldBodies() {
    return rendered.held();
  }

  static void notReady(HttpServerExchange exchange) {
    exchange.getResponseHeaders().put(Headers.RETRY_AFTER, "1");
    plain(exchange, 503, "no sample yet\n");
  }

  static void plain(HttpServerExchange exchange, int status, String text) {
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
