package io.winstats.exporter.testing;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.net.Socket;
import java.security.Principal;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away certificate authority for TLS tests, made with the JDK's {@code keytool} (no internal JDK API): a CA,
 * leaf certificates it signs (with {@code 127.0.0.1} and {@code localhost} as SANs), self-signed ones, and client
 * {@link SSLContext}s. Keys are written as PKCS#8 PEM, certificates as PEM, as an operator's files would be.
 */
public final class TestPki {
  private static final String PASS = "changeit";

  private final Path dir;
  private final String name;
  private final Path caStore;
  private final X509Certificate caCert;

  /** One leaf: its PEM files and what they hold. */
  public record Issued(Path certPem, Path keyPem, X509Certificate cert, PrivateKey key, List<X509Certificate> chain) {}

  private TestPki(Path dir, String name, Path caStore, X509Certificate caCert) {
    this.dir = dir;
    this.name = name;
    this.caStore = caStore;
    this.caCert = caCert;
  }

  /** A new CA named {@code CN=name} under {@code dir}. */
  public static TestPki create(Path dir, String name) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path store = dir.resolve(name + "-ca.p12");
    keytool(
        "-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
        "-ext", "bc:c", "-validity", "30", "-keystore", store.toString(), "-storetype", "PKCS12",
        "-storepass", PASS, "-keypass", PASS);
    Path pem = dir.resolve(name + "-ca.pem");
    keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", store.toString(), "-storepass", PASS, "-file", pem.toString());
    return new TestPki(dir, name, store, certificates(pem).get(0));
  }

  /** The CA certificate as PEM. */
  public Path caPem() {
    return dir.resolve(name + "-ca.pem");
  }

  public X509Certificate caCert() {
    return caCert;
  }

  /**
   * A leaf signed by this CA. {@code startDate} is keytool's form ({@code -10d}) or {@code null} for now; {@code
   * keyAlg} is {@code RSA} or {@code EC}.
   */
  public Issued issue(String leaf, String keyAlg, String startDate, int validityDays)
      throws IOException, InterruptedException, GeneralSecurityException {
    Path store = genkeypair(leaf, keyAlg);
    Path csr = dir.resolve(leaf + ".csr");
    keytool("-certreq", "-alias", "leaf", "-keystore", store.toString(), "-storepass", PASS, "-file", csr.toString());
    Path certPem = dir.resolve(leaf + ".pem");
    List<String> args =
        new ArrayList<>(
            List.of(
                "-gencert", "-alias", "ca", "-keystore", caStore.toString(), "-storepass", PASS,
                "-infile", csr.toString(), "-outfile", certPem.toString(), "-rfc",
                "-ext", "san=ip:127.0.0.1,dns:localhost", "-ext", "eku=serverAuth,clientAuth",
                "-validity", Integer.toString(validityDays)));
    if (startDate != null) {
      args.addAll(List.of("-startdate", startDate));
    }
    keytool(args.toArray(String[]::new));
    return written(leaf, store, certPem, List.of(certificates(certPem).get(0), caCert));
  }

  /** A self-signed leaf, from no CA a verifier knows. */
  public Issued selfSigned(String leaf, String startDate, int validityDays)
      throws IOException, InterruptedException, GeneralSecurityException {
    Path store = dir.resolve(leaf + ".p12");
    List<String> args =
        new ArrayList<>(
            List.of(
                "-genkeypair", "-alias", "leaf", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=" + leaf,
                "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", Integer.toString(validityDays),
                "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", PASS, "-keypass", PASS));
    if (startDate != null) {
      args.addAll(List.of("-startdate", startDate));
    }
    keytool(args.toArray(String[]::new));
    Path certPem = dir.resolve(leaf + ".pem");
    keytool("-exportcert", "-rfc", "-alias", "leaf", "-keystore", store.toString(), "-storepass", PASS, "-file", certPem.toString());
    return written(leaf, store, certPem, certificates(certPem));
  }

  private Path genkeypair(String leaf, String keyAlg) throws IOException, InterruptedException {
    Path store = dir.resolve(leaf + ".p12");
    List<String> args =
        new ArrayList<>(List.of("-genkeypair", "-alias", "leaf", "-keyalg", keyAlg, "-dname", "CN=" + leaf));
    args.addAll(keyAlg.equals("EC") ? List.of("-groupname", "secp256r1") : List.of("-keysize", "2048"));
    args.addAll(List.of("-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", PASS, "-keypass", PASS));
    keytool(args.toArray(String[]::new));
    return store;
  }

  private Issued written(String leaf, Path store, Path certPem, List<X509Certificate> chain)
      throws IOException, GeneralSecurityException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, PASS.toCharArray());
    }
    PrivateKey key = (PrivateKey) ks.getKey("leaf", PASS.toCharArray());
    Path keyPem = dir.resolve(leaf + ".key");
    Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()));
    return new Issued(certPem, keyPem, chain.get(0), key, chain);
  }

  /** PEM text of one DER block. */
  public static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  /** A client context that trusts {@code trusted} and, if {@code client} is given, presents it. */
  public static SSLContext clientContext(Issued client, X509Certificate... trusted) throws GeneralSecurityException, IOException {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    for (int i = 0; i < trusted.length; i++) {
      trust.setCertificateEntry("ca" + i, trusted[i]);
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
    tmf.init(trust);
    KeyManagerFactory kmf = null;
    if (client != null) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry("client", client.key(), PASS.toCharArray(), client.chain().toArray(Certificate[]::new));
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, PASS.toCharArray());
    }
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(
        kmf == null ? null : new KeyManager[] {new Insistent((X509ExtendedKeyManager) kmf.getKeyManagers()[0])},
        tmf.getTrustManagers(),
        null);
    return ctx;
  }

  /**
   * Presents the client certificate whatever CAs the server names: the JDK's own key manager would quietly send none
   * from a CA the server does not list, and the server's refusal would go untested.
   */
  private static final class Insistent extends X509ExtendedKeyManager {
    private final X509ExtendedKeyManager keys;

    Insistent(X509ExtendedKeyManager keys) {
      this.keys = keys;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
      return "client";
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return "client";
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return new String[] {"client"};
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return keys.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return keys.getPrivateKey(alias);
    }
  }

  public static List<X509Certificate> certificates(Path pem) throws IOException {
    try {
      List<X509Certificate> out = new ArrayList<>();
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(Files.readAllBytes(pem)))) {
        out.add((X509Certificate) c);
      }
      return out;
    } catch (GeneralSecurityException e) {
      throw new IOException(e);
    }
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.add("-J-XX:TieredStopAtLevel=1");
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException("keytool " + String.join(" ", args) + " failed:\n" + out);
    }
  }
}
