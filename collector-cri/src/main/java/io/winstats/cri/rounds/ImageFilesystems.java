package io.winstats.cri.rounds;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.winstats.cri.RuntimeFilesystemUsage;
import io.winstats.cri.RuntimeFilesystems;
import io.winstats.cri.api.FilesystemUsage;
import io.winstats.cri.api.ImageFsInfoRequest;
import io.winstats.cri.api.ImageFsInfoResponse;
import io.winstats.cri.api.ImageServiceGrpc;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ImageService.ImageFsInfo}, once per round (containerd answers from its snapshotter's cached usage). A failure
 * leaves the filesystems out of that round (logged at DEBUG) and never fails the pods; {@code UNIMPLEMENTED} stops the
 * asking for good, logged once.
 */
final class ImageFilesystems {
  private static final Logger LOG = LoggerFactory.getLogger(ImageFilesystems.class);

  private final RuntimeContext context;
  private final ImageServiceGrpc.ImageServiceBlockingStub images;
  private boolean unimplemented;

  ImageFilesystems(RuntimeContext context, ManagedChannel channel) {
    this.context = Objects.requireNonNull(context, "context");
    this.images = ImageServiceGrpc.newBlockingStub(channel);
  }

  @Nullable RuntimeFilesystems read(RoundContext round) {
    if (unimplemented) {
      return null;
    }
    ImageFsInfoResponse answer;
    try {
      answer = context.withDeadline(images).imageFsInfo(ImageFsInfoRequest.getDefaultInstance());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
        unimplemented = true;
        LOG.info(
            "event=cri_image_fs_unimplemented endpoint={} cause={}",
            context.target(),
            "ImageFsInfo is unimplemented; imageFs and containerFs will be missing");
      }
      LOG.debug("event=cri_image_fs_failed endpoint={} code={}", context.target(), e.getStatus().getCode());
      return null;
    }
    Instant now = context.clock().instant();
    try {
      return new RuntimeFilesystems(
          filesystems(answer.getImageFilesystemsList(), now, round.host),
          filesystems(answer.getContainerFilesystemsList(), now, round.host));
    } catch (IllegalArgumentException e) {
      LOG.debug("event=cri_image_fs_failed endpoint={} code=MALFORMED cause={}", context.target(), e.getMessage());
      return null;
    }
  }

  private static List<RuntimeFilesystemUsage> filesystems(
      List<FilesystemUsage> listed, Instant now, StatsMapper.HostView host) {
    List<RuntimeFilesystemUsage> result = new ArrayList<>(listed.size());
    for (FilesystemUsage fs : listed) {
      result.add(StatsMapper.runtimeFilesystem(fs, now, host));
    }
    return result;
  }
}
