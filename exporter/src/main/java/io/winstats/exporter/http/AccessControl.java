package io.winstats.exporter.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.SSLSessionInfo;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * Guards every path but the open ones ({@code /healthz}) with what the web configuration and flags ask for, in this
 * order: the rate limit ({@code 429}), a client certificate when {@code client_auth_type} requires one ({@code 403}),
 * then a basic-auth password or the bearer token ({@code 401} with {@code WWW-Authenticate}). Either credential is
 * enough when both are configured. Adds the configured response headers to every response.
 *
 * <p>bcrypt is slow on purpose (about 70 ms at cost 10), so a password is checked on a worker thread, one at a time
 * as the toolkit does, and the outcome is cached under a SHA-256 of user, hash and password; the cache never holds a
 * password. An unknown user is checked against a fixed hash so that timing does not reveal which users exist.
 * Refusals are logged at DEBUG only. The users and headers are the web configuration's as its file says now
 * ({@link LiveWebConfig}); the cache key holds the hash, so a changed password is checked anew.
 */
final class AccessControl implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger(AccessControl.class);
  // bcrypt (cost 10) of a random string nobody knows.
  private static final String UNKNOWN_USER_HASH = "$2a$10$ch/J6Hu7mCq9aOdPt4/YguKD2SObwBKtvq3T2kQpjCOAiC/MR.Z8m";
  private static final String REALM = "winstats-exporter";

  private final HttpHandler next;
  private final Set<String> openPaths;
  private final @Nullable LiveWebConfig web;
  private final @Nullable TokenBucket rateLimit;
  private final boolean clientCertRequired;
  private final @Nullable BearerToken bearer;
  private final Cache<String, Boolean> verified = Caffeine.newBuilder().maximumSize(256).build();
  private final Object bcryptLock = new Object();

  /**
   * @param web the web configuration, re-read when its file changes (users and headers apply per request), or
   *     {@code null} for none
   */
  AccessControl(
      HttpHandler next,
      Set<String> openPaths,
      @Nullable LiveWebConfig web,
      @Nullable TokenBucket rateLimit,
      boolean clientCertRequired,
      @Nullable BearerToken bearer) {
    this.next = next;
    this.openPaths = Set.copyOf(openPaths);
    this.web = web;
    this.rateLimit = rateLimit;
    this.clientCertRequired = clientCertRequired;
    this.bearer = bearer;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    WebConfig config = web == null ? null : web.current();
    if (config != null) {
      config.headers().forEach((k, v) -> exchange.getResponseHeaders().put(new HttpString(k), v));
    }
    if (openPaths.contains(exchange.getRequestPath())) {
      next.handleRequest(exchange);
      return;
    }
    if (rateLimit != null && !rateLimit.tryAcquire()) {
      ExporterServer.plain(exchange, 429, "too many requests\n");
      return;
    }
    if (clientCertRequired && !hasClientCertificate(exchange)) {
      LOG.debug(
          "event=refused reason=no_client_certificate path={} remote={}",
          exchange.getRequestPath(),
          exchange.getSourceAddress());
      ExporterServer.plain(exchange, 403, "a client certificate is required\n");
      return;
    }
    authenticate(exchange, config == null ? Map.of() : config.basicAuthUsers());
  }

  private void authenticate(HttpServerExchange exchange, Map<String, String> users) throws Exception {
    List<String> challenges = new ArrayList<>(2);
    if (!users.isEmpty()) {
      challenges.add("Basic realm=\"" + REALM + "\", charset=\"UTF-8\"");
    }
    if (bearer != null) {
      challenges.add("Bearer realm=\"" + REALM + "\"");
    }
    if (challenges.isEmpty()) {
      next.handleRequest(exchange);
      return;
    }
    String authorization = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
    String scheme = "none";
    if (authorization != null) {
      int space = authorization.indexOf(' ');
      scheme = space < 0 ? authorization : authorization.substring(0, space);
      String credentials = space < 0 ? "" : authorization.substring(space + 1).strip();
      if (bearer != null && scheme.equalsIgnoreCase("Bearer")) {
        if (bearer.matches(credentials)) {
          next.handleRequest(exchange);
          return;
        }
      } else if (!users.isEmpty() && scheme.equalsIgnoreCase("Basic")) {
        Boolean ok = basic(exchange, credentials, users);
        if (ok == null) {
          return; // dispatched to a worker for bcrypt
        }
        if (ok) {
          next.handleRequest(exchange);
          return;
        }
      }
    }
    LOG.debug(
        "event=unauthorized scheme={} path={} remote={}",
        scheme,
        exchange.getRequestPath(),
        exchange.getSourceAddress());
    for (String challenge : challenges) {
      exchange.getResponseHeaders().add(Headers.WWW_AUTHENTICATE, challenge);
    }
    ExporterServer.plain(exchange, 401, "unauthorized\n");
  }

  /** {@code true} or {@code false}, or {@code null} when the check went to a worker thread, which then answers. */
  private @Nullable Boolean basic(HttpServerExchange exchange, String credentials, Map<String, String> users) {
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(credentials), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return false;
    }
    int colon = decoded.indexOf(':');
    if (colon < 0) {
      return false;
    }
    String user = decoded.substring(0, colon);
    String password = decoded.substring(colon + 1);
    String hash = users.get(user);
    String key =
        HexFormat.of()
            .formatHex(BearerToken.sha256(user + '\0' + (hash == null ? "" : hash) + '\0' + password));
    Boolean cached = verified.getIfPresent(key);
    if (cached != null) {
      return cached;
    }
    if (exchange.isInIoThread()) {
      exchange.dispatch((HttpHandler) ex -> authenticate(ex, users));
      return null;
    }
    boolean ok;
    synchronized (bcryptLock) {
      ok = checkpw(password, hash == null ? UNKNOWN_USER_HASH : hash) && hash != null;
    }
    verified.put(key, ok);
    return ok;
  }

  private static boolean checkpw(String password, String hash) {
    try {
      return BCrypt.checkpw(password, hash);
    } catch (IllegalArgumentException e) {
      return false; // a password bcrypt cannot take (over 72 bytes) is a wrong one
    }
  }

  private static boolean hasClientCertificate(HttpServerExchange exchange) {
    SSLSessionInfo ssl = exchange.getConnection().getSslSessionInfo();
    if (ssl == null) {
      return false;
    }
    try {
      return ssl.getPeerCertificates().length > 0;
    } catch (Exception e) {
      return false; // SSLPeerUnverifiedException: none was presented
    }
  }
}
