package io.winstats.exporter.http;

import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the server is reached and guarded.
 *
 * @param limits header, body, time and connection limits
 * @param web the exporter-toolkit web configuration (TLS, basic auth, headers, rate limit), or {@code null} for plain
 *     HTTP with no authentication
 * @param bearerTokenFile a file whose content (trimmed) is a bearer token that grants access, or {@code null}
 */
public record ServerSettings(HttpLimits limits, @Nullable WebConfig web, @Nullable Path bearerTokenFile) {
  /** Plain HTTP, no authentication, default limits. */
  public static final ServerSettings DEFAULTS = new ServerSettings(HttpLimits.DEFAULTS, null, null);

  public ServerSettings {
    Objects.requireNonNull(limits, "limits");
  }

  /** Throws {@link IllegalArgumentException} (naming the flag) unless {@code file} holds a non-empty token. */
  public static void checkBearerTokenFile(Path file) {
    BearerToken.read(file);
  }
}
