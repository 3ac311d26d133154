package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.PodHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link WritableLayers} and {@link TaskProcesses} against a real containerd, so their gRPC calls ({@code
 * Containers.Get}, {@code Introspection.Plugins}, {@code Snapshots.Usage}, {@code Tasks.ListPids}) run against the
 * services containerd serves. This host's containerd is a Linux one (overlayfs snapshotter, runc shim); the Windows
 * answers are {@link io.winstats.cri.testing.WindowsRuntimeFake}'s. Each figure is checked against an independent
 * reading: the layer against the size of the upper directory that holds the container's written file, the process
 * counts against the container's and the sandbox's {@code cgroup.procs}.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
class ContainerdTaskExtrasIT {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
  private static final long MIB = 1 << 20;
  /** Writes 1 MiB into its writable layer and runs three processes. */
  private static final ContainerSpec WRITER =
      ContainerSpec.of(
          "writer",
          "/bin/sh",
          "-c",
          "dd if=/dev/zero of=/tmp/blob bs=1024 count=1024 && sleep 2147483647 & sleep 2147483647 &"
              + " exec sleep 2147483647");

  @Test
  void theWritableLayerAndProcessCountsAreContainerdsOwn(ContainerdHarness harness, CriTestClient client)
      throws Exception {
    PodHandle pod = client.runPod("extras", "it-extras", List.of(WRITER));
    String id = pod.containerId("writer");
    Path procs = pod.cgroupOf("memory", id).resolve("cgroup.procs");
    Deadline.await("three processes in the writer", Duration.ofSeconds(20), () -> lines(procs) == 3);
    Path snapshotRoot = harness.workDir().resolve("root").resolve("io.containerd.snapshotter.v1.overlayfs");
    Path blob =
        Deadline.poll(
            "the writer's 1 MiB blob in an upper directory",
            Duration.ofSeconds(20),
            () -> upperBlob(snapshotRoot));

    AtomicLong ticker = new AtomicLong();
    try (CriTransport.Channel channel = CriTransport.open(CriEndpoint.parse(harness.endpoint()), false)) {
      RuntimeContext context = new RuntimeContext(harness.endpoint(), CALL_TIMEOUT, Clock.systemUTC(), ticker::get);
      WritableLayers layers = new WritableLayers(context, channel.channel());
      TaskProcesses processes = new TaskProcesses(context, channel.channel());

      WritableLayers.Layer layer = layers.of(id);
      long du = diskUsage(blob.getParent().getParent());
      assertThat(layer).isNotNull();
      assertThat(layer.mountpoint()).as("snapshotRoot(\"overlayfs\") as containerd's CRI plugin computes it")
          .isEqualTo(snapshotRoot.toString());
      assertThat(layer.usedBytes())
          .as("Usage of the container's snapshot: du of its upper directory (%d), which holds the 1 MiB blob", du)
          .isEqualTo(du)
          .isGreaterThanOrEqualTo(MIB);
      assertThat(layers.of("no-such-container")).as("a container containerd does not hold").isNull();

      long sandbox = lines(pod.podCgroup("memory").resolve(pod.sandboxId()).resolve("cgroup.procs"));
      assertThat(sandbox).as("the pause container").isEqualTo(1);
      assertThat(processes.podCount(pod.sandboxId(), List.of(id)))
          .as("ListPids of the sandbox's task and of the writer's, as getSandboxPidCount sums them")
          .isEqualTo(sandbox + lines(procs));
      assertThat(processes.podCount("no-such-sandbox", List.of(id)))
          .as("a sandbox whose task is gone counts 0, as containerd's getSandboxPidCount returns")
          .isZero();
    } finally {
      client.removePod(pod);
    }
  }

  private static long lines(Path file) {
    try (Stream<String> s = Files.lines(file)) {
      return s.filter(l -> !l.isBlank()).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code <root>/snapshots/<n>/fs/tmp/blob} once it holds 1 MiB, or {@code null}. */
  private static @org.jspecify.annotations.Nullable Path upperBlob(Path snapshotRoot) {
    try (Stream<Path> snapshots = Files.list(snapshotRoot.resolve("snapshots"))) {
      for (Path s : snapshots.toList()) {
        Path blob = s.resolve("fs").resolve("tmp").resolve("blob");
        if (Files.isRegularFile(blob) && Files.size(blob) == MIB) {
          return blob;
        }
      }
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code du -s --block-size=1}: allocated bytes of every file and directory under {@code dir}, links once. */
  private static long diskUsage(Path dir) throws IOException, InterruptedException {
    Process du = new ProcessBuilder("du", "-s", "--block-size=1", dir.toString()).redirectErrorStream(true).start();
    String out = new String(du.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
    assertThat(du.waitFor()).as("du: %s", out).isZero();
    return Long.parseLong(out.split("\\s+")[0]);
  }
}
