package io.winstats.exporter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.winstats.exporter.http.WebConfig.ClientAuth;
import io.winstats.exporter.http.WebConfig.PemSource;
import io.winstats.exporter.http.WebConfig.RateLimit;
import io.winstats.exporter.http.WebConfig.Tls;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * Reads a {@link WebConfig} from the exporter-toolkit's YAML file strictly, as the toolkit reads it: an unknown key,
 * a bad value, a setting the JDK cannot honour, or a certificate or key that does not load is a problem, and every
 * problem is listed. Relative file names are resolved against the file's directory, as the toolkit does.
 */
public final class WebConfigReader {
  private WebConfigReader() {}

  private static final Set<String> TOP =
      Set.of("tls_server_config", "http_server_config", "basic_auth_users", "rate_limit");
  private static final Set<String> TLS_KEYS =
      Set.of(
          "cert",
          "key",
          "client_ca",
          "cert_file",
          "key_file",
          "client_auth_type",
          "client_ca_file",
          "cipher_suites",
          "curve_preferences",
          "min_version",
          "max_version",
          "prefer_server_cipher_suites",
          "client_allowed_sans");
  private static final Set<String> HTTP_KEYS = Set.of("http2", "headers");
  // The toolkit allows only these headers, some with a fixed set of values (web/handler.go, extraHTTPHeaders).
  private static final Map<String, List<String>> ALLOWED_HEADERS =
      Map.of(
          "Strict-Transport-Security", List.of(),
          "X-Content-Type-Options", List.of("nosniff"),
          "X-Frame-Options", List.of("deny", "sameorigin"),
          "X-XSS-Protection", List.of(),
          "Content-Security-Policy", List.of());
  private static final Map<String, String> VERSIONS = Map.of("TLS12", "TLSv1.2", "TLS13", "TLSv1.3");
  /** A bcrypt hash, as the exporter toolkit takes one for a basic auth user. */
  public static final Pattern BCRYPT = Pattern.compile("\\$2[aby]?\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");
  private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d*)?)(ns|us|µs|ms|s|m|h)");
  /**
   * Reads and checks {@code file}, loading every certificate and key it names; adds each problem to {@code problems}
   * (prefixed with the file name) and returns {@code null} if there was any.
   */
  public static @Nullable WebConfig read(Path file, List<String> problems) {
    List<String> found = new ArrayList<>();
    WebConfig config = parse(file, found);
    if (config != null && config.tls() != null && found.isEmpty()) {
      try {
        TlsMaterial.load(config.tls());
      } catch (IllegalArgumentException e) {
        found.add("tls_server_config: " + e.getMessage());
      }
    }
    for (String p : found) {
      problems.add("--web.config.file " + file + ": " + p);
    }
    return found.isEmpty() ? config : null;
  }

  private static @Nullable WebConfig parse(Path file, List<String> problems) {
    JsonNode root;
    try {
      root = OperatorFiles.readYaml(file);
    } catch (OperatorFiles.Unreadable e) {
      problems.add(e.getMessage());
      return null;
    }
    Path absolute = file.toAbsolutePath();
    // Relative certificate paths are resolved against the file's directory (the root has none: itself).
    Path dir = absolute.getParent() == null ? absolute : absolute.getParent();
    if (root == null || root.isMissingNode() || root.isNull()) {
      return new WebConfig(file, null, true, Map.of(), Map.of(), null);
    }
    if (!root.isObject()) {
      problems.add("the top level must be a mapping");
      return null;
    }
    unknownKeys(root, TOP, "", problems);
    Tls tls = tls(root.path("tls_server_config"), dir, problems);
    JsonNode httpNode = root.path("http_server_config");
    unknownKeys(httpNode, HTTP_KEYS, "http_server_config.", problems);
    boolean http2 = bool(httpNode, "http2", true, "http_server_config.", problems);
    Map<String, String> headers = headers(httpNode.path("headers"), problems);
    Map<String, String> users = users(root.path("basic_auth_users"), problems);
    RateLimit rateLimit = rateLimit(root.path("rate_limit"), problems);
    return new WebConfig(file, tls, http2, headers, users, rateLimit);
  }

  private static @Nullable Tls tls(JsonNode node, Path dir, List<String> problems) {
    if (node.isMissingNode() || node.isNull()) {
      return null;
    }
    String where = "tls_server_config.";
    if (!node.isObject()) {
      problems.add("tls_server_config must be a mapping");
      return null;
    }
    unknownKeys(node, TLS_KEYS, where, problems);
    if (node.has("curve_preferences")) {
      problems.add(
          "tls_server_config.curve_preferences is not supported: Java 17 cannot choose key-exchange groups per"
              + " server; remove it (the JDK's default groups apply)");
    }
    PemSource cert = pem(node, "cert", "cert_file", dir, problems);
    PemSource key = pem(node, "key", "key_file", dir, problems);
    PemSource clientCa = pem(node, "client_ca", "client_ca_file", dir, problems);
    String authName = text(node, "client_auth_type", "NoClientCert", where, problems);
    boolean enabled = cert != null || key != null || clientCa != null || node.hasNonNull("client_auth_type");
    if (!enabled) {
      // The toolkit serves plain HTTP when no TLS field is set.
      return null;
    }
    if (cert == null) {
      problems.add("tls_server_config: missing one of cert or cert_file");
    }
    if (key == null) {
      problems.add("tls_server_config: missing one of key or key_file");
    }
    ClientAuth auth = null;
    if (authName.equals("RequireClientCert")) {
      auth = ClientAuth.RequireAnyClientCert; // the toolkit keeps this old name
    } else {
      for (ClientAuth a : ClientAuth.values()) {
        if (a.name().equals(authName)) {
          auth = a;
        }
      }
    }
    if (auth == null) {
      problems.add(
          "tls_server_config.client_auth_type: '" + authName + "' is not one of NoClientCert, RequestClientCert,"
              + " RequireAnyClientCert, VerifyClientCertIfGiven, RequireAndVerifyClientCert");
      auth = ClientAuth.NoClientCert;
    }
    if (clientCa != null && auth == ClientAuth.NoClientCert) {
      problems.add(
          "tls_server_config: a client CA is configured without a client_auth_type that asks for certificates");
    }
    if (clientCa == null && auth.verified()) {
      problems.add("tls_server_config: client_auth_type " + auth + " needs client_ca_file (or client_ca)");
    }
    List<String> sans = strings(node, "client_allowed_sans", where, problems);
    if (!sans.isEmpty() && !auth.required()) {
      problems.add(
          "tls_server_config.client_allowed_sans requires client_auth_type RequireAnyClientCert or"
              + " RequireAndVerifyClientCert");
    }
    String min = version(text(node, "min_version", "TLS12", where, problems), "min_version", problems);
    String max = version(text(node, "max_version", "TLS13", where, problems), "max_version", problems);
    List<String> protocols = new ArrayList<>();
    if (min != null && max != null) {
      for (String v : List.of("TLSv1.2", "TLSv1.3")) {
        if (v.compareTo(min) >= 0 && v.compareTo(max) <= 0) {
          protocols.add(v);
        }
      }
      if (protocols.isEmpty()) {
        problems.add("tls_server_config: min_version is above max_version");
      }
    }
    List<String> suites = strings(node, "cipher_suites", where, problems);
    List<String> supported = supportedCipherSuites();
    for (String s : suites) {
      if (!supported.contains(s)) {
        problems.add("tls_server_config.cipher_suites: '" + s + "' is not a cipher suite this JDK supports");
      }
    }
    // Go has ignored prefer_server_cipher_suites since 1.18; read for compatibility, with no effect here either.
    bool(node, "prefer_server_cipher_suites", true, where, problems);
    if (cert == null || key == null) {
      return null;
    }
    return new Tls(cert, key, clientCa, auth, protocols, suites, sans);
  }

  private static @Nullable String version(String name, String key, List<String> problems) {
    if (name.equals("TLS10") || name.equals("TLS11")) {
      problems.add(
          "tls_server_config." + key + ": " + name
              + " is not supported (the JDK disables TLS 1.0 and 1.1); use TLS12 or TLS13");
      return null;
    }
    String v = VERSIONS.get(name);
    if (v == null) {
      problems.add("tls_server_config." + key + ": '" + name + "' is not one of TLS12, TLS13");
    }
    return v;
  }

  private static List<String> supportedCipherSuites() {
    try {
      return List.of(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no default TLS context", e);
    }
  }

  private static @Nullable PemSource pem(
      JsonNode node, String inlineKey, String fileKey, Path dir, List<String> problems) {
    String inline = node.hasNonNull(inlineKey) ? node.get(inlineKey).asText() : "";
    String file = node.hasNonNull(fileKey) ? node.get(fileKey).asText() : "";
    if (!inline.isEmpty() && !file.isEmpty()) {
      problems.add("tls_server_config: give " + inlineKey + " or " + fileKey + ", not both");
      return null;
    }
    if (!file.isEmpty()) {
      return new PemSource(dir.resolve(file), null);
    }
    return inline.isEmpty() ? null : new PemSource(null, inline);
  }

  private static Map<String, String> headers(JsonNode node, List<String> problems) {
    Map<String, String> out = new TreeMap<>();
    if (node.isMissingNode() || node.isNull()) {
      return out;
    }
    if (!node.isObject()) {
      problems.add("http_server_config.headers must be a mapping");
      return out;
    }
    node.properties().forEach(f -> {
      List<String> allowed = ALLOWED_HEADERS.get(f.getKey());
      String value = f.getValue().asText();
      if (allowed == null) {
        problems.add("http_server_config.headers: '" + f.getKey() + "' can not be configured; allowed: "
            + String.join(", ", new TreeMap<>(ALLOWED_HEADERS).keySet()));
      } else if (!allowed.isEmpty() && !allowed.contains(value)) {
        problems.add("http_server_config.headers." + f.getKey() + ": '" + value + "' is not one of " + allowed);
      } else if (!value.isEmpty()) {
        out.put(f.getKey(), value);
      }
    });
    return out;
  }

  private static Map<String, String> users(JsonNode node, List<String> problems) {
    Map<String, String> out = new LinkedHashMap<>();
    if (node.isMissingNode() || node.isNull()) {
      return out;
    }
    if (!node.isObject()) {
      problems.add("basic_auth_users must be a mapping of user name to bcrypt hash");
      return out;
    }
    node.properties().forEach(f -> {
      String hash = f.getValue().asText();
      if (!BCRYPT.matcher(hash).matches()) {
        problems.add("basic_auth_users." + f.getKey() + ": not a bcrypt hash ($2y$10$... as htpasswd -nBC 10 writes)");
      } else {
        out.put(f.getKey(), hash);
      }
    });
    return out;
  }

  private static @Nullable RateLimit rateLimit(JsonNode node, List<String> problems) {
    if (node.isMissingNode() || node.isNull()) {
      return null;
    }
    unknownKeys(node, Set.of("interval", "burst"), "rate_limit.", problems);
    Duration interval = Duration.ZERO;
    if (node.hasNonNull("interval")) {
      try {
        interval = goDuration(node.get("interval").asText());
      } catch (IllegalArgumentException e) {
        problems.add("rate_limit.interval: " + e.getMessage());
      }
    }
    if (interval.isZero()) {
      return null; // the toolkit's way to turn the limiter off
    }
    JsonNode burst = node.path("burst");
    if (!burst.canConvertToInt() || burst.asInt() < 1) {
      problems.add("rate_limit.burst must be a whole number of at least 1 when interval is set");
      return null;
    }
    return new RateLimit(interval, burst.asInt());
  }

  /** Go's {@code time.ParseDuration} for the units a rate limit uses: {@code 100ms}, {@code 1.5s}, {@code 1m30s}. */
  static Duration goDuration(String text) {
    if (text.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = GO_DURATION.matcher(text);
    BigDecimal total = BigDecimal.ZERO;
    int at = 0;
    while (at < text.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new IllegalArgumentException("'" + text + "' is not a duration such as 100ms, 1s or 1m30s");
      }
      BigDecimal n = new BigDecimal(m.group(1));
      long nanosPerUnit =
          switch (m.group(2)) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
          };
      total = total.add(n.multiply(BigDecimal.valueOf(nanosPerUnit)));
      at = m.end();
    }
    try {
      return Duration.ofNanos(total.toBigInteger().longValueExact());
    } catch (ArithmeticException e) {
      // Go's ParseDuration refuses what passes an int64 of nanoseconds; longValue() wrapped it to a negative figure
      throw new IllegalArgumentException("'" + text + "' is longer than Go's largest duration (about 292 years)", e);
    }
  }

  private static void unknownKeys(JsonNode node, Set<String> known, String where, List<String> problems) {
    if (!node.isObject()) {
      return;
    }
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!known.contains(name)) {
        problems.add("unknown key '" + where + name + "'; known: " + String.join(", ", new java.util.TreeSet<>(known)));
      }
    }
  }

  private static String text(JsonNode node, String key, String fallback, String where, List<String> problems) {
    JsonNode v = node.path(key);
    if (v.isMissingNode() || v.isNull() || (v.isTextual() && v.asText().isEmpty())) {
      return fallback;
    }
    if (!v.isValueNode()) {
      problems.add(where + key + " must be a single value");
      return fallback;
    }
    return v.asText();
  }

  private static boolean bool(JsonNode node, String key, boolean fallback, String where, List<String> problems) {
    JsonNode v = node.path(key);
    if (v.isMissingNode() || v.isNull()) {
      return fallback;
    }
    if (!v.isBoolean()) {
      problems.add(where + key + " must be true or false");
      return fallback;
    }
    return v.asBoolean();
  }

  private static List<String> strings(JsonNode node, String key, String where, List<String> problems) {
    JsonNode v = node.path(key);
    List<String> out = new ArrayList<>();
    if (v.isMissingNode() || v.isNull()) {
      return out;
    }
    if (!v.isArray()) {
      problems.add(where + key + " must be a list");
      return out;
    }
    v.forEach(e -> out.add(e.asText()));
    return out;
  }
}
