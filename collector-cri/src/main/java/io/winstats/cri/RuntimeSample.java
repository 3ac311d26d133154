package io.winstats.cri;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Everything one sampling round read from the runtime.
 *
 * @param timestamp when the round finished (our clock)
 * @param runtimeName the runtime's name and version ({@code containerd 1.6.20~ds1})
 * @param pods every pod, sorted by namespace then name
 * @param filesystems the runtime's image and container filesystems ({@code ImageFsInfo}); {@code null} when the
 *     runtime did not answer that call
 * @param skipped containers or pods left out because the runtime could not report them (gone, starting, stopping),
 *     each as {@code id: reason}
 */
public record RuntimeSample(
    Instant timestamp,
    String runtimeName,
    List<PodSample> pods,
    @Nullable RuntimeFilesystems filesystems,
    List<String> skipped) {
  public RuntimeSample {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(runtimeName, "runtimeName");
    pods =
        pods.stream()
            .sorted(Comparator.comparing((PodSample p) -> p.ref().namespace()).thenComparing(p -> p.ref().name()))
            .toList();
    skipped = List.copyOf(skipped);
  }
}
