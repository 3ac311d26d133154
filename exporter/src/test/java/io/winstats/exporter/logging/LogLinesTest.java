package io.winstats.exporter.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The daemon's events through SLF4J to one line each, read back with an independent logfmt parser
 * ({@link LogfmtLines}) and with Jackson: every value comes back as it was given, whatever it holds.
 */
class LogLinesTest {
  private static final String NAME = "io.winstats.test.Daemon";
  private final List<LogRecord> records = new ArrayList<>();
  private final Logger jul = Logger.getLogger(NAME);
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          record.setInstant(Instant.parse("2026-11-23T18:58:13.338Z"));
          records.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void capture() {
    jul.addHandler(capture);
    jul.setUseParentHandlers(false);
    jul.setLevel(Level.ALL);
  }

  @AfterEach
  void release() {
    jul.removeHandler(capture);
    jul.setUseParentHandlers(true);
  }

  private LogRecord only() {
    assertThat(records).hasSize(1);
    return records.get(0);
  }

  @Test
  void theDaemonsLoggersAreTheEventLoggers() {
    assertThat(LoggerFactory.getLogger(NAME)).isInstanceOf(EventLogger.class);
  }

  @Test
  void valuesWithSpacesQuotesAndNewlinesComeBackWhole() {
    String error = "endpoint=unix:///run/c.sock rpc=Version code=UNAVAILABLE: java.net.SocketException: No such file";
    LoggerFactory.getLogger(NAME).warn(
        "event=collector_failed collector={} reason={} error=\"{}\" impact=\"{}; retrying with backoff\" runtime={}",
        "cri", "endpoint_missing", error, "no runtime answers", "containerd 1.6.20~ds1 \"quoted\"\nsecond line");

    String line = LogLines.logfmt(only());

    assertThat(line).endsWith("\n").doesNotContain("\n ").hasLineCount(1);
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("ts", "2026-11-23T18:58:13.338Z");
    expected.put("level", "WARN");
    expected.put("logger", "Daemon");
    expected.put("event", "collector_failed");
    expected.put("collector", "cri");
    expected.put("reason", "endpoint_missing");
    expected.put("error", error);
    expected.put("impact", "no runtime answers; retrying with backoff");
    expected.put("runtime", "containerd 1.6.20~ds1 \"quoted\"\nsecond line");
    assertThat(LogfmtLines.parse(line)).isEqualTo(expected);
  }

  @Test
  void durationsAreGoDurations() {
    LoggerFactory.getLogger(NAME).info("event=collector_recovered collector={} outage={}", "cri", Duration.parse("PT26.828911341S"));
    assertThat(LogfmtLines.parse(LogLines.logfmt(only()))).containsEntry("outage", "26.828s");
  }

  @Test
  void goDurationForms() {
    assertThat(Logfmt.duration(Duration.ZERO)).isEqualTo("0s");
    assertThat(Logfmt.duration(Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(Logfmt.duration(Duration.ofMillis(26_800))).isEqualTo("26.8s");
    assertThat(Logfmt.duration(Duration.ofSeconds(90))).isEqualTo("1m30s");
    assertThat(Logfmt.duration(Duration.ofSeconds(7205))).isEqualTo("2h0m5s");
    assertThat(Logfmt.duration(Duration.ofSeconds(-3))).isEqualTo("-3s");
  }

  @Test
  void wordsOutsideAFieldAreTheMessage() {
    LoggerFactory.getLogger(NAME).debug("collector={} failure detail", "cri", new IllegalStateException("boom"));

    Map<String, String> fields = LogfmtLines.parse(LogLines.logfmt(only()));

    assertThat(fields).containsEntry("collector", "cri").containsEntry("msg", "failure detail");
    assertThat(fields.get("stack")).startsWith("java.lang.IllegalStateException: boom\n\tat ");
  }

  @Test
  void aLibrarysRecordIsItsMessageWithJulParametersFilledIn() {
    LogRecord r = new LogRecord(Level.WARNING, "[{0}] Failed to resolve name. status={1}");
    r.setLoggerName("io.grpc.internal.ManagedChannelImpl");
    r.setInstant(Instant.parse("2026-11-23T18:58:13.338Z"));
    r.setParameters(new Object[] {"chan-1", "UNAVAILABLE"});

    assertThat(LogfmtLines.parse(LogLines.logfmt(r)))
        .containsEntry("logger", "ManagedChannelImpl")
        .containsEntry("msg", "[chan-1] Failed to resolve name. status=UNAVAILABLE");
  }

  @Test
  void jsonCarriesTheSameFields() throws Exception {
    LoggerFactory.getLogger(NAME).info("event=cri_connected endpoint={} runtime={}", "unix:///run/c.sock", "containerd 1.6.20~ds1");

    String line = LogLines.json(only());

    assertThat(line).hasLineCount(1);
    JsonNode json = new ObjectMapper().readTree(line);
    assertThat(json.path("level").asText()).isEqualTo("INFO");
    assertThat(json.path("logger").asText()).isEqualTo("Daemon");
    assertThat(json.path("event").asText()).isEqualTo("cri_connected");
    assertThat(json.path("runtime").asText()).isEqualTo("containerd 1.6.20~ds1");
    assertThat(json.path("ts").asText()).isEqualTo("2026-11-23T18:58:13.338Z");
  }

  /** Numbers and booleans given as arguments are JSON numbers and booleans; logfmt writes the same text. */
  @Test
  void jsonWritesNumberAndBooleanArgumentsTyped() throws Exception {
    LoggerFactory.getLogger(NAME).info(
        "event=round pods={} seconds={} ok={} interval={} version={} bytes=\"{} of {}\"",
        110, 0.25, true, Duration.ofSeconds(10), "1.0", 3L, 4L);

    JsonNode json = new ObjectMapper().readTree(LogLines.json(only()));
    assertThat(json.path("pods").isIntegralNumber()).isTrue();
    assertThat(json.path("pods").asInt()).isEqualTo(110);
    assertThat(json.path("seconds").isDouble()).isTrue();
    assertThat(json.path("seconds").asDouble()).isEqualTo(0.25);
    assertThat(json.path("ok").isBoolean()).isTrue();
    assertThat(json.path("ok").asBoolean()).isTrue();
    assertThat(json.path("interval").asText()).as("durations as Go prints them").isEqualTo("10s");
    assertThat(json.path("version").isTextual()).as("a string that looks like a number stays a string").isTrue();
    assertThat(json.path("bytes").asText()).as("a value of several arguments is text").isEqualTo("3 of 4");
    assertThat(LogfmtLines.parse(LogLines.logfmt(only())))
        .containsEntry("pods", "110")
        .containsEntry("seconds", "0.25")
        .containsEntry("ok", "true");
  }

  /** The started line's server description is passed whole as one argument: its pairs are fields too. */
  @Test
  void anArgumentWrittenBareIsReadAsFields() {
    LoggerFactory.getLogger(NAME).info("event=started listen={} {} node={}", ":9844",
        "scheme=https client_auth=RequireAndVerifyClientCert protocols=TLSv1.2,TLSv1.3", "n1");

    assertThat(LogfmtLines.parse(LogLines.logfmt(only())))
        .containsEntry("listen", ":9844")
        .containsEntry("scheme", "https")
        .containsEntry("protocols", "TLSv1.2,TLSv1.3")
        .containsEntry("node", "n1")
        .doesNotContainKey("msg");
  }

  /**
   * The server's guard is passed as a map: its entries are fields typed as {} arguments are, so event=started writes
   * basic_auth_users as the number event=web_config_reloaded writes, not as a string.
   */
  @Test
  void aMapWrittenBareIsFieldsOfTheirOwnTypes() throws Exception {
    Map<String, Object> guard = new LinkedHashMap<>();
    guard.put("scheme", "http");
    guard.put("basic_auth_users", 2);
    guard.put("bearer_token", false);
    guard.put("max_connections", 256);
    LoggerFactory.getLogger(NAME).info("event=started listen={} {} node={}", ":9844", guard, "n1");

    JsonNode json = new ObjectMapper().readTree(LogLines.json(only()));
    assertThat(json.path("scheme").asText()).isEqualTo("http");
    assertThat(json.path("basic_auth_users").isIntegralNumber()).as(json.toString()).isTrue();
    assertThat(json.path("bearer_token").isBoolean()).as(json.toString()).isTrue();
    assertThat(json.path("max_connections").asInt()).isEqualTo(256);
    assertThat(json.path("node").asText()).isEqualTo("n1");
    assertThat(LogfmtLines.parse(LogLines.logfmt(only())))
        .containsEntry("basic_auth_users", "2")
        .containsEntry("bearer_token", "false")
        .doesNotContainKey("msg");
  }

  @Test
  void julLevelsTakeSlf4jsNames() {
    assertThat(LogLines.levelName(Level.SEVERE)).isEqualTo("ERROR");
    assertThat(LogLines.levelName(Level.WARNING)).isEqualTo("WARN");
    assertThat(LogLines.levelName(Level.INFO)).isEqualTo("INFO");
    assertThat(LogLines.levelName(Level.FINE)).isEqualTo("DEBUG");
    assertThat(LogLines.levelName(Level.FINEST)).isEqualTo("TRACE");
  }

  @Test
  void logfmtQuotesOnlyWhatNeedsIt() {
    assertThat(Logfmt.value("unix:///run/containerd/containerd.sock")).isEqualTo("unix:///run/containerd/containerd.sock");
    assertThat(Logfmt.value("")).isEqualTo("");
    assertThat(Logfmt.value("a=b")).isEqualTo("\"a=b\"");
    assertThat(Logfmt.value("C:\\ProgramData x")).isEqualTo("\"C:\\\\ProgramData x\"");
    assertThat(Logfmt.value("bell\u0007")).isEqualTo("\"bell\\u0007\"");
  }

  @Test
  void theReaderRefusesWhatIsNotLogfmt() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> LogfmtLines.parse("ts=1 level=INFO logger=D runtime=containerd 1.6.20~ds1"))
        .isInstanceOf(AssertionError.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> LogfmtLines.parse("ts=1 level=INFO logger=D error=\"unterminated"))
        .isInstanceOf(AssertionError.class);
  }
}
