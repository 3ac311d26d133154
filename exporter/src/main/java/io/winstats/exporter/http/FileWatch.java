package io.winstats.exporter.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Tells whether any of a few files changed (modification time, size or identity, following symbolic links, so a
 * Kubernetes secret's atomic symlink swap counts), looking at most once per interval. Cheap enough to ask on every
 * TLS handshake or request. Thread safe.
 */
final class FileWatch {
  private final List<Path> files;
  private final LongSupplier nanoTime;
  private final long everyNanos;
  private long nextCheck;
  private List<Object> seen;

  FileWatch(List<Path> files, LongSupplier nanoTime, Duration every) {
    this.files = List.copyOf(files);
    this.nanoTime = nanoTime;
    this.everyNanos = every.toNanos();
    this.nextCheck = nanoTime.getAsLong() + everyNanos;
    this.seen = stat();
  }

  /**
   * {@code true} once after a change, when the interval has passed since the last look; the caller then re-reads.
   */
  synchronized boolean changed() {
    long now = nanoTime.getAsLong();
    if (files.isEmpty() || now - nextCheck < 0) {
      return false;
    }
    nextCheck = now + everyNanos;
    List<Object> latest = stat();
    if (latest.equals(seen)) {
      return false;
    }
    seen = latest;
    return true;
  }

  private List<Object> stat() {
    List<Object> out = new ArrayList<>();
    for (Path f : files) {
      try {
        BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
        out.add(List.of(a.lastModifiedTime(), a.size(), Objects.requireNonNullElse(a.fileKey(), "")));
      } catch (IOException e) {
        out.add("missing");
      }
    }
    return out;
  }
}
