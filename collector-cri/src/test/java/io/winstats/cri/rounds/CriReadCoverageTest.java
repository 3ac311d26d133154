package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.api.ContainerStatus;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.containerd.Statistics;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every figure a runtime sample carries is mapped from a runtime message: a component of {@link RuntimeSample} or of
 * the records below it ({@link PodSample}, {@link ContainerSample}, {@link CpuUsage}, {@link MemoryUsage}, the network,
 * filesystem, log, resource and storage records) that is declared and served but filled by no mapper would otherwise
 * pass every unit test at its builder's null. The runtimes answer with full messages ({@link FullRuntimeSources#full}:
 * every field of every message below, found by walking the protobuf descriptors, set to a distinct value, none 0), so
 * that a field added to api.proto or runhcs_stats.proto is sent without an edit here, through the real rounds ({@link
 * RuntimeStatsReader}): {@code ListPodSandboxStats} with Linux and with Windows pods, {@code ListContainerStats}, and
 * containerd's {@code Tasks.Metrics} on Windows ({@link TasksStatsRound}). Each component must come out set (not null,
 * not 0, not empty) from at least one of them, unless {@link #NOT_MAPPED} says why not; a listed one that is set after
 * all fails too. The other direction (every stats field read) is {@link CriStatsFieldsReadTest}'s. The cgroup round's
 * figures are held so by {@code CgroupReadCoverageTest}.
 */
class CriReadCoverageTest {
  private static final Instant NOW = FullRuntimeSources.NOW;

  /** Components no full message sets, each with why. */
  private static final Map<String, String> NOT_MAPPED = Map.of(
      "skipped[]", "the round's record of pods and containers left out: empty when every message maps",
      "fallbacksStarted[]", "the round's record of sources that failed over to CRI stats: empty while all answer",
      "callsFailed", "the round's record of task-source calls that failed: empty while all answer",
      "pods[].cpu.userNanos", "no source splits a pod's CPU: CRI sends its total, TasksStatsRound.podCpu sums totals",
      "pods[].cpu.kernelNanos", "likewise",
      "pods[].memory.commitPeakBytes",
      "a container's alone (TasksStatsRound.container): StatsMapper.sumMemory adds no peaks, a sum of peaks is none");

  private final FullRuntimeSources runtimes = new FullRuntimeSources();

  @AfterEach
  void stop() throws Exception {
    runtimes.close();
  }

  @Test
  void everyComponentIsMappedFromAFullRuntimeMessageOrListedWithItsReason() throws Exception {
    Map<String, Map<String, Boolean>> sources = new TreeMap<>();
    sources.put("ListPodSandboxStats (Linux)", components(runtimes.linuxPodStats()));
    sources.put("ListPodSandboxStats (Windows)", components(runtimes.windowsPodStats()));
    sources.put("ListContainerStats", components(runtimes.containerStats()));
    sources.put("Tasks.Metrics", components(runtimes.taskMetrics()));

    Map<String, Boolean> any = new TreeMap<>();
    sources.values().forEach(s -> s.forEach((component, set) -> any.merge(component, set, Boolean::logicalOr)));
    sources.forEach((name, s) -> assertThat(s.keySet()).as(name + " walks every component").isEqualTo(any.keySet()));
    Set<String> unmapped = new TreeSet<>();
    any.forEach((component, set) -> {
      if (!set) {
        unmapped.add(component);
      }
    });
    Set<String> listedButMapped = new TreeSet<>(NOT_MAPPED.keySet());
    listedButMapped.removeAll(unmapped);
    unmapped.removeAll(NOT_MAPPED.keySet());
    assertThat(unmapped).as("components no full message sets and NOT_MAPPED does not list").isEmpty();
    assertThat(listedButMapped).as("components listed in NOT_MAPPED that a full message sets after all").isEmpty();
    assertThat(any).as("the walk reaches the leaves").hasSizeGreaterThan(60);
  }

  /** The walk itself: a component left at its builder's default is caught, in any element of a list. */
  @Test
  void aComponentLeftAtItsDefaultIsCaught() {
    PodSample bare = PodSample.builder(new PodRef("web", "shop", "uid"), "p1").createdAt(NOW).build();
    PodSample measured = bare.toBuilder()
        .cpu(new CpuUsage(NOW, 5, null))
        .containers(List.of(ContainerSample.builder("c1", "app").image("i").createdAt(NOW)
            .state(ContainerSample.State.RUNNING).memory(MemoryUsage.builder(NOW).rssBytes(7L).build()).build()))
        .build();
    Map<String, Boolean> c =
        components(RuntimeSample.builder(NOW, "fakerd").pods(List.of(bare, measured)).build());
    assertThat(c).containsEntry("pods[].cpu.usageCoreNanos", true).containsEntry("pods[].cpu.usageNanoCores", false)
        .containsEntry("pods[].containers[].memory.rssBytes", true)
        .containsEntry("pods[].containers[].memory.usageBytes", false)
        .containsEntry("pods[].containers[].attempt", false).containsEntry("pods[].network.interfaces[].name", false)
        .containsEntry("filesystems.image[].capacity.inodes", false).containsEntry("pods[].ref.uid", true);
  }

  /** The filler itself: a full message has every singular field set, every repeated one with an element. */
  @Test
  void aFullMessageHasEveryFieldSet() {
    assertThat(unset(FullRuntimeSources.full(PodSandboxStats.newBuilder(), 1).build(), "")).isEmpty();
    assertThat(unset(FullRuntimeSources.full(ContainerStatus.newBuilder(), 1).build(), "")).isEmpty();
    assertThat(FullRuntimeSources.full(Statistics.newBuilder(), 1).build()
            .getWindows().getMemory().getMemoryUsageCommitPeakBytes())
        .isPositive();
  }

  private static List<String> unset(Message m, String path) {
    List<String> out = new ArrayList<>();
    for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
      if (f.isRepeated() ? m.getRepeatedFieldCount(f) == 0 : !m.hasField(f) && !oneofTaken(m, f)) {
        out.add(path + f.getName());
      } else if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !f.isRepeated() && m.hasField(f)) {
        out.addAll(unset((Message) m.getField(f), path + f.getName() + "."));
      }
    }
    return out;
  }

  private static boolean oneofTaken(Message m, FieldDescriptor f) {
    return f.getRealContainingOneof() != null && m.hasOneof(f.getRealContainingOneof());
  }

  // ---- The walk ------------------------------------------------------------------------------------------------

  /**
   * Each leaf component below {@code sample} by its dotted path (a list's elements as {@code []}, set if set in any),
   * and whether the sample set it: not null, not 0, not false, not the epoch, not empty.
   */
  static Map<String, Boolean> components(RuntimeSample sample) {
    Map<String, Boolean> out = new TreeMap<>();
    walk(RuntimeSample.class, sample, "", out);
    return out;
  }

  private static void walk(Type type, @Nullable Object value, String path, Map<String, Boolean> out) {
    Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
    if (raw.isRecord()) {
      // An absent record still names its leaves, each unset, so that every source lists the same components.
      for (RecordComponent c : raw.getRecordComponents()) {
        Object v;
        try {
          v = value == null ? null : c.getAccessor().invoke(value);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
        walk(c.getGenericType(), v, path.isEmpty() ? c.getName() : path + "." + c.getName(), out);
      }
    } else if (raw == List.class) {
      Type element = ((ParameterizedType) type).getActualTypeArguments()[0];
      List<?> items = value == null ? List.of() : (List<?>) value;
      walk(element, null, path + "[]", out);
      for (Object item : items) {
        walk(element, item, path + "[]", out);
      }
    } else {
      out.merge(path, isSet(value), Boolean::logicalOr);
    }
  }

  private static boolean isSet(@Nullable Object value) {
    if (value instanceof Number n) {
      return n.doubleValue() != 0;
    }
    if (value instanceof CharSequence s) {
      return s.length() > 0;
    }
    if (value instanceof Collection<?> c) {
      return !c.isEmpty();
    }
    if (value instanceof Map<?, ?> m) {
      return !m.isEmpty();
    }
    return value != null && !Boolean.FALSE.equals(value) && !Instant.EPOCH.equals(value);
  }
}
