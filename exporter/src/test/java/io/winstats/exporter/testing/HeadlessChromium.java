package io.winstats.exporter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.winstats.cri.testing.Deadline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Debian's Chromium, headless, driven over its DevTools protocol (https://chromedevtools.github.io/devtools-protocol/)
 * with the JDK's WebSocket client: one page, its console errors, uncaught exceptions and browser log errors (a
 * Content-Security-Policy violation, a failed load) collected from the start. Runs as root, so {@code --no-sandbox};
 * a fresh profile per instance, and no network of its own beyond what the page asks for.
 */
public final class HeadlessChromium implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration CALL = Duration.ofSeconds(30);

  private final Process process;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> calls = new ConcurrentHashMap<>();
  private final List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());

  private HeadlessChromium(Process process, WebSocket socket) {
    this.process = process;
    this.socket = socket;
  }

  /** Starts Chromium with a fresh profile under {@code dir} and attaches to its one page. */
  public static HeadlessChromium start(Path dir) throws IOException {
    Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
    Process process =
        new ProcessBuilder(
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile,
                "about:blank")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("chromium.log").toFile())
            .start();
    try {
      // Chromium writes the port it bound, and the browser's path, into the profile once it listens.
      Path portFile = profile.resolve("DevToolsActivePort");
      List<String> lines =
          Deadline.poll("Chromium's DevToolsActivePort (log: " + dir.resolve("chromium.log") + ")", START, () -> {
            try {
              List<String> l = Files.exists(portFile) ? Files.readAllLines(portFile) : List.of();
              return l.size() >= 2 ? l : null;
            } catch (IOException e) {
              return null;
            }
          });
      HttpClient http = HttpClient.newHttpClient();
      String list = "http://127.0.0.1:" + lines.get(0).strip() + "/json/list";
      String pageSocket =
          Deadline.poll("a page target at " + list, START, () -> {
            try {
              JsonNode targets =
                  JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(list)).build(),
                      HttpResponse.BodyHandlers.ofString()).body());
              for (JsonNode t : targets) {
                if (t.path("type").asText().equals("page")) {
                  return t.path("webSocketDebuggerUrl").asText();
                }
              }
              return null;
            } catch (IOException e) {
              return null;
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IllegalStateException(e);
            }
          });
      HeadlessChromium[] self = new HeadlessChromium[1];
      Listener listener = new Listener(self);
      WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(pageSocket), listener).join();
      self[0] = new HeadlessChromium(process, socket);
      self[0].call("Runtime.enable", JSON.createObjectNode());
      self[0].call("Log.enable", JSON.createObjectNode());
      self[0].call("Page.enable", JSON.createObjectNode());
      return self[0];
    } catch (RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
  }

  /** Loads {@code url} and waits for its load event's answer to the navigation command. */
  public void open(String url) {
    ObjectNode params = JSON.createObjectNode().put("url", url);
    JsonNode result = call("Page.navigate", params);
    if (result.has("errorText")) {
      throw new IllegalStateException("cannot open " + url + ": " + result.path("errorText").asText());
    }
  }

  /** The value of a JavaScript expression in the page (JSON-serialisable), or throws with the page's exception. */
  public JsonNode eval(String expression) {
    ObjectNode params =
        JSON.createObjectNode().put("expression", expression).put("returnByValue", true).put("awaitPromise", true);
    JsonNode result = call("Runtime.evaluate", params);
    if (result.has("exceptionDetails")) {
      throw new IllegalStateException(expression + " threw: " + result.path("exceptionDetails"));
    }
    return result.at("/result/value");
  }

  /** Sets the viewport the page lays out in, in CSS pixels (a narrow one to see the page as a phone shows it). */
  public void viewport(int width, int height) {
    call("Emulation.setDeviceMetricsOverride",
        JSON.createObjectNode().put("width", width).put("height", height).put("deviceScaleFactor", 1)
            .put("mobile", false));
  }

  /** Writes a PNG of the whole page, beyond the viewport too, to {@code file}. */
  public void screenshot(Path file) throws IOException {
    JsonNode shot =
        call("Page.captureScreenshot",
            JSON.createObjectNode().put("format", "png").put("captureBeyondViewport", true));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, java.util.Base64.getDecoder().decode(shot.path("data").asText()));
  }

  /** Console errors, uncaught exceptions and browser log errors since start, each as one line. */
  public List<String> errors() {
    synchronized (errors) {
      return List.copyOf(errors);
    }
  }

  private JsonNode call(String method, ObjectNode params) {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    calls.put(id, answer);
    ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
    message.set("params", params);
    socket.sendText(message.toString(), true).join();
    try {
      JsonNode reply = answer.get(CALL.toMillis(), TimeUnit.MILLISECONDS);
      if (reply.has("error")) {
        throw new IllegalStateException(method + ": " + reply.path("error"));
      }
      return reply.path("result");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(method, e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(method + ": no answer within " + CALL, e);
    } finally {
      calls.remove(id);
    }
  }

  private void received(String text) {
    JsonNode message;
    try {
      message = JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (message.has("id")) {
      CompletableFuture<JsonNode> answer = calls.get(message.path("id").asInt());
      if (answer != null) {
        answer.complete(message);
      }
      return;
    }
    JsonNode p = message.path("params");
    switch (message.path("method").asText()) {
      case "Runtime.consoleAPICalled" -> {
        if (p.path("type").asText().equals("error") || p.path("type").asText().equals("assert")) {
          errors.add("console." + p.path("type").asText() + ": " + p.path("args"));
        }
      }
      case "Runtime.exceptionThrown" -> errors.add("uncaught: " + p.path("exceptionDetails"));
      case "Log.entryAdded" -> {
        if (p.at("/entry/level").asText().equals("error")) {
          errors.add("log " + p.at("/entry/source").asText() + ": " + p.at("/entry/text").asText() + " "
              + p.at("/entry/url").asText());
        }
      }
      default -> { }
    }
  }

  /** Joins a message's frames and hands each whole message to the page. */
  private static final class Listener implements WebSocket.Listener {
    private final HeadlessChromium[] owner;
    private final StringBuilder frames = new StringBuilder();
    private final List<String> early = new ArrayList<>();

    Listener(HeadlessChromium[] owner) {
      this.owner = owner;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      frames.append(data);
      if (last) {
        String message = frames.toString();
        frames.setLength(0);
        if (owner[0] == null) {
          early.add(message);
        } else {
          early.forEach(owner[0]::received);
          early.clear();
          owner[0].received(message);
        }
      }
      webSocket.request(1);
      return null;
    }
  }

  @Override
  public void close() {
    socket.abort();
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
