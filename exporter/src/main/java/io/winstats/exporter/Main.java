package io.winstats.exporter;

import io.winstats.exporter.logging.LogLines;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/** Entry point: parse flags (exit 2 on bad input), start the daemon, run until a signal stops it. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // Before anything touches java.util.logging: a manager whose handler outlives JUL's own shutdown hook.
    System.setProperty("java.util.logging.manager", LogLines.MANAGER);
    LogLines.install();
    CommandLine cli = ExporterCommand.commandLine(Main::runUntilStopped);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          if (e instanceof IllegalArgumentException) {
            commandLine.getErr().println("winstats-exporter: " + e.getMessage());
            return CommandLine.ExitCode.USAGE;
          }
          LoggerFactory.getLogger(Main.class).error("event=start_failed error={}", e.toString(), e);
          return CommandLine.ExitCode.SOFTWARE;
        });
    System.exit(cli.execute(args));
  }

  private static int runUntilStopped(ExporterConfig config) throws InterruptedException {
    LogLines.setLevel(config.settings().value(LogSettings.LEVEL));
    LogLines.setFormat(config.settings().value(LogSettings.FORMAT));
    Logger log = LoggerFactory.getLogger(Main.class);
    // The hook goes in before the daemon starts: registered after, a SIGTERM between the started line and the
    // registration ended the JVM with neither stop line and nothing closed (seen under two CPU burners).
    AtomicReference<@Nullable Daemon> running = new AtomicReference<>();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  long start = System.nanoTime();
                  log.info("event=stopping");
                  Daemon daemon = running.getAndSet(null);
                  if (daemon != null) {
                    daemon.close();
                  }
                  log.info("event=stopped took={}", Duration.ofNanos(System.nanoTime() - start));
                  stopped.countDown();
                },
                "winstats-shutdown"));
    running.set(Daemon.start(config, Clock.systemUTC()));
    stopped.await();
    return 0;
  }
}
