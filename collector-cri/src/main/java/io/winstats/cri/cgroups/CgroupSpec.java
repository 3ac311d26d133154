package io.winstats.cri.cgroups;

import org.jspecify.annotations.Nullable;

/**
 * A cgroup's memory limits beyond the one CRI reports, as cAdvisor's {@code GetSpec} reads them (google/cadvisor
 * lib/container/common/helpers.go). Limits change only when the runtime updates the container, so the reader reads
 * them again on a slower cadence than the statistics (see {@link CgroupReader}). {@code null} where the file is absent;
 * {@link Long#MAX_VALUE} for v2's {@code max}.
 *
 * @param memoryReservationBytes v1 {@code memory.soft_limit_in_bytes}, v2 {@code memory.min}
 * @param memorySwapLimitBytes v1 {@code memory.memsw.limit_in_bytes} (memory plus swap, with swap accounting), v2
 *     {@code memory.swap.max}
 */
public record CgroupSpec(@Nullable Long memoryReservationBytes, @Nullable Long memorySwapLimitBytes) {
  /** No limit file at all. */
  public static final CgroupSpec NONE = new CgroupSpec(null, null);
}
