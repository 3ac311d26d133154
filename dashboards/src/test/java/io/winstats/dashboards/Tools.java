package io.winstats.dashboards;

import io.winstats.testing.RequiresExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * External programs the tests run (promtool, prometheus), found on the PATH; a test that runs one declares it with
 * {@code @Requires(tools = ...)}, which skips it without the program, or fails it in CI. Also the clean-up of the
 * tests' work directories.
 */
final class Tools {
  private Tools() {}

  /** The tool's path; the calling test must carry {@code @Requires(tools = tool)}. */
  static Path path(String tool) {
    return RequiresExtension.onPath(tool)
        .orElseThrow(() -> new IllegalStateException(tool + " is not on the PATH: is the test missing @Requires(tools = \"" + tool + "\")?"));
  }

  record Result(int exitCode, String output) {}

  /** Deletes {@code dir} and everything under it, if it exists (a test's work directory from an earlier run). */
  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

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
