package io.winstats.testing.fences.records;

import io.winstats.perfcounters.FilesystemUsage;

/** Crosses the builder fence: builds a record that has a generated builder through its canonical constructor. */
public final class PositionalFilesystem {
  public static FilesystemUsage root() {
    return new FilesystemUsage("/dev/vda", "/", "ext4", 100, 40, 60, null, null, null);
  }
}
