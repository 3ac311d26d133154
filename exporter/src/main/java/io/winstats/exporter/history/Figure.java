package io.winstats.exporter.history;

import java.util.List;

/**
 * A figure the node page charts, with its name in the JSON. A cumulative figure (bytes sent since the interface came
 * up) is held as read and served as a rate per second between two samples; a gauge is served as held.
 *
 * <p>The node, a pod and a container each have their own list ({@link #NODE}, {@link #POD}, {@link #CONTAINER});
 * a figure's position in its list is its row in a {@link Series}.
 */
enum Figure {
  CPU_NANO_CORES("cpuUsageNanoCores", false),
  MEMORY_WORKING_SET_BYTES("memoryWorkingSetBytes", false),
  /** Windows only: the node's committed bytes (the kubelet's {@code windows-global-commit-memory}). */
  MEMORY_COMMIT_BYTES("memoryCommitBytes", false),
  NETWORK_RX_BYTES("networkRxBytesPerSecond", true),
  NETWORK_TX_BYTES("networkTxBytesPerSecond", true),
  FS_USED_BYTES("fsUsedBytes", false),
  FS_CAPACITY_BYTES("fsCapacityBytes", false),
  EPHEMERAL_STORAGE_USED_BYTES("ephemeralStorageUsedBytes", false),
  ROOTFS_USED_BYTES("rootfsUsedBytes", false);

  static final List<Figure> NODE =
      List.of(
          CPU_NANO_CORES,
          MEMORY_WORKING_SET_BYTES,
          MEMORY_COMMIT_BYTES,
          NETWORK_RX_BYTES,
          NETWORK_TX_BYTES,
          FS_USED_BYTES,
          FS_CAPACITY_BYTES);

  /** A pod's network is its sandbox's, which its containers share: containers have none of their own. */
  static final List<Figure> POD =
      List.of(
          CPU_NANO_CORES, MEMORY_WORKING_SET_BYTES, NETWORK_RX_BYTES, NETWORK_TX_BYTES, EPHEMERAL_STORAGE_USED_BYTES);

  static final List<Figure> CONTAINER = List.of(CPU_NANO_CORES, MEMORY_WORKING_SET_BYTES, ROOTFS_USED_BYTES);

  private final String jsonName;
  private final boolean cumulative;

  Figure(String jsonName, boolean cumulative) {
    this.jsonName = jsonName;
    this.cumulative = cumulative;
  }

  /** The key in the JSON; a cumulative figure's says per second. */
  String jsonName() {
    return jsonName;
  }

  /** Whether the figure only grows (until a reset) and is served as a rate. */
  boolean cumulative() {
    return cumulative;
  }
}
