package io.winstats.exporter.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.winstats.exporter.history.HistoryJson;
import io.winstats.exporter.history.NodeHistory;
import io.winstats.exporter.metrics.LatestVersionCache;
import io.winstats.exporter.sampling.Snapshot;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The node page's JSON (docs/NODE-PAGE.md): {@code /api/v1/history/node}, rendered once per recorded sample and
 * served as cached bytes, and {@code /api/v1/history/pod?uid=UID}, rendered on request (one pod, no cache). Both sit
 * behind the server's TLS and authentication like every path but {@code /healthz}. A parameter they do not take, or a
 * missing or repeated {@code uid}, is a 400; a UID the history does not hold a 404.
 */
final class HistoryRoutes {
  /** The node's window and the newest pods. */
  static final String NODE_PATH = "/api/v1/history/node";
  /** One pod's window. */
  static final String POD_PATH = "/api/v1/history/pod";

  private static final Set<HttpString> READ_METHODS = Set.of(Methods.GET, Methods.HEAD);
  private static final String JSON = "application/json";

  private final NodeHistory history;
  private final Supplier<Snapshot> snapshots;
  private final LatestVersionCache<String, RenderedBody> rendered =
      new LatestVersionCache<>(RenderedBody::release);

  HistoryRoutes(NodeHistory history, Supplier<Snapshot> snapshots) {
    this.history = Objects.requireNonNull(history, "history");
    this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
  }

  List<Route> routes() {
    return List.of(new Route(NODE_PATH, READ_METHODS, this::node), new Route(POD_PATH, READ_METHODS, this::pod));
  }

  private void node(HttpServerExchange exchange) {
    if (!exchange.getQueryParameters().isEmpty()) {
      ExporterServer.plain(exchange, 400, NODE_PATH + " takes no parameters\n");
      return;
    }
    if (!snapshots.get().ready()) {
      ExporterServer.notReady(exchange);
      return;
    }
    if (BodySender.trySend(exchange, rendered.getIfPresent(history.version(), NODE_PATH))) {
      return;
    }
    if (exchange.isInIoThread()) {
      exchange.dispatch(() -> node(exchange));
      return;
    }
    // Null, or released, when a newer history version was cached meanwhile: that one is served.
    boolean sent = false;
    while (!sent) {
      sent =
          BodySender.trySend(
              exchange,
              rendered.get(history.version(), NODE_PATH, key -> new RenderedBody(HistoryJson.node(history), JSON)));
    }
  }

  private void pod(HttpServerExchange exchange) {
    Map<String, Deque<String>> query = exchange.getQueryParameters();
    Deque<String> uids = query.get("uid");
    if (query.size() != 1 || uids == null || uids.size() != 1 || uids.getFirst().isEmpty()) {
      ExporterServer.plain(exchange, 400, POD_PATH + " takes one parameter, uid=POD_UID\n");
      return;
    }
    if (!snapshots.get().ready()) {
      ExporterServer.notReady(exchange);
      return;
    }
    if (exchange.isInIoThread()) {
      exchange.dispatch(() -> pod(exchange));
      return;
    }
    String uid = uids.getFirst();
    byte[] body = HistoryJson.pod(history, uid, snapshots.get().runtime());
    if (body == null) {
      ExporterServer.plain(exchange, 404, "no pod of uid " + uid + " in the last " + history.samples() + " samples\n");
      return;
    }
    RenderedBody once = new RenderedBody(body, JSON);
    BodySender.send(exchange, once);
    once.release(); // freed when its send ends
  }
}
