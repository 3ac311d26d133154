package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsMaterialTest {
  private final AtomicLong nanos = new AtomicLong();

  private static WebConfig.Tls tls(Path cert, Path key) {
    return new WebConfig.Tls(
        new WebConfig.PemSource(cert, null),
        new WebConfig.PemSource(key, null),
        null,
        WebConfig.ClientAuth.NoClientCert,
        List.of("TLSv1.2", "TLSv1.3"),
        List.of(),
        List.of());
  }

  @Test
  void aHalfWrittenRotationKeepsTheOldPairUntilTheKeyMatches(@TempDir Path dir) throws Exception {
    Certificates c = Certificates.get();
    Path cert = Files.copy(c.server.certPem(), dir.resolve("tls.crt"));
    Path key = Files.copy(c.server.keyPem(), dir.resolve("tls.key"));
    TlsMaterial material = new TlsMaterial(tls(cert, key), nanos::get, Duration.ofSeconds(1));
    assertThat(material.chain().get(0)).isEqualTo(c.server.cert());

    Files.copy(c.rotated.certPem(), cert, StandardCopyOption.REPLACE_EXISTING);
    material.refresh();
    assertThat(material.chain().get(0)).as("not looked at within the interval").isEqualTo(c.server.cert());
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    material.refresh();
    assertThat(material.chain().get(0)).as("new certificate, old key: refused").isEqualTo(c.server.cert());

    Files.copy(c.rotated.keyPem(), key, StandardCopyOption.REPLACE_EXISTING);
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    material.refresh();
    assertThat(material.chain().get(0)).isEqualTo(c.rotated.cert());
  }

  @Test
  void aClientCaIsReloadedToo(@TempDir Path dir) throws Exception {
    Certificates c = Certificates.get();
    Path ca = Files.copy(c.ca.caPem(), dir.resolve("ca.pem"));
    WebConfig.Tls t =
        new WebConfig.Tls(
            new WebConfig.PemSource(c.server.certPem(), null),
            new WebConfig.PemSource(c.server.keyPem(), null),
            new WebConfig.PemSource(ca, null),
            WebConfig.ClientAuth.RequireAndVerifyClientCert,
            List.of("TLSv1.3"),
            List.of(),
            List.of());
    TlsMaterial material = new TlsMaterial(t, nanos::get, Duration.ofSeconds(1));
    var trust = (javax.net.ssl.X509TrustManager) trustManagerOf(material);
    trust.checkClientTrusted(c.client.chain().toArray(java.security.cert.X509Certificate[]::new), "EC");
    assertThatThrownBy(() -> trust.checkClientTrusted(new java.security.cert.X509Certificate[] {c.intruder.cert()}, "RSA"))
        .isInstanceOf(java.security.cert.CertificateException.class);

    // Rotate the client CA to the intruder's self-signed certificate: now it passes and our client does not.
    Files.writeString(ca, io.winstats.exporter.testing.TestPki.pem("CERTIFICATE", c.intruder.cert().getEncoded()));
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    trust.checkClientTrusted(new java.security.cert.X509Certificate[] {c.intruder.cert()}, "RSA");
    assertThat(trust.getAcceptedIssuers()).containsExactly(c.intruder.cert());
    assertThatThrownBy(() -> trust.checkClientTrusted(c.client.chain().toArray(java.security.cert.X509Certificate[]::new), "EC"))
        .isInstanceOf(java.security.cert.CertificateException.class);
  }

  @Test
  void aKeyThatIsNotTheCertificatesIsRefusedAtStart() throws Exception {
    Certificates c = Certificates.get();
    assertThatThrownBy(() -> TlsMaterial.load(tls(c.server.certPem(), c.rotated.keyPem())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not match the certificate");
  }

  private static Object trustManagerOf(TlsMaterial material) throws Exception {
    // The context's trust manager is ours; reach it through a test-only accessor.
    return material.clientTrustManager();
  }
}
