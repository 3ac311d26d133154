package io.winstats.cri.cgroups;

import java.util.Objects;

/**
 * One block device's IO by one cgroup, hierarchically (the cgroup and its descendants).
 *
 * @param device the device node ({@code /dev/vda}), or {@code major:minor} where {@code /sys/dev/block} has no name
 * @param readBytes bytes read
 * @param writeBytes bytes written
 * @param reads read operations
 * @param writes write operations
 */
public record BlockDeviceIo(
    String device, int major, int minor, long readBytes, long writeBytes, long reads, long writes) {
  public BlockDeviceIo {
    Objects.requireNonNull(device, "device");
  }
}
