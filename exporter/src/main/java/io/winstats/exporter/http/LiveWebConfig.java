package io.winstats.exporter.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web configuration as the file says now: re-read when the file changes (modification time, size or identity,
 * looked at no more than once per interval, on requests), as exporter-toolkit re-reads it for every request
 * (web/handler.go, {@code webHandler.ServeHTTP} calls {@code getConfig}), so that {@code basic_auth_users} and the
 * response headers change without a restart. A file that no longer reads keeps the previous configuration and is
 * logged once per change. What the listener was built with (TLS on or off, its protocols, suites and client
 * certificate mode, the rate limit) needs a restart and is logged as such; the certificate, key and client CA files
 * it names reload by themselves ({@link TlsMaterial}). Thread safe.
 */
final class LiveWebConfig {
  private static final Logger LOG = LoggerFactory.getLogger(LiveWebConfig.class);

  private final FileWatch watch;
  private final WebConfig started;
  private volatile WebConfig current;

  LiveWebConfig(WebConfig initial, LongSupplier nanoTime, Duration checkEvery) {
    this.started = initial;
    this.current = initial;
    this.watch = new FileWatch(List.of(initial.file()), nanoTime, checkEvery);
  }

  /** The configuration in force: the file's, re-read first if it changed since the last look. */
  WebConfig current() {
    if (watch.changed()) {
      reload();
    }
    return current;
  }

  private synchronized void reload() {
    List<String> problems = new ArrayList<>();
    WebConfig next = WebConfigReader.read(current.file(), problems);
    if (next == null) {
      LOG.warn("event=web_config_reload_failed file={} keeping=previous problems=\"{}\"", current.file(),
          String.join("; ", problems));
      return;
    }
    if (!Objects.equals(next.tls(), started.tls()) || next.http2() != started.http2()
        || !Objects.equals(next.rateLimit(), started.rateLimit())) {
      LOG.warn("event=web_config_restart_needed file={} what=\"tls_server_config, http2 or rate_limit\""
          + " applied=\"basic_auth_users, headers\"", current.file());
    }
    current = next;
    LOG.info("event=web_config_reloaded file={} basic_auth_users={} headers={}", next.file(),
        next.basicAuthUsers().size(), next.headers().size());
  }
}
