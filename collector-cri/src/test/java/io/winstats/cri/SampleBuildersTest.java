package io.winstats.cri;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The samples' generated builders copy every component back ({@code toBuilder}), and a sample without its identity is
 * refused naming the missing component (the compact constructors check it).
 */
class SampleBuildersTest {
  private static final Instant T = Instant.parse("2026-11-21T08:00:00Z");

  private static ContainerSample container() {
    return ContainerSample.builder("c1", "app")
        .attempt(2)
        .image("busybox:1")
        .createdAt(T.minusSeconds(5))
        .state(ContainerSample.State.EXITED)
        .labels(Map.of("k", "v"))
        .cpu(new CpuUsage(T, 7, 3L))
        .memory(MemoryUsage.builder(T).workingSetBytes(1L).availableBytes(2L).usageBytes(3L).rssBytes(4L)
            .pageFaults(5L).majorPageFaults(6L).commitBytes(7L).build())
        .writableLayer(RuntimeFilesystemUsage.builder(T, "/layers").usedBytes(10L).inodesUsed(1L).build())
        .logs(new ContainerLogUsage(T, 20L, 2L))
        .resources(new ResourceSpec(100_000L, 50_000L, 2L, 64L))
        .build();
  }

  @Test
  void toBuilderCopiesEveryComponent() {
    PodSample pod =
        PodSample.builder(new PodRef("web", "shop", "uid"), "sb")
            .createdAt(T)
            .labels(Map.of("app", "web"))
            .hostProcess(true)
            .cpu(new CpuUsage(T, 9, null))
            .memory(MemoryUsage.builder(T).workingSetBytes(8L).build())
            .network(new NetworkUsage(
                T, List.of(InterfaceUsage.builder("eth0").rxBytes(1L).rxErrors(0L).txBytes(2L).txErrors(0L).build())))
            .processCount(3L)
            .containers(List.of(container()))
            .build();
    RuntimeSample round =
        RuntimeSample.builder(T, "containerd 2.1")
            .pods(List.of(pod))
            .filesystems(new RuntimeFilesystems(List.of(), List.of()))
            .skipped(List.of("gone: NOT_FOUND")).build();

    assertThat(container().toBuilder().build()).isEqualTo(container());
    assertThat(pod.toBuilder().build()).isEqualTo(pod);
    assertThat(round.toBuilder().build()).isEqualTo(round);
  }

  @Test
  void aSampleWithoutItsIdentityIsRefusedNamingTheMissingComponent() {
    assertThatThrownBy(() -> ContainerSample.builder("c1", "app").createdAt(T).state(ContainerSample.State.RUNNING).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("image");
    assertThatThrownBy(() -> PodSample.builder(new PodRef("web", "shop", "uid"), "sb").build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("createdAt");
  }
}
