package io.winstats.exporter.bench;

import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.PodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** The cgroup benches' pods: each with two sleeping containers, app and sidecar; their sandbox and container ids. */
record BenchPods(List<String> sandboxes, List<String> containers) {
  /** Creates {@code pods} pods named {@code prefix-N}, four at a time, each given {@code minutes} to start. */
  static BenchPods create(CriTestClient client, String prefix, int pods, int minutes) throws Exception {
    ExecutorService creators = Executors.newFixedThreadPool(4);
    try {
      List<Future<PodHandle>> created = new ArrayList<>();
      for (int i = 0; i < pods; i++) {
        String name = prefix + "-" + i;
        created.add(
            creators.submit(
                () -> client.runPod(
                    name, "bench", List.of(ContainerSpec.sleeper("app"), ContainerSpec.sleeper("sidecar")))));
      }
      List<String> sandboxes = new ArrayList<>();
      List<String> containers = new ArrayList<>();
      for (Future<PodHandle> f : created) {
        PodHandle pod = f.get(minutes, TimeUnit.MINUTES);
        sandboxes.add(pod.sandboxId());
        containers.add(pod.containerId("app"));
        containers.add(pod.containerId("sidecar"));
      }
      return new BenchPods(List.copyOf(sandboxes), List.copyOf(containers));
    } finally {
      creators.shutdown();
    }
  }
}
