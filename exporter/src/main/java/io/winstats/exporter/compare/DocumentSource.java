package io.winstats.exporter.compare;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.exporter.http.OperatorFiles;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.jspecify.annotations.Nullable;

/**
 * Where a document (a Summary, an exposition) is read from: a URL (with a bearer token file and a CA file, as a pod
 * reads the kubelet or the API server) or a saved file ({@code kubectl get --raw}, {@code curl}). Each failure is a
 * {@link SourceException} whose message says what to do.
 */
final class DocumentSource {
  /** A read that failed, in a person's words. */
  static final class SourceException extends Exception {
    private static final long serialVersionUID = 1L;

    SourceException(String message) {
      super(message);
    }
  }

  /**
   * How to reach a URL.
   *
   * @param tokenFile a bearer token, read at each request (a projected service account token rotates)
   * @param caFile PEM certificates to trust in place of the JVM's
   * @param insecure trust any certificate and any host name (a kubelet's self-signed serving certificate)
   * @param forbiddenHint what a 401 or 403 from this source asks of the user
   */
  record Access(@Nullable Path tokenFile, @Nullable Path caFile, boolean insecure, String forbiddenHint) {}

  /**
   * A document's text, with the request's window: the value of a figure without a time of its own was read between
   * the two ({@code null} for a file).
   */
  record Body(String text, @Nullable Instant sent, @Nullable Instant received) {}

  /** What a Summary is asked for as. */
  static final String JSON_TYPE = "application/json";

  /** What an exposition is asked for as: the text format, not OpenMetrics or protobuf, whatever else is served. */
  static final String TEXT_TYPE = "text/plain;version=0.0.4";

  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String location;
  private final Access access;
  private final String accept;
  private @Nullable HttpClient client;

  DocumentSource(String location, Access access, String accept) {
    this.location = location;
    this.access = access;
    this.accept = accept;
  }

  /** Whether the location is a URL ({@code http://} or {@code https://}) rather than a file. */
  boolean isUrl() {
    String l = location.toLowerCase(Locale.ROOT);
    return l.startsWith("http://") || l.startsWith("https://");
  }

  String location() {
    return location;
  }

  /** The document as UTF-8 text, with the request's window for a URL. */
  Body body() throws SourceException {
    if (!isUrl()) {
      return new Body(new String(file(), StandardCharsets.UTF_8), null, null);
    }
    Instant sent = Instant.now();
    byte[] bytes = fetch();
    return new Body(new String(bytes, StandardCharsets.UTF_8), sent, Instant.now());
  }

  /** The document, parsed, but not yet checked to be a Summary. */
  JsonNode read() throws SourceException {
    byte[] body = isUrl() ? fetch() : file();
    try {
      JsonNode doc = JSON.readTree(body);
      if (doc == null || !doc.isObject()) {
        throw new SourceException(location + " is not a JSON object");
      }
      return doc;
    } catch (JsonProcessingException e) {
      throw new SourceException(location + " is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new SourceException("cannot read " + location + ": " + e);
    }
  }

  private byte[] file() throws SourceException {
    try {
      return Files.readAllBytes(Path.of(location));
    } catch (NoSuchFileException e) {
      throw new SourceException("no such file: " + location + " (a URL starts with http:// or https://)");
    } catch (IOException e) {
      throw new SourceException("cannot read " + location + ": " + OperatorFiles.why(e));
    }
  }

  private byte[] fetch() throws SourceException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri()).timeout(TIMEOUT).header("Accept", accept).GET();
    Path tokenFile = access.tokenFile();
    if (tokenFile != null) {
      request.header("Authorization", "Bearer " + token(tokenFile));
    }
    HttpResponse<InputStream> response;
    try {
      response = client().send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw new SourceException("cannot reach " + location + ": " + describe(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SourceException("interrupted while reading " + location);
    }
    try (InputStream in = response.body()) {
      byte[] body = in.readAllBytes();
      int status = response.statusCode();
      if (status == 401 || status == 403) {
        throw new SourceException(
            location + " answered " + status + (status == 401 ? " Unauthorized" : " Forbidden") + ": "
                + access.forbiddenHint());
      }
      if (status / 100 != 2) {
        throw new SourceException(location + " answered " + status + ": " + excerpt(body));
      }
      return body;
    } catch (IOException e) {
      throw new SourceException("cannot read " + location + ": " + describe(e));
    }
  }

  private URI uri() throws SourceException {
    try {
      return URI.create(location);
    } catch (IllegalArgumentException e) {
      throw new SourceException("not a URL: " + location + " (" + e.getMessage() + ")");
    }
  }

  private static String token(Path file) throws SourceException {
    try {
      String token = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (token.isEmpty()) {
        throw new SourceException("the token file " + file + " is empty");
      }
      return token;
    } catch (IOException e) {
      throw new SourceException("cannot read the token file " + file + ": " + OperatorFiles.why(e));
    }
  }

  private HttpClient client() throws SourceException {
    HttpClient c = client;
    if (c == null) {
      HttpClient.Builder builder =
          HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER);
      if (access.insecure()) {
        // The JDK client reads this once, when its first instance is made; compare runs in a process of its own.
        System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
        builder.sslContext(context(new TrustManager[] {new TrustingManager()}));
      } else if (access.caFile() != null) {
        builder.sslContext(context(trusting(access.caFile())));
      }
      c = builder.build();
      client = c;
    }
    return c;
  }

  private static TrustManager[] trusting(Path caFile) throws SourceException {
    try (InputStream in = Files.newInputStream(caFile)) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca-" + i++, cert);
      }
      if (i == 0) {
        throw new SourceException("no certificate in the CA file " + caFile);
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory.getTrustManagers();
    } catch (IOException | GeneralSecurityException e) {
      throw new SourceException("cannot read the CA file " + caFile + ": " + e.getMessage());
    }
  }

  private static SSLContext context(TrustManager[] managers) throws SourceException {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, managers, new SecureRandom());
      return context;
    } catch (GeneralSecurityException e) {
      throw new SourceException("cannot set up TLS: " + e.getMessage());
    }
  }

  private static String describe(IOException e) {
    String message = e.getMessage();
    Throwable cause = e.getCause();
    if ((message == null || message.isEmpty()) && cause != null) {
      message = cause.toString();
    }
    return e.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
  }

  private static String excerpt(byte[] body) {
    String text = new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8).strip();
    return text.isEmpty() ? "(no body)" : text;
  }

  /** Trusts every certificate: what {@code --kubelet-insecure-tls} asks for, as metrics-server's flag of that name. */
  private static final class TrustingManager implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
