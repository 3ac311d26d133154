package io.winstats.cri.rounds;

import io.winstats.cri.ContainerSample;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Of the containers sharing a name in one pod, only the most recently created. A restart creates a new container (the
 * next attempt) and leaves the exited one listed, with no stats, until the kubelet garbage-collects it; the kubelet
 * hides it likewise ({@code removeTerminatedContainers} in {@code pkg/kubelet/stats/cri_stats_provider.go}), so a pod
 * shows one series per container name. A lone exited container stays.
 */
final class NewestContainers {
  private NewestContainers() {}

  /** {@code containers} without those a newer container of the same name replaces; ties go to the higher attempt. */
  static List<ContainerSample> perName(List<ContainerSample> containers) {
    Map<String, ContainerSample> newest = new HashMap<>();
    for (ContainerSample c : containers) {
      newest.merge(
          c.name(),
          c,
          (a, b) -> {
            int byCreation = a.createdAt().compareTo(b.createdAt());
            return byCreation != 0 ? (byCreation > 0 ? a : b) : (a.attempt() >= b.attempt() ? a : b);
          });
    }
    return newest.size() == containers.size() ? containers : List.copyOf(newest.values());
  }
}
