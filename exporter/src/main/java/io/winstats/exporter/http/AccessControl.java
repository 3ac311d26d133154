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
 * Refusals are logged at DEBUG only.
 */
final class AccessControl implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger(AccessControl.class);
  // bcrypt (cost 10) of a random string nobody knows.
  private static final String UNKNOWN_USER_HASH = "$2a$10$ch/J6Hu7mCq9aOdPt4/YguKD2SObwBKtvq3T2kQpjCOAiC/MR.Z8m";
  private static final String REALM = "winstats-exporter";

  private final HttpHandler next;
  private final Set<String> openPaths;
  private final Map<HttpString, String> headers;
  private final @Nullable TokenBucket rateLimit;
  private final boolean clientCertRequired;
  private final Map<String, String> users;
  private final @Nullable BearerToken bearer;
  private final List<String> challenges = new ArrayList<>();
  private final Cache<String, Boolean> verified = Caffeine.newBuilder().maximumSize(256).build();
  private final Object bcryptLock = new Object();

  AccessControl(
      HttpHandler next,
      Set<String> openPaths,
      Map<String, String> headers,
      @Nullable TokenBucket rateLimit,
      boolean clientCertRequired,
      Map<String, String> users,
      @Nullable BearerToken bearer) {
    this.next = next;
    this.openPaths = Set.copyOf(openPaths);
    Map<HttpString, String> h = new java.util.LinkedHashMap<>();
    headers.forEach((k, v) -> h.put(new HttpString(k), v));
    this.headers = Map.copyOf(h);
    this.rateLimit = rateLimit;
    this.clientCertRequired = clientCertRequired;
    this.users = Map.copyOf(users);
    this.bearer = bearer;
    if (!users.isEmpty()) {
      challenges.add("Basic realm=\"" + REALM + "\", charset=\"UTF-8\"");
    }
    if (bearer != null) {
      challenges.add("Bearer realm=\"" + REALM + "\"");
    }
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    headers.forEach((k, v) -> exchange.getResponseHeaders().put(k, v));
    if (openPaths.contains(exchange.getRequestPath())) {
      next.handleRequest(exchange);
      return;
    }
    if (rateLimit != null && !rateLimit.tryAcquire()) {
      ExporterServer.plain(exchange, 429, "too many requests\n");
      return;
    }
    if (clientCertRequired && !hasClientCertificate(exchange)) {
      LOG.debug("event=refused reason=no_client_certificate path={} remote={}", exchange.getRequestPath(), exchange.getSourceAddress());
      ExporterServer.plain(exchange, 403, "a client certificate is required\n");
      return;
    }
    authenticate(exchange);
  }

  private void authenticate(HttpServerExchange exchange) throws Exception {
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
        Boolean ok = basic(exchange, credentials);
        if (ok == null) {
          return; // dispatched to a worker for bcrypt
        }
        if (ok) {
          next.handleRequest(exchange);
          return;
        }
      }
    }
    LOG.debug("event=unauthorized scheme={} path={} remote={}", scheme, exchange.getRequestPath(), exchange.getSourceAddress());
    for (String challenge : challenges) {
      exchange.getResponseHeaders().add(Headers.WWW_AUTHENTICATE, challenge);
    }
    ExporterServer.plain(exchange, 401, "unauthorized\n");
  }

  /** {@code true} or {@code false}, or {@code null} when the check went to a worker thread, which then answers. */
  private @Nullable Boolean basic(HttpServerExchange exchange, String credentials) {
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
      exchange.dispatch((HttpHandler) this::authenticate);
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
