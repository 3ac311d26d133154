package io.winstats.cri;

import java.util.List;

/**
 * The runtime's answer to CRI {@code ImageService.ImageFsInfo}.
 *
 * @param image {@code image_filesystems}: where image layers are stored, in the runtime's order (the kubelet reports
 *     the first as {@code imageFs})
 * @param container {@code container_filesystems}: where writable layers are stored, when the runtime reports them
 *     apart (KEP-4191, split image filesystem); empty from runtimes that do not (containerd 1.6)
 */
public record RuntimeFilesystems(List<RuntimeFilesystemUsage> image, List<RuntimeFilesystemUsage> container) {
  public RuntimeFilesystems {
    image = List.copyOf(image);
    container = List.copyOf(container);
  }
}
