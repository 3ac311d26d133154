package io.winstats.testing.fences.records;

import io.winstats.perfcounters.FilesystemUsage;

/** Stays inside the builder fence: names each component through the generated builder. */
public final class ByNameFilesystem {
  public static FilesystemUsage root() {
    return FilesystemUsage.builder("/dev/vda", "/", "ext4").capacityBytes(100).availableBytes(40).usedBytes(60).build();
  }
}
