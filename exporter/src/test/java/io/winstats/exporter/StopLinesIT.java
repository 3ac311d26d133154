package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.testing.DaemonProcess;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every SIGTERM leaves {@code event=stopping} and {@code event=stopped} in the log. JUL's shutdown hook reset the log
 * manager while the daemon's hook ran, and the stopping line was lost in about half of the stops; a race, so it is
 * tried over repeated starts of the real jar.
 */
class StopLinesIT {
  private static final int STARTS = 12;

  @Test
  void everySigtermLogsStoppingAndStopped(@TempDir Path dir) throws Exception {
    for (int i = 0; i < STARTS; i++) {
      Path log = dir.resolve("daemon-" + i + ".log");
      DaemonProcess daemon =
          DaemonProcess.start(log, "--cri.endpoint=unix://" + dir.resolve("no-such.sock"), "--no-collector.cri");
      Deadline.await("started\n" + daemon.log(), Duration.ofSeconds(30), () -> daemon.log().contains("event=started"));
      daemon.close(); // SIGTERM, and waits for the exit
      assertThat(daemon.isAlive()).isFalse();
      String text = daemon.log();
      assertThat(text).as("start %s:\n%s", i, text).contains("event=stopping");
      assertThat(text.lines().filter(l -> l.contains("event=stopped")).toList()).as("start %s:\n%s", i, text)
          .singleElement()
          .satisfies(l -> assertThat(l).containsPattern(" took=\\S+"));
      assertThat(text.indexOf("event=stopping")).isLessThan(text.indexOf("event=stopped"));
    }
  }
}
