package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class LogLinesTest {
  private static LogRecord record(Level level, String logger, String message, Object... params) {
    LogRecord r = new LogRecord(level, message);
    r.setLoggerName(logger);
    r.setInstant(Instant.parse("2026-11-23T18:58:13.338Z"));
    r.setParameters(params);
    return r;
  }

  @Test
  void aRecordIsOneLogfmtLineWithTheLoggersSimpleName() {
    assertThat(LogLines.format(record(Level.INFO, "io.winstats.exporter.Daemon", "event=started listen=127.0.0.1:9100")))
        .isEqualTo("ts=2026-11-23T18:58:13.338Z level=INFO logger=Daemon event=started listen=127.0.0.1:9100\n");
  }

  @Test
  void julLevelsTakeTheNamesSlf4jGaveThem() {
    // slf4j-jdk14 maps error SEVERE, warn WARNING, info INFO, debug FINE, trace FINEST.
    assertThat(LogLines.levelName(Level.SEVERE)).isEqualTo("ERROR");
    assertThat(LogLines.levelName(Level.WARNING)).isEqualTo("WARN");
    assertThat(LogLines.levelName(Level.INFO)).isEqualTo("INFO");
    assertThat(LogLines.levelName(Level.FINE)).isEqualTo("DEBUG");
    assertThat(LogLines.levelName(Level.FINEST)).isEqualTo("TRACE");
  }

  @Test
  void julParametersAsGrpcWritesThemAreFilledIn() {
    assertThat(LogLines.format(record(Level.WARNING, "io.grpc.internal.ManagedChannelImpl", "[{0}] Failed to resolve", "chan-1")))
        .isEqualTo("ts=2026-11-23T18:58:13.338Z level=WARN logger=ManagedChannelImpl [chan-1] Failed to resolve\n");
  }

  @Test
  void anExceptionsStackFollowsItsLine() {
    LogRecord r = record(Level.SEVERE, "io.winstats.exporter.Main", "event=start_failed");
    r.setThrown(new IllegalStateException("boom"));
    assertThat(LogLines.format(r))
        .startsWith("ts=2026-11-23T18:58:13.338Z level=ERROR logger=Main event=start_failed\njava.lang.IllegalStateException: boom\n");
  }
}
