package io.winstats.exporter.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.handlers.PathHandler;
import io.undertow.util.HttpString;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One path the server answers: the methods it takes and the handler that answers them. A method it does not take gets
 * {@code 405} with {@code Allow}; a path no route has goes to the not-found handler.
 *
 * @param path the exact request path
 * @param methods the methods allowed, e.g. GET and HEAD
 * @param handler what answers an allowed request
 */
record Route(String path, Set<HttpString> methods, HttpHandler handler) {
  private static final HttpString ALLOW = new HttpString("Allow");

  Route {
    Objects.requireNonNull(path, "path");
    methods = Set.copyOf(methods);
    Objects.requireNonNull(handler, "handler");
  }

  /** The routes as one handler, exact paths only; a path declared twice is a programming error. */
  static HttpHandler router(List<Route> routes, HttpHandler notFound) {
    PathHandler paths = new PathHandler(notFound);
    for (Route r : routes) {
      if (routes.stream().filter(o -> o.path().equals(r.path())).count() > 1) {
        throw new IllegalArgumentException("two routes for " + r.path());
      }
      paths.addExactPath(r.path(), r.allowingOnlyItsMethods());
    }
    return paths;
  }

  private HttpHandler allowingOnlyItsMethods() {
    String allowed = String.join(", ", methods.stream().map(HttpString::toString).sorted().toList());
    return exchange -> {
      if (!methods.contains(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().put(ALLOW, allowed);
        ExporterServer.plain(
            exchange, 405, "method " + exchange.getRequestMethod() + " not allowed; use " + allowed + "\n");
        return;
      }
      handler.handleRequest(exchange);
    };
  }
}
