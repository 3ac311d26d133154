package io.winstats.exporter.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bearer token read from a file ({@code --web.auth.bearer-token-file}), re-read when the file changes (a rotated
 * Kubernetes secret), checked at most once per interval. A change to an empty or unreadable file keeps the previous
 * token and is logged once. Comparison takes the same time whatever the presented token. Thread safe.
 */
final class BearerToken {
  private static final Logger LOG = LoggerFactory.getLogger(BearerToken.class);

  private final Path file;
  private final FileWatch watch;
  private volatile byte[] digest;

  BearerToken(Path file, LongSupplier nanoTime, Duration checkEvery) {
    this.file = file;
    // Watch first: a change between the two is then seen, not lost.
    this.watch = new FileWatch(List.of(file), nanoTime, checkEvery);
    this.digest = sha256(read(file));
  }

  /** The token in {@code file}, without surrounding white space; throws {@link IllegalArgumentException}. */
  static String read(Path file) {
    String token;
    try {
      token = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "--web.auth.bearer-token-file: cannot read " + file + ": " + OperatorFiles.why(e), e);
    }
    if (token.isEmpty()) {
      throw new IllegalArgumentException("--web.auth.bearer-token-file: " + file + " is empty");
    }
    return token;
  }

  boolean matches(String presented) {
    if (watch.changed()) {
      try {
        digest = sha256(read(file));
        LOG.info("event=bearer_token_reloaded file={}", file);
      } catch (IllegalArgumentException e) {
        LOG.warn("event=bearer_token_reload_failed file={} error=\"{}\" keeping=previous", file, e.getMessage());
      }
    }
    // Digests first: equal lengths, so isEqual's time says nothing about the token.
    return MessageDigest.isEqual(digest, sha256(presented));
  }

  static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
