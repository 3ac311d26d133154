package io.winstats.cri.rounds;

import io.winstats.cri.FilesystemCapacity;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/** Host files as a test scripts them: a path not put in is not visible. Counts capacity look-ups. */
final class FakeHostFiles implements HostFiles {
  final Map<String, FilesystemCapacity> capacities = new ConcurrentHashMap<>();
  final Map<String, Usage> directories = new ConcurrentHashMap<>();
  final AtomicInteger capacityLookups = new AtomicInteger();

  @Override
  public @Nullable FilesystemCapacity capacity(String path) {
    capacityLookups.incrementAndGet();
    return capacities.get(path);
  }

  @Override
  public @Nullable Usage regularFiles(String directory) {
    return directories.get(directory);
  }
}
