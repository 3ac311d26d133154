package io.winstats.exporter.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The daemon's real jar run as a child process on a free loopback port, its log kept in a file. The jar is named by the
 * system property {@code winstats.jar} (failsafe sets it), with the environment of {@code deploy/daemon.env}. Shipped in the exporter's test-jar for other modules' tests.
 */
public final class DaemonProcess implements AutoCloseable {
  private final ChildProcess process;
  private final int port;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private DaemonProcess(ChildProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts {@code java -jar winstats-exporter.jar} with {@code flags} plus a free {@code --web.listen-address}. */
  public static DaemonProcess start(Path log, String... flags) throws IOException {
    return start(log, List.of(), flags);
  }

  /** Starts {@code java jvmOptions -jar winstats-exporter.jar flags} plus a free {@code --web.listen-address}. */
  public static DaemonProcess start(Path log, List<String> jvmOptions, String... flags) throws IOException {
    return startWith(Path.of(javaBinary()), log, jvmOptions, flags);
  }

  /** As {@link #start(Path, List, String...)}, on the Java launcher {@code java}. */
  public static DaemonProcess startWith(Path java, Path log, List<String> jvmOptions, String... flags)
      throws IOException {
    return startWith(java, Map.of(), log, jvmOptions, flags);
  }

  /** As {@link #start(Path, List, String...)}, with {@code environment} added to the daemon's (over the deployed). */
  public static DaemonProcess startWith(
      Map<String, String> environment, Path log, List<String> jvmOptions, String... flags) throws IOException {
    return startWith(Path.of(javaBinary()), environment, log, jvmOptions, flags);
  }

  /** As {@link #startWith(Path, Path, List, String...)}, with {@code environment} added to the daemon's. */
  public static DaemonProcess startWith(
      Path java, Map<String, String> environment, Path log, List<String> jvmOptions, String... flags)
      throws IOException {
    int port = freePort();
    Map<String, String> deployed = new LinkedHashMap<>(deployedEnvironment());
    deployed.putAll(environment);
    List<String> command = new ArrayList<>(List.of(java.toString()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar().toString()));
    command.add("--web.listen-address=127.0.0.1:" + port);
    command.addAll(List.of(flags));
    return new DaemonProcess(ChildProcess.start(command, deployed, log), port);
  }

  /**
   * The environment every Linux deployment gives the daemon ({@code deploy/daemon.env}: {@code NAME=value} lines,
   * {@code #} comments), which each daemon started here gets under what its caller adds.
   */
  public static Map<String, String> deployedEnvironment() throws IOException {
    Map<String, String> environment = new LinkedHashMap<>();
    for (String line : Files.readAllLines(Path.of("..", "deploy", "daemon.env"))) {
      String entry = line.strip();
      if (entry.isEmpty() || entry.startsWith("#")) {
        continue;
      }
      int equals = entry.indexOf('=');
      if (equals <= 0) {
        throw new IOException("deploy/daemon.env: not NAME=value: " + line);
      }
      environment.put(entry.substring(0, equals), entry.substring(equals + 1));
    }
    return environment;
  }

  /** Runs the jar with {@code args} to completion and returns its exit code and combined output. */
  public static Result run(Duration timeout, String... args) throws IOException, InterruptedException {
    return runWith(Path.of(javaBinary()), List.of(), timeout, args);
  }

  /** As {@link #run(Duration, String...)}, on the Java launcher {@code java} with {@code jvmOptions}. */
  public static Result runWith(Path java, List<String> jvmOptions, Duration timeout, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(java.toString()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar().toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(deployedEnvironment());
    Process p = builder.start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("jar did not exit within " + timeout);
    }
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  /** What a run to completion left: its exit code and combined output. */
  public record Result(int exitCode, String output) {}

  public record Response(int status, String body) {}

  public Response get(String path) {
    return send("GET", path);
  }

  public Response send(String method, String path) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(5))
                  .method(method, HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body());
    } catch (IOException e) {
      return new Response(-1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** {@code 127.0.0.1:PORT}, as a Prometheus scrape target. */
  public String address() {
    return "127.0.0.1:" + port;
  }

  /** The loopback port the daemon serves on. */
  public int port() {
    return port;
  }

  /** The daemon's process id, for reading its CPU and memory from /proc. */
  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public String log() {
    return process.log();
  }

  /** SIGTERM, then a forced kill if it has not stopped within 10 s. */
  @Override
  public void close() throws InterruptedException {
    process.close();
  }

  /** The built jar the daemon runs from (failsafe names it). */
  public static Path jar() {
    String path = System.getProperty("winstats.jar");
    if (path == null || !Files.isRegularFile(Path.of(path))) {
      throw new IllegalStateException("system property winstats.jar must name the built jar (failsafe sets it): " + path);
    }
    return Path.of(path);
  }

  /** The launcher the system property {@code winstats.java} names (the benches' linked runtime), else this JVM's. */
  private static String javaBinary() {
    String java = System.getProperty("winstats.java");
    return java != null ? java : Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** A loopback port free at the time of asking. */
  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
