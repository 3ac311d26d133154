package io.winstats.cri.cgroups;

import java.nio.file.Files;
import java.nio.file.Path;

/** How the host mounts cgroups. */
public enum CgroupVersion {
  /** One hierarchy per controller ({@code /sys/fs/cgroup/memory}, ...), possibly with a unified one beside them. */
  V1,
  /** The unified hierarchy at the root ({@code /sys/fs/cgroup/cgroup.controllers} exists). */
  V2;

  /** The layout under {@code root}. */
  public static CgroupVersion detect(Path root) {
    return Files.exists(root.resolve("cgroup.controllers")) ? V2 : V1;
  }
}
