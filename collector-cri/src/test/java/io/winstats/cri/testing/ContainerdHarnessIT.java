package io.winstats.cri.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The harness leaves nothing behind: no containerd, no shim, no cgroup, no bridge, {@code ip_forward} as it was. */
@Tag("containerd")
@Requires(prerequisites = ContainerdAvailable.class)
class ContainerdHarnessIT {

  @Test
  void closeRemovesEverythingEvenWhenContainerdWasLeftStopped() throws IOException {
    String ipForward = Files.readString(Path.of("/proc/sys/net/ipv4/ip_forward")).strip();
    byte[] random = new byte[3];
    new SecureRandom().nextBytes(random);
    Path workDir = Path.of("target", "ctrd-" + HexFormat.of().formatHex(random)).toAbsolutePath();

    ContainerdHarness harness = ContainerdHarness.start(workDir);
    PodHandle pod;
    long containerdPid;
    try {
      CriTestClient client = harness.client();
      assertThat(client.version(java.time.Duration.ofSeconds(5))).startsWith("containerd ");
      pod = client.runPod("left-behind", "it-harness", List.of(ContainerSpec.sleeper("app")));
      assertThat(pod.containerCgroup("cpuacct", "app")).isDirectory();
      assertThat(pod.containerCgroup("memory", "app")).isDirectory();
      assertThat(Path.of("/sys/class/net", harness.bridge())).exists();
      assertThat(harness.socket().toString()).hasSizeLessThanOrEqualTo(100);

      harness.restart();
      assertThat(client.runtime()
              .listPodSandbox(io.winstats.cri.api.ListPodSandboxRequest.getDefaultInstance())
              .getItemsList())
          .as("pods survive a containerd restart")
          .extracting(p -> p.getId())
          .contains(pod.sandboxId());
      containerdPid = pid(workDir);
      // A test that dies with containerd stopped: the pods' shims are still running.
      harness.stopRuntime();
    } finally {
      harness.close();
    }

    assertThat(ProcessHandle.of(containerdPid)).isEmpty();
    assertThat(processesMentioning(workDir.toString())).as("no containerd or shim left").isEmpty();
    for (String controller : List.of("cpuacct", "memory", "pids", "systemd", "unified")) {
      assertThat(Cgroups.ROOT.resolve(controller).resolve(harness.cgroupRoot().substring(1)))
          .as(controller)
          .doesNotExist();
    }
    assertThat(Path.of("/sys/class/net", harness.bridge())).doesNotExist();
    assertThat(Files.readString(Path.of("/proc/sys/net/ipv4/ip_forward")).strip()).isEqualTo(ipForward);
    assertThat(workDir.resolve("root")).doesNotExist();
    assertThat(workDir.resolve("containerd.log")).exists();
  }

  private static long pid(Path workDir) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().orElse("").contains(workDir.resolve("config.toml").toString()))
        .mapToLong(ProcessHandle::pid)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no containerd running for " + workDir));
  }

  /** Processes whose command line names the work directory (containerd and its shims do). */
  private static List<String> processesMentioning(String text) {
    try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
      return all.filter(ProcessHandle::isAlive)
          .map(p -> p.info().commandLine().orElse(""))
          .filter(c -> c.contains(text))
          .toList();
    }
  }
}
