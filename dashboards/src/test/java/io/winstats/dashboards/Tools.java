package io.winstats.dashboards;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** External programs the tests run (promtool, prometheus): found on the PATH, skipped without them unless CI. */
final class Tools {
  private Tools() {}

  /** Whether {@code CI} is {@code true}: then a missing tool fails the test instead of skipping it. */
  static boolean isCi() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }

  static Optional<Path> onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, tool);
      if (Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** The tool's path; skips the test (with the reason) when absent, or fails when {@code CI=true}. */
  static Path require(String tool) {
    return require(tool, "prometheus");
  }

  /** As {@link #require(String)}, for a tool of the Debian package {@code debianPackage}. */
  static Path require(String tool, String debianPackage) {
    Optional<Path> p = onPath(tool);
    if (p.isEmpty()) {
      String message =
          tool + " is not on the PATH (Debian package " + debianPackage + ", listed in dev/debian-packages.txt)";
      if (isCi()) {
        throw new AssertionError(message + "; CI=true, so this fails instead of skipping");
      }
      System.err.println("SKIPPED " + message);
      Assumptions.abort(message);
    }
    return p.get();
  }

  record Result(int exitCode, String output) {}

  /** Runs {@code command} to completion with stdout and stderr merged. */
  static Result run(Duration timeout, List<String> command) {
    try {
      Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(command + " did not finish within " + timeout);
      }
      return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new AssertionError("could not run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
