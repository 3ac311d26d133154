package io.winstats.exporter.http;

import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What {@code check} asks of the web configuration: the TLS certificate and key load as the server would load them,
 * and the bearer token file holds a token. The file's users and settings were parsed with the other flags.
 */
public final class WebConfigCheck {
  private WebConfigCheck() {}

  /**
   * What the server would serve with: scheme, users, token; throws {@link IllegalArgumentException} naming the file
   * that does not load.
   */
  public static String describe(ServerSettings settings) {
    WebConfig web = settings.web();
    Path token = settings.bearerTokenFile();
    StringBuilder found = new StringBuilder();
    WebConfig.@Nullable Tls tls = web == null ? null : web.tls();
    if (tls != null) {
      TlsMaterial material = new TlsMaterial(tls, System::nanoTime, Duration.ofSeconds(1));
      found.append("https client_auth=").append(material.config().clientAuth());
    } else {
      found.append("http");
    }
    found.append(" basic_auth_users=").append(web == null ? 0 : web.basicAuthUsers().size());
    if (token != null) {
      BearerToken.read(token);
      found.append(" bearer_token=loaded");
    }
    return found.toString();
  }
}
