package io.winstats.cri.cgroups;

import static io.winstats.cri.cgroups.CgroupReader.file;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Huge page usage per page size the host has: v1's {@code hugetlb} controller or v2's files. */
final class HugetlbController {
  private final String hugetlbBase;
  private final String usage;
  private final @Nullable String maxUsage;

  /**
   * @param hugetlbBase the controller's directory (the root on v2)
   * @param version v1 reads {@code .usage_in_bytes} and the peak {@code .max_usage_in_bytes}, v2 {@code .current} and
   *     no peak, which its kernel keeps none of
   */
  HugetlbController(String hugetlbBase, CgroupVersion version) {
    this.hugetlbBase = hugetlbBase;
    this.usage = version == CgroupVersion.V2 ? ".current" : ".usage_in_bytes";
    this.maxUsage = version == CgroupVersion.V2 ? null : ".max_usage_in_bytes";
  }

  /**
   * Huge page usage per size the host has, as runc reads it: the {@code .rsvd} files where the kernel has them, else
   * the plain ones; nothing where the cgroup has neither (the controller does not cover it). Read every round only
   * while the host has a pool to use ({@link HostFacts#hugePagesMove}), else with the limits; what was read is kept.
   */
  List<HugePages> read(String path, Kept k, boolean refresh, HostFacts h) {
    if (h.hugePageSizes().isEmpty() || !(refresh || h.hugePagesMove())) {
      return k.hugetlb;
    }
    List<HugePages> out = new ArrayList<>(h.hugePageSizes().size());
    for (String size : h.hugePageSizes()) {
      String prefix = "/hugetlb." + size + ".rsvd";
      Long used = single(path, prefix + usage);
      if (used == null) {
        prefix = "/hugetlb." + size;
        used = single(path, prefix + usage);
      }
      if (used != null) {
        out.add(new HugePages(size, used, maxUsage == null ? null : single(path, prefix + maxUsage)));
      }
    }
    k.hugetlb = List.copyOf(out);
    return k.hugetlb;
  }

  private @Nullable Long single(String path, String name) {
    return KernelFile.readSingle(file(hugetlbBase, path, name));
  }
}
