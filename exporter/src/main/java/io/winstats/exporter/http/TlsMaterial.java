package io.winstats.exporter.http;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's certificate and key and the client CAs, re-read from disk without a restart. Each TLS handshake asks
 * the key manager (and, with client certificates, the trust manager) for the current material; at most once per
 * check interval that costs a {@code stat} of the files, and only a changed file is read and parsed again. A change
 * that does not load (a key that does not match its new certificate while a rotation is half written, say) keeps the
 * previous material and is logged once; the next change is tried again.
 *
 * <p>Thread safety: safe for concurrent handshakes; the material is swapped atomically.
 */
final class TlsMaterial {
  private static final Logger LOG = LoggerFactory.getLogger(TlsMaterial.class);

  /** One loaded generation: what a handshake presents and verifies against. */
  private record Loaded(
      long generation,
      List<X509Certificate> chain,
      PrivateKey key,
      List<X509Certificate> clientCas,
      @Nullable X509TrustManager clientTrust) {
    String alias() {
      return "winstats-" + generation;
    }
  }

  private final WebConfig.Tls config;
  private final FileWatch watch;
  private final AtomicLong generations = new AtomicLong();
  private volatile Loaded current;
  private volatile Loaded previous;
  private final SSLContext context;
  private final ClientTrust clientTrust = new ClientTrust();

  /** The configuration this material was loaded from. */
  WebConfig.Tls config() {
    return config;
  }

  TlsMaterial(WebConfig.Tls config, LongSupplier nanoTime, Duration checkEvery) {
    this.config = config;
    List<java.nio.file.Path> files = new ArrayList<>();
    for (WebConfig.PemSource s : new WebConfig.PemSource[] {config.cert(), config.key(), config.clientCa()}) {
      if (s != null && s.file() != null) {
        files.add(s.file());
      }
    }
    this.watch = new FileWatch(files, nanoTime, checkEvery);
    this.current = load(config, generations.incrementAndGet());
    this.previous = current;
    try {
      context = SSLContext.getInstance("TLS");
      context.init(
          new KeyManager[] {new ReloadingKeyManager()},
          config.clientAuth() == WebConfig.ClientAuth.NoClientCert ? null : new TrustManager[] {clientTrust},
          null);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK cannot create a TLS context", e);
    }
  }

  /** Loads once, for start-up validation; throws {@link IllegalArgumentException} naming what failed. */
  static void load(WebConfig.Tls config) {
    load(config, 0);
  }

  /** The context to serve with; its managers follow the files. */
  SSLContext context() {
    return context;
  }

  /** What checks client certificates, following the client CA file. */
  X509ExtendedTrustManager clientTrustManager() {
    return clientTrust;
  }

  /** The certificate chain new handshakes present. */
  List<X509Certificate> chain() {
    return current.chain();
  }

  /** Re-reads the files if they changed since the last check and the check interval has passed. */
  void refresh() {
    if (!watch.changed()) {
      return;
    }
    try {
      Loaded next = load(config, generations.incrementAndGet());
      previous = current;
      current = next;
      invalidateSessions();
      X509Certificate leaf = next.chain().get(0);
      LOG.info(
          "event=tls_reloaded cert={} subject=\"{}\" not_after={} client_cas={}",
          config.cert(),
          leaf.getSubjectX500Principal().getName(),
          leaf.getNotAfter().toInstant(),
          next.clientCas().size());
    } catch (IllegalArgumentException e) {
      LOG.warn("event=tls_reload_failed cert={} error=\"{}\" keeping=previous", config.cert(), e.getMessage());
    }
  }

  // A resumed session skips both the certificate and the client check, so a rotation ends the old sessions.
  private void invalidateSessions() {
    SSLSessionContext sessions = context.getServerSessionContext();
    for (Enumeration<byte[]> ids = sessions.getIds(); ids.hasMoreElements(); ) {
      var session = sessions.getSession(ids.nextElement());
      if (session != null) {
        session.invalidate();
      }
    }
  }

  private static Loaded load(WebConfig.Tls config, long generation) {
    List<X509Certificate> chain;
    PrivateKey key;
    try {
      chain = Pem.certificates(config.cert().read());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read certificate " + config.cert() + ": " + OperatorFiles.why(e), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("certificate " + config.cert() + ": " + e.getMessage(), e);
    }
    try {
      key = Pem.privateKey(config.key().read());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read key " + config.key() + ": " + OperatorFiles.why(e), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("key " + config.key() + ": " + e.getMessage(), e);
    }
    try {
      Pem.checkPair(chain.get(0), key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(config.key() + " and " + config.cert() + ": " + e.getMessage(), e);
    }
    List<X509Certificate> cas = List.of();
    X509TrustManager trust = null;
    if (config.clientCa() != null) {
      try {
        cas = Pem.certificates(config.clientCa().read());
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "cannot read client CA " + config.clientCa() + ": " + OperatorFiles.why(e), e);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("client CA " + config.clientCa() + ": " + e.getMessage(), e);
      }
      trust = trustManager(cas);
    }
    return new Loaded(generation, chain, key, cas, trust);
  }

  private static X509TrustManager trustManager(List<X509Certificate> cas) {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      for (int i = 0; i < cas.size(); i++) {
        store.setCertificateEntry("client-ca-" + i, cas.get(i));
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
      factory.init(store);
      for (TrustManager tm : factory.getTrustManagers()) {
        if (tm instanceof X509TrustManager x) {
          return x;
        }
      }
      throw new IllegalStateException("PKIX offers no X509TrustManager");
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException("client CA: " + e.getMessage(), e);
    }
  }

  private @Nullable Loaded byAlias(String alias) {
    Loaded c = current;
    if (c.alias().equals(alias)) {
      return c;
    }
    // A handshake that chose its alias just before a reload still finds its material.
    Loaded p = previous;
    return p.alias().equals(alias) ? p : null;
  }

  private final class ReloadingKeyManager extends X509ExtendedKeyManager {
    private @Nullable String alias(String keyType) {
      refresh();
      Loaded c = current;
      // The JDK asks once per key type it could use ("RSA", "RSASSA-PSS", "EC", "EdDSA"); answer the one we hold.
      return c.key().getAlgorithm().equalsIgnoreCase(keyType) ? c.alias() : null;
    }

    @Override
    public @Nullable String chooseEngineServerAlias(String keyType, Principal @Nullable [] issuers, SSLEngine engine) {
      return alias(keyType);
    }

    @Override
    public @Nullable String chooseServerAlias(String keyType, Principal @Nullable [] issuers, Socket socket) {
      return alias(keyType);
    }

    @Override
    public String @Nullable [] getServerAliases(String keyType, Principal @Nullable [] issuers) {
      String a = alias(keyType);
      return a == null ? null : new String[] {a};
    }

    @Override
    public X509Certificate @Nullable [] getCertificateChain(String alias) {
      Loaded l = byAlias(alias);
      return l == null ? null : l.chain().toArray(X509Certificate[]::new);
    }

    @Override
    public @Nullable PrivateKey getPrivateKey(String alias) {
      Loaded l = byAlias(alias);
      return l == null ? null : l.key();
    }

    @Override
    public String @Nullable [] getClientAliases(String keyType, Principal @Nullable [] issuers) {
      return null;
    }

    @Override
    public @Nullable String chooseClientAlias(String[] keyType, Principal @Nullable [] issuers, Socket socket) {
      return null;
    }
  }

  /** Verifies client certificates against the current client CAs, as {@code client_auth_type} says. */
  private final class ClientTrust extends X509ExtendedTrustManager {
    private void check(X509Certificate[] chain, String authType, @Nullable SSLEngine engine, @Nullable Socket socket)
        throws CertificateException {
      try {
        verify(chain, authType, engine, socket);
      } catch (CertificateException e) {
        // The handshake fails; the client sees why. Not the operator's concern unless debugging.
        LOG.debug(
            "event=client_certificate_refused subject=\"{}\" error=\"{}\"",
            chain.length == 0 ? "" : chain[0].getSubjectX500Principal().getName(),
            e.getMessage());
        throw e;
      }
    }

    private void verify(X509Certificate[] chain, String authType, @Nullable SSLEngine engine, @Nullable Socket socket)
        throws CertificateException {
      refresh();
      Loaded c = current;
      if (config.clientAuth().verified()) {
        X509TrustManager trust = c.clientTrust();
        if (trust == null) {
          throw new CertificateException("no client CA configured");
        }
        if (trust instanceof X509ExtendedTrustManager x && engine != null) {
          x.checkClientTrusted(chain, authType, engine);
        } else if (trust instanceof X509ExtendedTrustManager x && socket != null) {
          x.checkClientTrusted(chain, authType, socket);
        } else {
          trust.checkClientTrusted(chain, authType);
        }
      }
      if (!config.clientAllowedSans().isEmpty()) {
        checkSans(chain[0]);
      }
    }

    // As the toolkit: any DNS, e-mail, IP or URI SAN equal to an allowed entry.
    private void checkSans(X509Certificate leaf) throws CertificateException {
      Collection<List<?>> sans;
      try {
        sans = leaf.getSubjectAlternativeNames();
      } catch (CertificateParsingException e) {
        throw new CertificateException("unreadable client certificate SANs", e);
      }
      if (sans != null) {
        for (List<?> san : sans) {
          if (san.size() == 2 && san.get(1) instanceof String value && config.clientAllowedSans().contains(value)) {
            return;
          }
        }
      }
      throw new CertificateException("the client certificate carries none of client_allowed_sans");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      check(chain, authType, engine, null);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      check(chain, authType, null, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      check(chain, authType, null, null);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      throw new CertificateException("server-side trust manager");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      throw new CertificateException("server-side trust manager");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      throw new CertificateException("server-side trust manager");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      // Sent in the CertificateRequest so that clients pick a certificate from the right CA.
      return current.clientCas().toArray(X509Certificate[]::new);
    }
  }
}
