package io.winstats.cri.cgroups;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One huge page size's usage by a cgroup, from the hugetlb controller as runc's cgroups library reads it
 * (opencontainers/cgroups fs/hugetlb.go, fs2/hugetlb.go): the {@code .rsvd} files (reservations, Linux 5.7+) where the
 * kernel has them, else the plain ones.
 *
 * @param pageSize runc's and cAdvisor's name for the size: {@code 2MB}, {@code 1GB}, {@code 64KB}
 * @param usageBytes v1 {@code hugetlb.<size>[.rsvd].usage_in_bytes}, v2 {@code hugetlb.<size>[.rsvd].current}
 * @param maxUsageBytes v1 {@code hugetlb.<size>[.rsvd].max_usage_in_bytes}; {@code null} on v2, which keeps no peak
 */
public record HugePages(String pageSize, long usageBytes, @Nullable Long maxUsageBytes) {
  public HugePages {
    Objects.requireNonNull(pageSize, "pageSize");
  }
}
