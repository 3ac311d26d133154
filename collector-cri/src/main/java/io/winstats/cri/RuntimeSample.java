package io.winstats.cri;

import java.time.Instant;
import java.util.ArrayList;
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
public record RuntimeSample(
    Instant timestamp,
    String runtimeName,
    List<PodSample> pods,
    @Nullable RuntimeFilesystems filesystems,
    List<String> skipped,
    List<String> fallbacksStarted,
    Map<String, String> callsFailed) {
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

  /** A round whose every call asked answered. */
  public RuntimeSample(
      Instant timestamp,
      String runtimeName,
      List<PodSample> pods,
      @Nullable RuntimeFilesystems filesystems,
      List<String> skipped,
      List<String> fallbacksStarted) {
    this(timestamp, runtimeName, pods, filesystems, skipped, fallbacksStarted, Map.of());
  }

  /** A round without fallbacks. */
  public RuntimeSample(
      Instant timestamp,
      String runtimeName,
      List<PodSample> pods,
      @Nullable RuntimeFilesystems filesystems,
      List<String> skipped) {
    this(timestamp, runtimeName, pods, filesystems, skipped, List.of());
  }

  /** A builder for a round that finished at {@code timestamp}: no pods, filesystems or skips until set. */
  public static Builder builder(Instant timestamp, String runtimeName) {
    return new Builder(timestamp, runtimeName);
  }

  /** A builder holding this round's components, to change some. */
  public Builder toBuilder() {
    return new Builder(timestamp, runtimeName).pods(pods).filesystems(filesystems).skipped(skipped)
        .fallbacksStarted(fallbacksStarted).callsFailed(callsFailed);
  }

  /** Names each component of a {@link RuntimeSample}; not thread-safe. */
  public static final class Builder {
    private Instant timestamp;
    private final String runtimeName;
    private final List<PodSample> pods = new ArrayList<>();
    private @Nullable RuntimeFilesystems filesystems;
    private List<String> skipped = List.of();
    private List<String> fallbacksStarted = List.of();
    private Map<String, String> callsFailed = Map.of();

    private Builder(Instant timestamp, String runtimeName) {
      this.timestamp = timestamp;
      this.runtimeName = runtimeName;
    }

    public Builder timestamp(Instant value) {
      this.timestamp = value;
      return this;
    }

    /** Replaces the pods with {@code value}. */
    public Builder pods(List<PodSample> value) {
      pods.clear();
      pods.addAll(value);
      return this;
    }

    /** Adds one pod. */
    public Builder pod(PodSample value) {
      pods.add(value);
      return this;
    }

    public Builder filesystems(@Nullable RuntimeFilesystems value) {
      this.filesystems = value;
      return this;
    }

    public Builder skipped(List<String> value) {
      this.skipped = value;
      return this;
    }

    public Builder fallbacksStarted(List<String> value) {
      this.fallbacksStarted = value;
      return this;
    }

    public Builder callsFailed(Map<String, String> value) {
      this.callsFailed = value;
      return this;
    }

    public RuntimeSample build() {
      return new RuntimeSample(timestamp, runtimeName, pods, filesystems, skipped, fallbacksStarted, callsFailed);
    }
  }
}
