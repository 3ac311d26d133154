package io.winstats.summary;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodSample;
import java.util.List;

/**
 * The containers of a pod that the kubelet serves stats for: only running ones. The kubelet drops every container
 * whose CRI state is not {@code CONTAINER_RUNNING} before it builds the Summary and {@code /metrics/resource}
 * ({@code removeTerminatedContainers} in kubernetes {@code pkg/kubelet/stats/cri_stats_provider.go}), so a completed
 * init container or the exited attempt of a restarting container never shows. metrics-server depends on that: its
 * decoder ({@code checkContainerMetrics} in {@code pkg/scraper/client/resource/decode.go}) discards a whole pod when
 * one of its containers lacks CPU or memory.
 *
 * <p>The rule is the state, not the readings: on a real containerd 1.6 an init container that exited 2.4 s earlier
 * still had both CPU and memory (54 ms, 68 KiB; ExporterEndToEndIT).
 */
public final class RunningContainers {
  private RunningContainers() {}

  /** The pod's containers in state {@link ContainerSample.State#RUNNING}, in the pod's order. */
  public static List<ContainerSample> of(PodSample pod) {
    List<ContainerSample> all = pod.containers();
    for (ContainerSample c : all) {
      if (c.state() != ContainerSample.State.RUNNING) {
        return all.stream().filter(x -> x.state() == ContainerSample.State.RUNNING).toList();
      }
    }
    return all;
  }
}
