package io.winstats.cri;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The samples' builders name every component, copy every one back, and refuse a sample without its identity. */
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
        .writableLayer(new WritableLayerUsage(T, "/layers", 10L, 1L, null))
        .logs(new ContainerLogUsage(T, 20L, 2L))
        .resources(new ResourceSpec(100_000L, 50_000L, 2L, 64L))
        .build();
  }

  @Test
  void everyComponentIsSetByName() {
    ContainerSample c = container();
    assertThat(c)
        .isEqualTo(
            new ContainerSample("c1", "app", 2, "busybox:1", T.minusSeconds(5), ContainerSample.State.EXITED,
                Map.of("k", "v"), new CpuUsage(T, 7, 3L), new MemoryUsage(T, 1L, 2L, 3L, 4L, 5L, 6L, 7L),
                new WritableLayerUsage(T, "/layers", 10L, 1L, null), new ContainerLogUsage(T, 20L, 2L),
                new ResourceSpec(100_000L, 50_000L, 2L, 64L), null));
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
            .network(new NetworkUsage(T, List.of(new InterfaceUsage("eth0", 1L, 0L, 2L, 0L, null, null))))
            .processCount(3L)
            .container(container())
            .build();
    RuntimeSample round =
        RuntimeSample.builder(T, "containerd 2.1").pod(pod).filesystems(new RuntimeFilesystems(List.of(), List.of()))
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
