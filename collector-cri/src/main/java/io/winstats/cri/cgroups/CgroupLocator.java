package io.winstats.cri.cgroups;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Finds a container's cgroup from its runtime id, which CRI does not report. runc names the directory after the id
 * under the pod's {@code cgroup_parent}: {@code <parent>/<id>} with the cgroupfs driver,
 * {@code <parent slice>/cri-containerd-<id>.scope} (or {@code crio-<id>.scope}) with the systemd driver. One walk of
 * the hierarchy indexes every such directory; the index is walked again only when a round asks for an id it does not
 * hold, and at most once per {@code rescanAfter} for ids that stayed missing (created, not yet started), so a round's
 * cost stays a map lookup per container. Not thread-safe: the sampling thread owns it.
 */
final class CgroupLocator {
  /** containerd and CRI-O ids: 64 lower-case hex digits, alone or inside a systemd scope name. */
  private static final Pattern ID = Pattern.compile("(?:^|-)([0-9a-f]{64})(?:\\.scope)?$");

  private static final int MAX_DEPTH = 8;

  private final Path root;
  private final Duration rescanAfter;
  private final LongSupplier nanoTime;
  private Map<String, String> paths = Map.of();
  private final Set<String> missing = new HashSet<>();
  private long lastScanNanos;
  private boolean scanned;
  private long scans;

  CgroupLocator(Path root, Duration rescanAfter, LongSupplier nanoTime) {
    this.root = root;
    this.rescanAfter = rescanAfter;
    this.nanoTime = nanoTime;
  }

  /**
   * The cgroup paths of {@code ids} that exist, relative to the hierarchy root ({@code /kubepods/pod<uid>/<id>}).
   * Ids without a cgroup are left out.
   */
  Map<String, String> locate(Collection<String> ids) {
    boolean unknown = false;
    boolean stillMissing = false;
    for (String id : ids) {
      if (!paths.containsKey(id)) {
        if (missing.contains(id)) {
          stillMissing = true;
        } else {
          unknown = true;
        }
      }
    }
    long now = nanoTime.getAsLong();
    if (!scanned || unknown || (stillMissing && now - lastScanNanos >= rescanAfter.toNanos())) {
      paths = scan();
      lastScanNanos = now;
      scanned = true;
      scans++;
    }
    missing.clear();
    Map<String, String> out = new HashMap<>();
    for (String id : ids) {
      String path = paths.get(id);
      if (path == null) {
        missing.add(id);
      } else {
        out.put(id, path);
      }
    }
    return out;
  }

  /** Walks of the hierarchy so far, for tests and the cost figures. */
  long scans() {
    return scans;
  }

  /** Forgets {@code id}'s path, after its directory vanished, so that the next round looks again. */
  void forget(String id) {
    if (paths.containsKey(id)) {
      Map<String, String> copy = new HashMap<>(paths);
      copy.remove(id);
      paths = copy;
    }
  }

  private Map<String, String> scan() {
    Map<String, String> found = new HashMap<>();
    if (!Files.isDirectory(root)) {
      return found;
    }
    try {
      Files.walkFileTree(
          root,
          Set.of(),
          MAX_DEPTH,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              Path name = dir.getFileName();
              String id = name == null ? null : idOf(name.toString());
              if (id != null) {
                found.put(id, "/" + root.relativize(dir).toString().replace('\\', '/'));
                // A container's cgroup holds no other container's.
                return FileVisitResult.SKIP_SUBTREE;
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              // Other pods' cgroups come and go during the walk; a vanished one is skipped, never the rest.
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      // Only the root itself failing ends the walk; what was found stands.
    }
    return found;
  }

  /** The container id a cgroup directory is named after, or {@code null}. */
  static @Nullable String idOf(String directoryName) {
    if (directoryName.length() < 64) {
      return null;
    }
    Matcher m = ID.matcher(directoryName);
    return m.find() ? m.group(1) : null;
  }
}
