package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.containerd.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every figure the runtime's stats messages carry is read, or left with its reason: the other direction of {@link
 * CriReadCoverageTest}. Each source of {@link FullRuntimeSources} is read once with its full messages, and then again
 * once per numeric leaf of its stats message (the {@code PodSandboxStats} trees of a Linux and of a Windows pod, {@code
 * ContainerStats}, and containerd's {@code Statistics}) with that one field raised by 1 (a wrapper's value for a
 * {@code UInt64Value}); the field is read there if the sample differs. A field is named by its proto full name (a
 * wrapper by the field that holds it) and is read if it changes the sample wherever it sits, in every source (a pod's
 * and a container's {@code CpuUsage} alike); a field unread at some place must be in {@link #NOT_READ}, its reason
 * saying where, and the test names each one that is not, with its places. A listed field read everywhere fails too.
 *
 * <p>Numeric leaves only, and not identity or time: strings, bytes, booleans and enums are not figures; the {@code
 * attributes} of a pod or container (ids, names, uid, attempt, labels, annotations) are how the round finds the pod
 * the figures belong to, which the tests of the rounds hold; a {@code timestamp} field (CRI's nanoseconds, a {@code
 * google.protobuf.Timestamp}) is when the figures were taken, not a figure.
 */
class CriStatsFieldsReadTest {
  private static final String CRI = "runtime.v1.";
  private static final String RUNHCS = "containerd.runhcs.stats.v1.";

  /** Stats fields unread at some place (at every place unless the reason says where), each with why. */
  private static final Map<String, String> NOT_READ = notRead();

  private static Map<String, String> notRead() {
    Map<String, String> m = new TreeMap<>();
    String psi = "pressure is the cgroup round's: CgroupReader reads the cpu, memory and io.pressure files, as cAdvisor"
        + " does for the kubelet's KubeletPSI; CRI's copy (cpu, memory, io) is the runtime's read of the same files";
    for (String f : List.of("Total", "Avg10", "Avg60", "Avg300")) {
      m.put(CRI + "PsiData." + f, psi);
    }
    m.put(CRI + "CpuUsage.usage_nano_cores", "stateful in the runtime and shared by all its callers"
        + " (containerd#9531): the rate is computed from usage_core_nano_seconds by CpuRateCache, as the kubelet's"
        + " CRI stats provider does when the runtime leaves it out");
    m.put(CRI + "WindowsCpuUsage.usage_nano_cores", "likewise, on Windows: CpuRateCache from usage_core_nano_seconds");
    m.put(CRI + "SwapUsage.swap_available_bytes", "swap is the cgroup round's (MemoryController: v2"
        + " memory.swap.current and memory.swap.max, the kubelet's swapUsageBytes and swapAvailableBytes as cAdvisor"
        + " reads them)");
    m.put(CRI + "SwapUsage.swap_usage_bytes", "likewise");
    m.put(CRI + "WindowsMemoryUsage.working_set_bytes", "read for a container; a Windows pod's is its containers'"
        + " summed (PodStatsView.Windows.memory), as the kubelet's addPodCPUMemoryStats sums them: containerd's pod"
        + " figure adds the sandbox's own, which no usage figure includes before 2.2");
    String vm = "a Hyper-V pod's utility VM, its sandbox task's only statistics: as containerd's CRI code"
        + " (toPodSandboxStats, sandbox_stats_windows.go@v2.3.4), a vm sandbox adds nothing to the pod, whose CPU and"
        + " memory are its containers' (TasksStatsRound)";
    m.put(RUNHCS + "VirtualMachineProcessorStatistics.total_runtime_ns", vm);
    m.put(RUNHCS + "VirtualMachineMemoryStatistics.working_set_bytes", vm);
    m.put(RUNHCS + "WindowsContainerStatistics.uptime_ns", "containerd's CRI code (convertToCRIStats,"
        + " windowsContainerMetrics) does not read it; a container's start is ListContainers' created_at and"
        + " ContainerStatus.started_at");
    return Map.copyOf(m);
  }

  private final FullRuntimeSources runtimes = new FullRuntimeSources();

  @AfterEach
  void stop() throws Exception {
    runtimes.close();
  }

  interface Source {
    RuntimeSample read(FullRuntimeSources runtimes) throws Exception;
  }

  @Test
  void everyStatsFieldIsReadOrListedWithItsReason() throws Exception {
    Map<String, Set<String>> unread = new TreeMap<>();
    check(unread, FullRuntimeSources::linuxPodStats, FullRuntimeSources.fullLinuxPod(2));
    check(unread, FullRuntimeSources::windowsPodStats, FullRuntimeSources.fullWindowsPod(2));
    check(unread, FullRuntimeSources::containerStats, FullRuntimeSources.full(ContainerStats.newBuilder(), 2).build());
    check(unread, FullRuntimeSources::taskMetrics, FullRuntimeSources.full(Statistics.newBuilder(), 2).build());

    Map<String, Set<String>> unlisted = new TreeMap<>(unread);
    unlisted.values().removeIf(Set::isEmpty);
    unlisted.keySet().removeAll(NOT_READ.keySet());
    Set<String> listedButRead = new TreeSet<>(NOT_READ.keySet());
    listedButRead.removeIf(f -> !unread.getOrDefault(f, Set.of()).isEmpty());
    assertSoftly(softly -> {
      softly.assertThat(unlisted).as("stats fields unread (at these places) that NOT_READ does not list").isEmpty();
      softly.assertThat(listedButRead).as("fields listed in NOT_READ that are read wherever they sit").isEmpty();
      softly.assertThat(unread).as("the walk reaches the leaves").hasSizeGreaterThan(40);
    });
  }

  /** The walk itself: the leaves of a message, wrappers by their holder, timestamps and attributes left out. */
  @Test
  void theLeavesAreTheNumericFiguresBelowTheAttributes() {
    List<String> names = new ArrayList<>();
    for (List<FieldDescriptor> p : leaves(FullRuntimeSources.full(ContainerStats.newBuilder(), 1).build())) {
      names.add(name(p));
    }
    assertThat(names).contains(CRI + "CpuUsage.usage_core_nano_seconds", CRI + "PsiData.Avg10",
            CRI + "FilesystemUsage.inodes_used")
        .doesNotContain(CRI + "CpuUsage.timestamp", CRI + "ContainerMetadata.attempt")
        .noneMatch(n -> n.endsWith("Value.value"));
    Message m = FullRuntimeSources.full(ContainerStats.newBuilder(), 1).build();
    List<FieldDescriptor> cpu = leaves(m).get(0);
    assertThat(raised(m, cpu, 0)).isNotEqualTo(m);
    assertThat(((ContainerStats) raised(m, cpu, 0)).getCpu().getUsageCoreNanoSeconds().getValue())
        .isEqualTo(((ContainerStats) m).getCpu().getUsageCoreNanoSeconds().getValue() + 1);
  }

  /**
   * Reads {@code source} with its full messages, then once per leaf of {@code full} (the second round's message as
   * sent) with that leaf raised, and adds to {@code unread} each leaf's field with the places it did not change the
   * sample.
   */
  private void check(Map<String, Set<String>> unread, Source source, Message full) throws Exception {
    RuntimeSample baseline = source.read(runtimes);
    assertThat(source.read(runtimes)).as("a source read twice gives the same sample").isEqualTo(baseline);
    runtimes.close();
    for (List<FieldDescriptor> leaf : leaves(full)) {
      FullRuntimeSources changed = new FullRuntimeSources();
      changed.secondRound = m -> m.getDescriptorForType().equals(full.getDescriptorForType()) ? raised(m, leaf, 0) : m;
      try {
        Set<String> places = unread.computeIfAbsent(name(leaf), n -> new TreeSet<>());
        if (source.read(changed).equals(baseline)) {
          places.add(place(full, leaf));
        }
      } finally {
        changed.close();
      }
    }
  }

  /** The path to each numeric leaf below {@code m}, a repeated field's by its first element. */
  static List<List<FieldDescriptor>> leaves(Message m) {
    List<List<FieldDescriptor>> out = new ArrayList<>();
    leaves(m, new ArrayList<>(), out);
    return out;
  }

  private static void leaves(Message m, List<FieldDescriptor> path, List<List<FieldDescriptor>> out) {
    if (m.getDescriptorForType().equals(Timestamp.getDescriptor())) {
      return;
    }
    for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
      if (f.isMapField() || f.getName().equals("attributes") || f.getName().equals("timestamp")
          || (f.isRepeated() ? m.getRepeatedFieldCount(f) == 0 : !m.hasField(f))) {
        continue;
      }
      List<FieldDescriptor> p = new ArrayList<>(path);
      p.add(f);
      switch (f.getJavaType()) {
        case INT, LONG, FLOAT, DOUBLE -> out.add(p);
        case MESSAGE -> leaves((Message) (f.isRepeated() ? m.getRepeatedField(f, 0) : m.getField(f)), p, out);
        default -> { }
      }
    }
  }

  /** Where a leaf sits: its message's type and the path of field names to it, a repeated field's first as [0]. */
  static String place(Message root, List<FieldDescriptor> leaf) {
    StringBuilder b = new StringBuilder(root.getDescriptorForType().getName());
    for (FieldDescriptor f : leaf) {
      b.append('.').append(f.getName()).append(f.isRepeated() ? "[0]" : "");
    }
    return b.toString();
  }

  /**
   * A leaf's field by its full name; a wrapper's value (api.proto's {@code UInt64Value}, or any message whose one
   * field is {@code value}) by the field that holds the wrapper.
   */
  static String name(List<FieldDescriptor> leaf) {
    FieldDescriptor last = leaf.get(leaf.size() - 1);
    boolean wrapper = leaf.size() > 1 && last.getName().equals("value")
        && last.getContainingType().getFields().size() == 1;
    return (wrapper ? leaf.get(leaf.size() - 2) : last).getFullName();
  }

  /** {@code m} with the leaf at {@code path} (from index {@code i}) raised by 1. */
  static Message raised(Message m, List<FieldDescriptor> path, int i) {
    FieldDescriptor f = path.get(i);
    Message.Builder b = m.toBuilder();
    Object v = f.isRepeated() ? m.getRepeatedField(f, 0) : m.getField(f);
    Object next = i < path.size() - 1 ? raised((Message) v, path, i + 1) : switch (f.getJavaType()) {
      case INT -> (Integer) v + 1;
      case LONG -> (Long) v + 1;
      case FLOAT -> (Float) v + 1;
      case DOUBLE -> (Double) v + 1;
      default -> throw new IllegalArgumentException("not a numeric leaf: " + f.getFullName());
    };
    if (f.isRepeated()) {
      b.setRepeatedField(f, 0, next);
    } else {
      b.setField(f, next);
    }
    return b.build();
  }
}
