package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.testing.DaemonProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * basic_auth_users change under the running jar, as exporter-toolkit re-reads its web configuration for every request:
 * the new password is taken and the old one refused with no restart, a file that no longer reads keeps the last good
 * configuration, and each step is logged. The file is replaced the way a Kubernetes Secret volume does it, by an
 * atomic rename.
 */
class WebConfigReloadIT {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** The status of an authenticated request, -1 when none came (not listening yet). */
  private int status(DaemonProcess daemon, String user, String password) {
    String basic = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    HttpRequest r = HttpRequest.newBuilder(URI.create("http://" + daemon.address() + "/metrics/resource"))
        .header("Authorization", "Basic " + basic).timeout(Duration.ofSeconds(5)).build();
    try {
      return http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (java.io.IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static void replace(Path file, String content) throws Exception {
    Path next = Files.writeString(file.resolveSibling(file.getFileName() + ".next"), content);
    Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static String users(String... userHashPairs) {
    StringBuilder yaml = new StringBuilder("http_server_config:\n  headers:\n    X-Content-Type-Options: nosniff\n"
        + "basic_auth_users:\n");
    for (int i = 0; i < userHashPairs.length; i += 2) {
      yaml.append("  ").append(userHashPairs[i]).append(": ").append(userHashPairs[i + 1]).append('\n');
    }
    return yaml.toString();
  }

  @Test
  void changedCredentialsApplyWithoutARestart(@TempDir Path dir) throws Exception {
    Path web = Files.writeString(dir.resolve("web.yml"), users("prometheus", BCrypt.hashpw("first", BCrypt.gensalt(4))));
    try (DaemonProcess daemon = DaemonProcess.start(dir.resolve("daemon.log"), "--web.config.file=" + web,
        "--no-collector.cri", "--sampling.interval=1s")) {
      Deadline.await("ready\n" + daemon.log(), Duration.ofSeconds(30),
          () -> status(daemon, "prometheus", "first") == 200);
      assertThat(status(daemon, "prometheus", "second")).isEqualTo(401);
      long pid = daemon.pid();

      replace(web, users("prometheus", BCrypt.hashpw("second", BCrypt.gensalt(4)),
          "grafana", BCrypt.hashpw("third", BCrypt.gensalt(4))));
      Deadline.await("the new password\n" + daemon.log(), Duration.ofSeconds(15),
          () -> status(daemon, "prometheus", "second") == 200);
      assertThat(status(daemon, "prometheus", "first")).as("the old password, cached before").isEqualTo(401);
      assertThat(status(daemon, "grafana", "third")).as("a user added").isEqualTo(200);

      replace(web, "basic_auth_users: [not, a, mapping\n");
      // The file is looked at on requests, as the toolkit reads it per request: ask until the failure is logged.
      Deadline.await("the failed reload logged\n" + daemon.log(), Duration.ofSeconds(15),
          () -> status(daemon, "prometheus", "second") == 200 && daemon.log().contains("event=web_config_reload_failed"));
      assertThat(status(daemon, "prometheus", "second")).as("the last good file stays").isEqualTo(200);

      assertThat(daemon.pid()).isEqualTo(pid);
      assertThat(daemon.isAlive()).isTrue();
      assertThat(daemon.log()).contains("event=web_config_reloaded").contains("basic_auth_users=2");
    }
  }
}
