package io.winstats.perfcounters.pdh;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.WorkingSetDefinition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Settings of a {@link PdhNodeSource}; {@link #defaults()} are the production values, and each {@code with...} method
 * (generated: {@code PdhSourceOptionsBuilder.With}) changes one.
 *
 * @param deadline how long {@link PdhNodeSource#sample()} and {@link PdhNodeSource#close()} wait for the sampling
 *     thread
 * @param openDeadline how long opening waits (the first {@code PdhAddCounter} of a process can take seconds)
 * @param retryInterval the wait before the first attempt to add a failed counter again or rebuild a query
 * @param maxRetryInterval the longest wait between such attempts: the wait doubles after each failed attempt
 * @param nanoTime the monotonic clock for {@link NodeSample#monotonicNanos()}
 * @param fsTypeOf the filesystem type of a volume such as {@code C:}
 * @param workingSet which figure is the node's working set
 * @param kubeletRootDirectory the kubelet's root directory, whose volume is read live for the Summary's node and
 *     log filesystems
 * @param log where operator lines go
 */
@RecordBuilder
record PdhSourceOptions(
    Duration deadline,
    Duration openDeadline,
    Duration retryInterval,
    Duration maxRetryInterval,
    LongSupplier nanoTime,
    Function<String, String> fsTypeOf,
    WorkingSetDefinition workingSet,
    Path kubeletRootDirectory,
    Logger log)
    implements PdhSourceOptionsBuilder.With {
  static PdhSourceOptions defaults() {
    return PdhSourceOptionsBuilder.builder()
        .deadline(Duration.ofSeconds(5))
        .openDeadline(Duration.ofSeconds(60))
        .retryInterval(Duration.ofSeconds(60))
        .maxRetryInterval(Duration.ofMinutes(30))
        .nanoTime(System::nanoTime)
        .fsTypeOf(PdhNodeSource::fileStoreType)
        .workingSet(WorkingSetDefinition.KUBELET)
        .kubeletRootDirectory(PdhNodeSource.DEFAULT_KUBELET_ROOT_DIRECTORY)
        .log(PdhNodeSource.LOG)
        .build();
  }
}
