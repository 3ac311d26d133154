package io.winstats.cri.cgroups;

import io.soabase.recordbuilder.core.RecordBuilder;
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
@RecordBuilder
public record BlockDeviceIo(
    String device, int major, int minor, long readBytes, long writeBytes, long reads, long writes) {
  public BlockDeviceIo {
    Objects.requireNonNull(device, "device");
  }

  /** A builder for the BlockDeviceIo of {@code device}, every other component 0, empty or absent until set by name. */
  public static BlockDeviceIoBuilder builder(String device) {
    return BlockDeviceIoBuilder.builder().device(device);
  }
}
