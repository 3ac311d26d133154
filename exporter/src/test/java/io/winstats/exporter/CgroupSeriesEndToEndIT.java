package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.PodHandle;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.PrometheusText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real jar against a private containerd: the cgroup-derived series on {@code /metrics/cadvisor}, each bracketed by
 * the cgroup file read before the round that produced it and after the scrape that served it.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
class CgroupSeriesEndToEndIT {
  private static final Duration WAIT = Duration.ofSeconds(40);

  @Test
  void throttlingAndUserCpuOnMetricsCadvisorMatchTheCgroup(ContainerdHarness harness, CriTestClient client)
      throws Exception {
    PodHandle pod = harness.defer(client.runPod("throttled", "e2e-cg", List.of(ContainerSpec.burner("burn", 0.2))));
    Path cpu = pod.containerCgroup("cpu", "burn");
    Path cpuacct = pod.containerCgroup("cpuacct", "burn");
    String id = pod.containerId("burn");
    try (DaemonProcess daemon =
        DaemonProcess.start(
            Path.of("target", "e2e-cgroups", "daemon.log"),
            "--cri.endpoint=" + harness.endpoint(),
            "--sampling.interval=1s",
            "--node.name=e2e-cgroups",
            "--log.level=debug")) {
      Deadline.await("the burner to be throttled 3 times", WAIT, () -> keyed(cpu, "cpu.stat", "nr_throttled") >= 3);

      long readAtMillis = System.currentTimeMillis();
      long throttledBefore = keyed(cpu, "cpu.stat", "nr_throttled");
      long userTicksBefore = keyed(cpuacct, "cpuacct.stat", "user");
      // A round that started after the reads above: its timestamp (taken when its cgroup reads finished) is later.
      List<PrometheusText> scrape;
      try {
        scrape =
          Deadline.poll(
              "a /metrics/cadvisor round newer than the reads",
              WAIT,
              () -> {
                DaemonProcess.Response r = daemon.get("/metrics/cadvisor");
                if (r.status() != 200) {
                  return null;
                }
                List<PrometheusText> samples = PrometheusText.parse(r.body());
                List<PrometheusText> throttled =
                    PrometheusText.select(samples, "container_cpu_cfs_throttled_periods_total", "name", id);
                return throttled.size() == 1
                        && throttled.get(0).timestampMillis() != null
                        && throttled.get(0).timestampMillis() > readAtMillis + 1000
                    ? samples
                    : null;
              });
      } catch (AssertionError e) {
        throw new AssertionError(
            e.getMessage() + "; lines of " + id + ": "
                + daemon.get("/metrics/cadvisor").body().lines().filter(l -> l.contains(id)).limit(6).toList()
                + "\n" + daemon.log(),
            e);
      }
      long throttledAfter = keyed(cpu, "cpu.stat", "nr_throttled");
      long userTicksAfter = keyed(cpuacct, "cpuacct.stat", "user");

      PrometheusText throttled =
          PrometheusText.select(scrape, "container_cpu_cfs_throttled_periods_total", "name", id).get(0);
      PrometheusText user = PrometheusText.select(scrape, "container_cpu_user_seconds_total", "name", id).get(0);
      System.out.printf(
          "CgroupSeriesEndToEndIT: throttled periods %d<=%.0f<=%d; user seconds %.2f<=%.2f<=%.2f; labels=%s%n",
          throttledBefore, throttled.value(), throttledAfter, userTicksBefore / 100.0, user.value(),
          userTicksAfter / 100.0, throttled.labels());

      assertThat(throttled.value()).isBetween((double) throttledBefore, (double) throttledAfter);
      assertThat(user.value()).isBetween(userTicksBefore / 100.0, userTicksAfter / 100.0);
      assertThat(throttled.labels())
          .containsEntry("container", "burn")
          .containsEntry("pod", "throttled")
          .containsEntry("namespace", "e2e-cg")
          .containsEntry("id", "/kubepods/pod" + pod.uid() + "/" + id);
      assertThat(PrometheusText.select(scrape, "container_processes", "name", id)).singleElement()
          .satisfies(p -> assertThat(p.value()).isEqualTo(1.0));
      // The pod's packets and drops from the pause process's net/dev, with the pod's labels; eth0 only (no lo).
      for (String name :
          List.of("container_network_receive_packets_total", "container_network_transmit_packets_dropped_total")) {
        assertThat(PrometheusText.select(scrape, name, "pod", "throttled"))
            .as(name)
            .singleElement()
            .satisfies(
                p ->
                    assertThat(p.labels())
                        .containsEntry("interface", "eth0")
                        .containsEntry("container", "")
                        .containsEntry("id", "/kubepods/pod" + pod.uid()));
      }
      assertThat(scrape).noneMatch(s -> s.name().startsWith("winstats_exporter_") || s.name().startsWith("jvm_"));
      // PSI by the host's kind, as the kubelet asks cAdvisor for it: where /sys/fs/cgroup/cpu.pressure opens
      // (kubernetes#137326), i.e. cgroup v2 with PSI on; on v1, hybrid included, absent from both outputs, not zero.
      String summary = daemon.get("/stats/summary").body();
      if (Files.exists(Path.of("/sys/fs/cgroup/cpu.pressure"))) {
        assertThat(PrometheusText.select(scrape, "container_pressure_cpu_waiting_seconds_total", "name", id))
            .hasSize(1);
        assertThat(summary).contains("\"psi\"");
      } else {
        assertThat(scrape).as("no container_pressure_* on a cgroup v1 host")
            .noneMatch(s -> s.name().startsWith("container_pressure_"));
        assertThat(summary).as("no PSI in the Summary on a cgroup v1 host").contains("\"pods\"")
            .doesNotContain("\"psi\"");
      }
      assertThat(daemon.get("/metrics").body()).contains("container_cpu_cfs_throttled_periods_total{");
    }
  }

  /**
   * --no-collector.cgroup, end to end: the CRI figures of a container are served, its cgroup-derived series are not,
   * and the daemon never probed the cgroup tree (no cgroups_enabled line), so no cgroup file was read.
   */
  @Test
  void withTheCgroupCollectorOffTheCriSeriesStayAndNoCgroupIsRead(ContainerdHarness harness, CriTestClient client)
      throws Exception {
    PodHandle pod = harness.defer(client.runPod("uncounted", "e2e-cg-off", List.of(ContainerSpec.burner("burn", 0.1))));
    String id = pod.containerId("burn");
    try (DaemonProcess daemon =
        DaemonProcess.start(
            Path.of("target", "e2e-cgroups-off", "daemon.log"),
            "--cri.endpoint=" + harness.endpoint(),
            "--sampling.interval=1s",
            "--no-collector.cgroup")) {
      List<PrometheusText> scrape =
          Deadline.poll(
              "the container's CRI series on /metrics/cadvisor",
              WAIT,
              () -> {
                DaemonProcess.Response r = daemon.get("/metrics/cadvisor");
                List<PrometheusText> samples = r.status() == 200 ? PrometheusText.parse(r.body()) : List.of();
                return PrometheusText.select(samples, "container_cpu_usage_seconds_total", "name", id).isEmpty()
                    ? null
                    : samples;
              });
      // A later round: the first one's cgroups, had they been read, were published before it.
      long first = cpuTimestamp(scrape, id);
      List<PrometheusText> later =
          Deadline.poll(
              "a later round on /metrics",
              WAIT,
              () -> {
                List<PrometheusText> samples = PrometheusText.parse(daemon.get("/metrics").body());
                return cpuTimestamp(samples, id) > first ? samples : null;
              });

      assertThat(PrometheusText.select(later, "container_memory_working_set_bytes", "name", id)).hasSize(1);
      for (String cgroupOnly :
          List.of("container_cpu_user_seconds_total", "container_memory_cache", "container_processes",
              "container_fs_reads_bytes_total", "container_network_receive_packets_total")) {
        assertThat(PrometheusText.select(later, cgroupOnly, "pod", "uncounted")).as(cgroupOnly).isEmpty();
      }
      // The start line's list, without naming every collector that runs on a Linux node.
      Matcher collectors = Pattern.compile("collectors=(\\S*)").matcher(daemon.log());
      assertThat(collectors.find()).as("the start line's collectors=").isTrue();
      assertThat(collectors.group(1).split(",")).contains("cri", "node").doesNotContain("cgroup");
      assertThat(daemon.log()).doesNotContain("event=cgroups_enabled");
    }
  }

  /** The sample time of the container's CPU series, or 0 when there is none. */
  private static long cpuTimestamp(List<PrometheusText> samples, String id) {
    List<PrometheusText> cpu = PrometheusText.select(samples, "container_cpu_usage_seconds_total", "name", id);
    Long at = cpu.isEmpty() ? null : cpu.get(0).timestampMillis();
    return at == null ? 0 : at;
  }

  private static long keyed(Path dir, String file, String key) {
    try {
      for (String line : Files.readString(dir.resolve(file)).split("\n")) {
        String[] f = line.strip().split("\\s+");
        if (f.length == 2 && f[0].equals(key)) {
          return Long.parseLong(f[1]);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("no " + key + " in " + dir.resolve(file));
  }
}
