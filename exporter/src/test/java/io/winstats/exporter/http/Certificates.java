package io.winstats.exporter.http;

import io.winstats.exporter.testing.TestPki;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** One test CA and its certificates, made once per test JVM (keytool takes about a second a call). */
final class Certificates {
  final TestPki ca;
  final TestPki.Issued server;
  final TestPki.Issued rotated;
  final TestPki.Issued expired;
  final TestPki.Issued client;
  final TestPki.Issued intruder;

  private static Certificates shared;

  private Certificates(Path dir) throws Exception {
    ca = TestPki.create(dir, "test-ca");
    server = ca.issue("server", "RSA", null, 30);
    rotated = ca.issue("server-rotated", "EC", null, 30);
    expired = ca.issue("server-expired", "RSA", "-10d", 1);
    client = ca.issue("client", "EC", null, 30);
    intruder = ca.selfSigned("intruder", null, 30);
  }

  static synchronized Certificates get() throws Exception {
    if (shared == null) {
      Path dir = Files.createTempDirectory("winstats-test-pki");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
      shared = new Certificates(dir);
    }
    return shared;
  }

  private static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
