package io.winstats.exporter.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * The node page (docs/NODE-PAGE.md): {@code /node}, its script and style, and uPlot from its WebJar, all read from
 * the jar once at start. Every answer carries a Content-Security-Policy that lets the page load its own scripts and
 * styles and read the daemon's JSON, and nothing from elsewhere; the page asks nothing of another host.
 */
final class NodePageRoutes {
  /** The page; {@code /node?pod=UID} is one pod's view of it. */
  static final String PAGE_PATH = "/node";

  /**
   * Only this origin's scripts, styles and JSON; no inline script or style element, no frame, no form, no base.
   * {@code img-src data:} for the page's empty icon, which keeps the browser from asking for /favicon.ico.
   */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:;"
          + " base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private static final Set<HttpString> READ_METHODS = Set.of(Methods.GET, Methods.HEAD);
  private static final HttpString CSP = new HttpString("Content-Security-Policy");
  private static final HttpString NOSNIFF = new HttpString("X-Content-Type-Options");
  private static final HttpString REFERRER = new HttpString("Referrer-Policy");
  private static final HttpString CACHE = new HttpString("Cache-Control");
  private static final String OWN = "/io/winstats/exporter/http/node/";
  private static final String UPLOT_POM = "/META-INF/maven/org.webjars.npm/uplot/pom.properties";

  private final List<Route> routes = new ArrayList<>();

  /** Reads the page's files; a jar without them is a broken build: {@link IllegalStateException}. */
  NodePageRoutes() {
    String uplot = "/META-INF/resources/webjars/uplot/" + uplotVersion() + "/dist/";
    add(PAGE_PATH, OWN + "node.html", "text/html; charset=utf-8");
    add(PAGE_PATH + "/node.js", OWN + "node.js", "text/javascript; charset=utf-8");
    add(PAGE_PATH + "/node.css", OWN + "node.css", "text/css; charset=utf-8");
    add(PAGE_PATH + "/uPlot.iife.min.js", uplot + "uPlot.iife.min.js", "text/javascript; charset=utf-8");
    add(PAGE_PATH + "/uPlot.min.css", uplot + "uPlot.min.css", "text/css; charset=utf-8");
  }

  List<Route> routes() {
    return List.copyOf(routes);
  }

  private void add(String path, String resource, String contentType) {
    RenderedBody body = new RenderedBody(read(resource), contentType);
    routes.add(new Route(path, READ_METHODS, exchange -> serve(exchange, body)));
  }

  private static void serve(HttpServerExchange exchange, RenderedBody body) {
    exchange.getResponseHeaders().put(CSP, CONTENT_SECURITY_POLICY);
    exchange.getResponseHeaders().put(NOSNIFF, "nosniff");
    exchange.getResponseHeaders().put(REFERRER, "no-referrer");
    // The files change only with the jar; revalidating costs one small request per file and page load.
    exchange.getResponseHeaders().put(CACHE, "no-cache");
    BodySender.send(exchange, body);
  }

  /** The uPlot WebJar's version, from its own Maven properties: the root pom pins it, the code does not repeat it. */
  private static String uplotVersion() {
    Properties p = new Properties();
    try (InputStream in = NodePageRoutes.class.getResourceAsStream(UPLOT_POM)) {
      if (in == null) {
        throw new IllegalStateException("the jar lacks uPlot's WebJar (" + UPLOT_POM + ")");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + UPLOT_POM, e);
    }
    String version = p.getProperty("version");
    if (version == null) {
      throw new IllegalStateException(UPLOT_POM + " names no version");
    }
    return version;
  }

  private static byte[] read(String resource) {
    try (InputStream in = NodePageRoutes.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("the jar lacks " + resource);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
