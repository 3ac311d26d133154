package io.winstats.cri.testing;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One container of a test pod.
 *
 * @param name the container name in the pod
 * @param command the command and its arguments (the image has no default worth relying on)
 * @param cpuLimitCores a CFS quota in cores over a 100 ms period, or {@code null} for none
 * @param memoryLimitBytes a memory limit, or {@code null} for none
 * @param image the image reference to create the container from (a name or an id), or {@code null} for the harness's
 *     busybox image
 */
public record ContainerSpec(
    String name,
    List<String> command,
    @Nullable Double cpuLimitCores,
    @Nullable Long memoryLimitBytes,
    @Nullable String image) {
  public ContainerSpec {
    Objects.requireNonNull(name, "name");
    command = List.copyOf(command);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("command must not be empty");
    }
    if (cpuLimitCores != null && !(cpuLimitCores > 0)) {
      throw new IllegalArgumentException("cpuLimitCores must be positive: " + cpuLimitCores);
    }
    if (memoryLimitBytes != null && memoryLimitBytes <= 0) {
      throw new IllegalArgumentException("memoryLimitBytes must be positive: " + memoryLimitBytes);
    }
  }

  /** A container that sleeps and uses (almost) nothing. */
  public static ContainerSpec sleeper(String name) {
    return new ContainerSpec(name, List.of("/bin/sleep", "2147483647"), null, null, null);
  }

  /** A container that spins a shell loop, limited to {@code cores} by a CFS quota. */
  public static ContainerSpec burner(String name, double cores) {
    return new ContainerSpec(name, List.of("/bin/sh", "-c", "while :; do :; done"), cores, null, null);
  }

  /** A container running {@code command} without limits. */
  public static ContainerSpec of(String name, String... command) {
    return new ContainerSpec(name, List.of(command), null, null, null);
  }

  /** This spec with a memory limit. */
  public ContainerSpec withMemoryLimit(long bytes) {
    return new ContainerSpec(name, command, cpuLimitCores, bytes, image);
  }

  /** This spec created from another image reference, such as an image id as the kubelet sends it. */
  public ContainerSpec withImage(String imageReference) {
    return new ContainerSpec(name, command, cpuLimitCores, memoryLimitBytes, imageReference);
  }
}
