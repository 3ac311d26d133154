package io.winstats.exporter.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;

/**
 * One browser with the node page open, as node.js drives it (exporter/src/main/resources/.../http/node/node.js): it
 * loads {@code /node} and its static assets once, then reads {@code /api/v1/history/node} right away and again
 * {@code intervalMillis} (from the answer) after each answer, as node.js's {@code schedule} does. It sends what
 * Chromium sends for {@code fetch(url, {cache: 'no-store', headers: {Accept: 'application/json'}})}: the JSON
 * accept header and {@code Accept-Encoding: gzip, deflate, br, zstd}, so the daemon serves its gzipped body as it
 * would to a browser. It neither parses the rest of the body nor draws: the daemon's cost is what is measured.
 */
final class PageViewer implements AutoCloseable {
  /** What /node's HTML loads (node.html): the stylesheets and scripts, once per page load. */
  static final List<String> PAGE = List.of(
      "/node", "/node/uPlot.min.css", "/node/node.css", "/node/uPlot.iife.min.js", "/node/node.js");
  static final String HISTORY = "/api/v1/history/node";

  private static final Pattern INTERVAL = Pattern.compile("\"intervalMillis\"\\s*:\\s*(\\d+)");
  private static final String ACCEPT_ENCODING = "gzip, deflate, br, zstd";

  private final String base;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Thread thread;
  private final AtomicLong historyRequests = new AtomicLong();
  private volatile boolean stopped;
  private volatile @Nullable Exception failure;

  private PageViewer(String base, int index) {
    this.base = base;
    this.thread = new Thread(this::view, "page-viewer-" + index);
    this.thread.setDaemon(true);
  }

  /** A viewer opening the page at {@code base} ({@code http://127.0.0.1:PORT}) now. */
  static PageViewer open(String base, int index) {
    PageViewer viewer = new PageViewer(base, index);
    viewer.thread.start();
    return viewer;
  }

  /** History reads answered 200 so far. */
  long historyRequests() {
    return historyRequests.get();
  }

  private void view() {
    try {
      for (String path : PAGE) {
        get(path, "text/html,*/*");
      }
      while (!stopped) {
        byte[] body = get(HISTORY, "application/json");
        historyRequests.incrementAndGet();
        Thread.sleep(Math.max(1000, intervalMillis(new String(body, StandardCharsets.UTF_8))));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      if (!stopped) {
        failure = e;
      }
    }
  }

  /** The body of a 200 answer, inflated if the daemon gzipped it. */
  private byte[] get(String path, String accept) throws IOException, InterruptedException {
    HttpResponse<byte[]> r =
        http.send(
            HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .header("Accept", accept)
                .header("Accept-Encoding", ACCEPT_ENCODING)
                .header("Cache-Control", "no-cache")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw new IOException(path + " answered " + r.statusCode());
    }
    if (r.headers().firstValue("Content-Encoding").orElse("").equals("gzip")) {
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(r.body()))) {
        return in.readAllBytes();
      }
    }
    return r.body();
  }

  /** The history's {@code intervalMillis}, the pace node.js reads it at. */
  static long intervalMillis(String historyJson) {
    Matcher m = INTERVAL.matcher(historyJson);
    if (!m.find()) {
      throw new IllegalArgumentException("no intervalMillis in the history");
    }
    return Long.parseLong(m.group(1));
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    thread.interrupt();
    thread.join();
    Exception e = failure;
    if (e != null) {
      throw new IllegalStateException("the page viewer failed", e);
    }
  }
}
