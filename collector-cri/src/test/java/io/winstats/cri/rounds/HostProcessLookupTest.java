package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxMetadata;
import io.winstats.cri.api.PodSandboxState;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.ContainerdSandboxStatus;
import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The HostProcess flag read out of containerd's verbose sandbox info ({@link HostProcessLookup#fromSandboxInfo}). The
 * Windows answers are {@link ContainerdSandboxStatus}'s; the Linux one is a real containerd's, which
 * CriStatsReaderHostProcessIT reads on every run.
 */
class HostProcessLookupTest {
  private static final PodSandbox SANDBOX =
      PodSandbox.newBuilder()
          .setId("f".repeat(64))
          .setMetadata(PodSandboxMetadata.newBuilder().setName("agent").setNamespace("kube-system").setUid("u-1"))
          .setState(PodSandboxState.SANDBOX_READY)
          .setCreatedAt(1_795_000_000_000_000_000L)
          .putLabels("io.kubernetes.pod.name", "agent")
          .build();

  @ParameterizedTest
  @EnumSource(ContainerdLine.class)
  void aHostProcessSandboxIsOneAndAnIsolatedOneIsNot(ContainerdLine line) throws IOException {
    assertThat(HostProcessLookup.fromSandboxInfo(ContainerdSandboxStatus.sandboxInfo(line, SANDBOX, true))).isTrue();
    assertThat(HostProcessLookup.fromSandboxInfo(ContainerdSandboxStatus.sandboxInfo(line, SANDBOX, false)))
        .isFalse();
  }

  @ParameterizedTest
  @EnumSource(ContainerdLine.class)
  void theNetworkNamespaceIsTheSpecsOrTheSandboxMetadatasAndAHostProcessPodHasNone(ContainerdLine line)
      throws IOException {
    assertThat(
            HostProcessLookup.netNamespaceFromSandboxInfo(
                ContainerdSandboxStatus.sandboxInfo(line, SANDBOX, false)))
        .as("runtimeSpec.windows.network.networkNamespace on every line; 2.x's sandboxMetadata.NetNSPath repeats it")
        .isEqualTo(ContainerdSandboxStatus.netns(SANDBOX.getId()));
    assertThat(
            HostProcessLookup.netNamespaceFromSandboxInfo(ContainerdSandboxStatus.sandboxInfo(line, SANDBOX, true)))
        .isNull();
  }

  @Test
  void theNetworkNamespaceOf2xSandboxMetadataServesWhenTheSpecHasNone() throws IOException {
    String onlyMetadata =
        "{\"runtimeSpec\":{\"ociVersion\":\"1.1.0\",\"windows\":{\"layerFolders\":null}},"
            + "\"sandboxMetadata\":{\"ID\":\"s\",\"NetNSPath\":\"5e1f0c3a-0000-4000-8000-00000000002a\"}}";
    assertThat(HostProcessLookup.netNamespaceFromSandboxInfo(onlyMetadata))
        .isEqualTo("5e1f0c3a-0000-4000-8000-00000000002a");
    assertThat(HostProcessLookup.netNamespaceFromSandboxInfo("{\"runtimeSpec\":{\"windows\":{\"network\":"
        + "{\"networkNamespace\":\"\"}}},\"sandboxMetadata\":{\"NetNSPath\":\"\"}}"))
        .as("empty is none")
        .isNull();
  }

  /** The shape containerd 1.6.20 answers for a Linux pod here (abridged): a config without a Windows part. */
  @Test
  void aLinuxSandboxIsNotOne() throws IOException {
    String linux =
        """
        {"pid":14206,"processStatus":"running","netNamespaceClosed":false,"image":"localhost/winstats/pause:1",\
        "runtimeHandler":"","runtimeType":"io.containerd.runc.v2","runtimeOptions":{"root":"/run/runc"},\
        "config":{"metadata":{"name":"plain","uid":"3e0f","namespace":"it"},"hostname":"plain",\
        "labels":{"io.kubernetes.pod.name":"plain"},\
        "linux":{"cgroup_parent":"/kubepods/pod3e0f","security_context":{"namespace_options":{"pid":1}}}},\
        "runtimeSpec":{"ociVersion":"1.0.2-dev","annotations":{"io.kubernetes.cri.container-type":"sandbox"}},\
        "cniResult":{"Interfaces":{"eth0":{"IPConfigs":[{"IP":"10.206.79.2","Gateway":"10.206.79.1"}]}}}}""";
    assertThat(HostProcessLookup.fromSandboxInfo(linux)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{}",
        "{\"config\":null}",
        "{\"runtimeSpec\":{\"annotations\":{\"microsoft.com/hostprocess-container\":\"true\"}}}",
        "[]",
      })
  void noConfigLeavesTheFlagUnknown(String json) throws IOException {
    assertThat(HostProcessLookup.fromSandboxInfo(json)).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"config\":{\"labels\":{\"host_process\":\"true\"},\"windows\":{\"security_context\":{}}}}",
        "{\"config\":{\"windows\":{\"security_context\":{\"host_process\":false}}}}",
        "{\"config\":{\"windows\":{\"security_context\":null}}}",
        "{\"config\":{\"windows\":{\"host_process\":true}}}",
      })
  void onlyTheWindowsSecurityContextsFlagCounts(String json) throws IOException {
    assertThat(HostProcessLookup.fromSandboxInfo(json)).isFalse();
  }

  @Test
  void textThatIsNotJsonIsAnError() {
    assertThatThrownBy(() -> HostProcessLookup.fromSandboxInfo("{\"config\":{\"windows\":")).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> HostProcessLookup.fromSandboxInfo("sandbox info")).isInstanceOf(IOException.class);
  }
}
