package io.winstats.exporter.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A program started by a test, its combined output kept in a log file, stopped with SIGTERM and then, after 10 s, a
 * forced kill. The daemon, node_exporter and Prometheus of the tests all run as one.
 */
public final class ChildProcess implements AutoCloseable {
  private final Process process;
  private final Path log;

  private ChildProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Starts {@code command} with stdout and stderr in {@code log} (its directory is created). */
  public static ChildProcess start(List<String> command, Path log) throws IOException {
    return start(command, java.util.Map.of(), log);
  }

  /** As {@link #start(List, Path)}, with {@code environment} added to this process's. */
  public static ChildProcess start(List<String> command, java.util.Map<String, String> environment, Path log)
      throws IOException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    return new ChildProcess(builder.start(), log);
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** What the program has written so far, or why it cannot be read. */
  public String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** SIGTERM, then a forced kill if it has not stopped within 10 s. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
  }
}
