package io.winstats.cri;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
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
 * @param fallbacksStarted the parts of the round that, from this round on, are read from CRI stats because their own
 *     source failed ({@code tasks_metrics}, {@code hns}); empty while every source works or stays failed, so that each
 *     fallback is counted once
 * @param callsFailed the calls of the round's source that were asked this round and did not answer, each with its
 *     cause, whose failure left figures unmeasured without a fallback (Windows task source: {@code Tasks.ListPids},
 *     {@code Snapshots.Usage}, {@code Introspection.Plugins}); empty when every call asked answered
 */
@RecordBuilder
public record RuntimeSample(
    Instant timestamp,
    String runtimeName,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<PodSample> pods,
    @Nullable RuntimeFilesystems filesystems,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<String> skipped,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<String> fallbacksStarted,
    @RecordBuilder.Initializer(source = Map.class, value = "of") Map<String, String> callsFailed) {
  public RuntimeSample {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(runtimeName, "runtimeName");
    pods =
        pods.stream()
            .sorted(Comparator.comparing((PodSample p) -> p.ref().namespace()).thenComparing(p -> p.ref().name()))
            .toList();
    skipped = List.copyOf(skipped);
    fallbacksStarted = List.copyOf(fallbacksStarted);
    callsFailed = Collections.unmodifiableMap(new TreeMap<>(callsFailed));
  }

  /** A builder for a round that finished at {@code timestamp}: no pods, filesystems or skips until set. */
  public static RuntimeSampleBuilder builder(Instant timestamp, String runtimeName) {
    return RuntimeSampleBuilder.builder().timestamp(timestamp).runtimeName(runtimeName);
  }

  /** A builder holding this round's components, to change some. */
  public RuntimeSampleBuilder toBuilder() {
    return RuntimeSampleBuilder.builder(this);
  }
}
