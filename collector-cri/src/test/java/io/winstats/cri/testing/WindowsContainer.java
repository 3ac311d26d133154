package io.winstats.cri.testing;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A container of a {@link WindowsPod} as containerd's stores hold it.
 *
 * @param id the container id
 * @param name the container name in the pod spec
 * @param attempt the restart attempt
 * @param createdNanos creation time, nanoseconds since the epoch
 * @param running whether the container is {@code CONTAINER_RUNNING}; containerd leaves other containers out of the pod
 *     and its sums ({@code toPodSandboxStats}: "containers that are just created, in a failed state or exited ... will
 *     not have stats")
 * @param reading the task's statistics, {@code null} when the task has none (not started, exited)
 * @param writableLayerBytes the snapshot size containerd's snapshot store caches
 * @param snapshotTimestampNanos when that size was taken; 0 when the store has no entry (containerd then sends 0 bytes
 *     and a 0 timestamp). {@code Snapshots.Usage} measures the layer anew and answers {@code writableLayerBytes}
 *     either way: the snapshot exists from the container's creation to its removal
 * @param processes the processes the task lists ({@code Tasks.ListPids}, hcsshim's {@code hcsTask.Pids}: every process
 *     HCS reports in the container); counted only while the task runs
 */
public record WindowsContainer(
    String id,
    String name,
    int attempt,
    long createdNanos,
    boolean running,
    @Nullable HcsReading reading,
    long writableLayerBytes,
    long snapshotTimestampNanos,
    int processes) {
  public WindowsContainer {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    if (processes < 0) {
      throw new IllegalArgumentException("processes must not be negative");
    }
  }

  /** A container whose task lists one process. */
  public WindowsContainer(
      String id,
      String name,
      int attempt,
      long createdNanos,
      boolean running,
      @Nullable HcsReading reading,
      long writableLayerBytes,
      long snapshotTimestampNanos) {
    this(id, name, attempt, createdNanos, running, reading, writableLayerBytes, snapshotTimestampNanos, 1);
  }

  /** A running container with a reading and a writable layer measured at the reading's time. */
  public static WindowsContainer running(String id, String name, int attempt, long createdNanos, HcsReading reading) {
    return new WindowsContainer(id, name, attempt, createdNanos, true, reading, 4096, reading.timestampNanos());
  }

  /** The same container exited: no longer running, and its task gone with its statistics. */
  public WindowsContainer exited() {
    return new WindowsContainer(
        id, name, attempt, createdNanos, false, null, writableLayerBytes, snapshotTimestampNanos, processes);
  }

  /** The same container with a newer reading. */
  public WindowsContainer withReading(HcsReading next) {
    return new WindowsContainer(
        id, name, attempt, createdNanos, running, next, writableLayerBytes, next.timestampNanos(), processes);
  }

  /** The same container with its writable layer grown or shrunk to {@code bytes}, measured at {@code atNanos}. */
  public WindowsContainer withWritableLayer(long bytes, long atNanos) {
    return new WindowsContainer(id, name, attempt, createdNanos, running, reading, bytes, atNanos, processes);
  }

  /** The same container whose task lists {@code count} processes. */
  public WindowsContainer withProcesses(int count) {
    return new WindowsContainer(
        id, name, attempt, createdNanos, running, reading, writableLayerBytes, snapshotTimestampNanos, count);
  }
}
