package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.testing.Requires;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PEM keys in the forms operators have: PKCS#8, and PKCS#1 / SEC 1 as openssl's "traditional" output writes them. */
class PemTest {

  @Test
  void pkcs8KeysAndCertificateChains() throws Exception {
    Certificates c = Certificates.get();
    PrivateKey rsa = Pem.privateKey(Files.readString(c.server.keyPem()));
    assertThat(rsa.getEncoded()).isEqualTo(c.server.key().getEncoded());
    PrivateKey ec = Pem.privateKey(Files.readString(c.rotated.keyPem()));
    assertThat(ec.getAlgorithm()).isEqualTo("EC");
    Pem.checkPair(c.rotated.cert(), ec);
    String chain = Files.readString(c.server.certPem()) + Files.readString(c.ca.caPem());
    assertThat(Pem.certificates(chain)).containsExactly(c.server.cert(), c.ca.caCert());
  }

  @Test
  @Requires(tools = "openssl")
  void traditionalRsaAndEcKeysFromOpenssl(@TempDir Path dir) throws Exception {
    Certificates c = Certificates.get();
    String pkcs1 = openssl(dir, c.server.keyPem(), "pkey", "-traditional");
    assertThat(pkcs1).startsWith("-----BEGIN RSA PRIVATE KEY-----");
    assertThat(Pem.privateKey(pkcs1).getEncoded()).isEqualTo(c.server.key().getEncoded());

    // As `openssl ecparam -genkey` writes it: the curve's parameters, then the SEC 1 key.
    String sec1 =
        openssl(dir, c.rotated.keyPem(), "ecparam", "-name", "prime256v1")
            + openssl(dir, c.rotated.keyPem(), "pkey", "-traditional");
    assertThat(sec1).startsWith("-----BEGIN EC PARAMETERS-----").contains("-----BEGIN EC PRIVATE KEY-----");
    PrivateKey ec = Pem.privateKey(sec1);
    Pem.checkPair(c.rotated.cert(), ec);
    assertThat(((java.security.interfaces.ECPrivateKey) ec).getS())
        .isEqualTo(((java.security.interfaces.ECPrivateKey) c.rotated.key()).getS());
  }

  @Test
  void refusals() throws Exception {
    Certificates c = Certificates.get();
    assertThatThrownBy(() -> Pem.privateKey("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n"))
        .hasMessageContaining("encrypted private keys are not supported");
    assertThatThrownBy(() -> Pem.privateKey(Files.readString(c.server.certPem()))).hasMessageContaining("no PEM PRIVATE KEY");
    assertThatThrownBy(() -> Pem.certificates("nothing here")).hasMessageContaining("no PEM CERTIFICATE block");
    assertThatThrownBy(() -> Pem.checkPair(c.server.cert(), c.client.key()))
        .hasMessageContaining("does not match");
    assertThatThrownBy(() -> Pem.checkPair(c.rotated.cert(), c.client.key()))
        .hasMessageContaining("does not match");
  }

  private static String openssl(Path dir, Path in, String... args) throws IOException, InterruptedException {
    Path out = dir.resolve("out.pem");
    List<String> command = new java.util.ArrayList<>(List.of("openssl"));
    command.addAll(List.of(args));
    if (!args[0].equals("ecparam")) {
      command.addAll(List.of("-in", in.toString()));
    }
    command.addAll(List.of("-out", out.toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0).as(log).isTrue();
    return Files.readString(out);
  }
}
