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
 * <p>The runtime sample does not carry the CRI state yet, so this keeps the containers with a CPU or memory reading.
 * That is not yet the kubelet's rule: on a real containerd 1.6 an init container that exited 2.4 s earlier still had
 * both (54 ms of CPU, 68 KiB; ExporterEndToEndIT), so it stays listed until its readings go. The exact rule needs
 * {@code ContainerState} from {@code ListContainers} in {@code ContainerSample}. The {@code ListContainerStats} path
 * lists running containers only and is exact already.
 */
public final class RunningContainers {
  private RunningContainers() {}

  /** The pod's containers that have a CPU or a memory reading, in the pod's order (see the class comment). */
  public static List<ContainerSample> of(PodSample pod) {
    List<ContainerSample> all = pod.containers();
    for (ContainerSample c : all) {
      if (!isRunning(c)) {
        return all.stream().filter(RunningContainers::isRunning).toList();
      }
    }
    return all;
  }

  static boolean isRunning(ContainerSample container) {
    return container.cpu() != null || container.memory() != null;
  }
}
