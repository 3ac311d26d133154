package io.winstats.exporter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.exporter.testing.PrometheusText;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A well-behaved client that scrapes {@code /metrics} and {@code /stats/summary} every {@code period} on its own thread
 * and checks every answer: status 200, a body that parses (Prometheus text, JSON), and the node's series present in
 * both ({@code container_cpu_usage_seconds_total{id="/"}} and {@code container_memory_working_set_bytes{id="/"}}; the
 * summary's node CPU and working set). Each scrape is kept as a {@link Scrape} (wall time, what failed, the pod uids
 * seen, {@code container_scrape_error}) for assertions after the run. Bounded: it stops after {@code maxRun} even if
 * nobody calls {@link #close()}.
 */
final class SteadyScraper implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern POD_UID = Pattern.compile("/kubepods/pod([0-9a-f-]{36})");
  private static final Pattern SUMMARY_UID = Pattern.compile("\"uid\":\"([0-9a-f-]{36})\"");

  /**
   * One round: both endpoints once.
   *
   * @param wallMillis when the round started (the wall clock, as the daemon's sample timestamps)
   * @param failure what was wrong with either answer, or {@code null} when both were right
   * @param podUids pod uids that appear anywhere in {@code /metrics} or {@code /stats/summary}
   * @param scrapeError the value of {@code container_scrape_error}, or -1 if it could not be read
   */
  record Scrape(long wallMillis, @Nullable String failure, Set<String> podUids, int scrapeError) {}

  private final int port;
  private final Duration period;
  private final long endNanos;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
  private final List<Scrape> scrapes = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  private SteadyScraper(int port, Duration period, Duration maxRun) {
    this.port = port;
    this.period = period;
    this.endNanos = System.nanoTime() + maxRun.toNanos();
    this.thread = new Thread(this::run, "steady-scraper");
    this.thread.setDaemon(true);
  }

  /** Starts scraping {@code 127.0.0.1:port} now. */
  static SteadyScraper start(int port, Duration period, Duration maxRun) {
    SteadyScraper s = new SteadyScraper(port, period, maxRun);
    s.thread.start();
    return s;
  }

  private void run() {
    long next = System.nanoTime();
    while (running && System.nanoTime() - endNanos < 0) {
      Scrape s = scrapeOnce();
      synchronized (scrapes) {
        scrapes.add(s);
      }
      next += period.toNanos();
      long wait = next - System.nanoTime();
      if (wait > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(wait); // pacing of a periodic client, not a wait for a condition
        } catch (InterruptedException e) {
          return;
        }
      } else {
        next = System.nanoTime();
      }
    }
  }

  private Scrape scrapeOnce() {
    long at = System.currentTimeMillis();
    List<String> problems = new ArrayList<>();
    Set<String> uids = new TreeSet<>();
    int scrapeError = -1;
    String metrics = fetch("/metrics", problems);
    if (metrics != null) {
      try {
        List<PrometheusText> samples = PrometheusText.parse(metrics);
        if (PrometheusText.select(samples, "container_cpu_usage_seconds_total", "id", "/").isEmpty()) {
          problems.add("/metrics lacks container_cpu_usage_seconds_total{id=\"/\"}");
        }
        if (PrometheusText.select(samples, "container_memory_working_set_bytes", "id", "/").isEmpty()) {
          problems.add("/metrics lacks container_memory_working_set_bytes{id=\"/\"}");
        }
        List<PrometheusText> error = PrometheusText.select(samples, "container_scrape_error");
        scrapeError = error.isEmpty() ? -1 : (int) error.get(0).value();
      } catch (AssertionError e) {
        problems.add("/metrics does not parse: " + e.getMessage());
      }
      Matcher m = POD_UID.matcher(metrics);
      while (m.find()) {
        uids.add(m.group(1));
      }
    }
    String summary = fetch("/stats/summary", problems);
    if (summary != null) {
      try {
        JsonNode s = JSON.readTree(summary);
        if (!s.at("/node/cpu/usageCoreNanoSeconds").isNumber() || !s.at("/node/memory/workingSetBytes").isNumber()) {
          problems.add("/stats/summary lacks node cpu or memory");
        }
      } catch (IOException e) {
        problems.add("/stats/summary is not JSON: " + e.getMessage());
      }
      Matcher m = SUMMARY_UID.matcher(summary);
      while (m.find()) {
        uids.add(m.group(1));
      }
    }
    return new Scrape(at, problems.isEmpty() ? null : String.join("; ", problems), uids, scrapeError);
  }

  private @Nullable String fetch(String path, List<String> problems) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(5))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        problems.add(path + " answered " + r.statusCode() + ": " + r.body().lines().findFirst().orElse(""));
        return null;
      }
      return r.body();
    } catch (IOException e) {
      problems.add(path + " failed: " + e);
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      problems.add(path + " interrupted");
      return null;
    }
  }

  /** Every scrape so far, oldest first. */
  List<Scrape> scrapes() {
    synchronized (scrapes) {
      return List.copyOf(scrapes);
    }
  }

  /** The scrapes whose answers were wrong. */
  List<Scrape> failures() {
    return scrapes().stream().filter(s -> s.failure() != null).toList();
  }

  /** Stops the thread and waits (bounded) for it to end. */
  @Override
  public void close() throws InterruptedException {
    running = false;
    // Not interrupted: an interrupted HttpClient.send would count as a failed scrape. One round is at most 2 x 5 s.
    thread.join(TimeUnit.SECONDS.toMillis(15));
  }
}
