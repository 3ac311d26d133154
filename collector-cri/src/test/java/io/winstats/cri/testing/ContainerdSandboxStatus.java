package io.winstats.cri.testing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxNetworkStatus;
import io.winstats.cri.api.PodSandboxStatus;
import io.winstats.cri.api.PodSandboxStatusResponse;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * containerd's answer to {@code PodSandboxStatus} for a ready Windows pod, field by field, as each {@link
 * ContainerdLine} builds it:
 *
 * <ul>
 *   <li>{@code status} ({@code toCRISandboxStatus}, {@code pkg/cri/server/sandbox_status.go} up to 1.7, {@code
 *       internal/cri/server/sandbox_status.go} from 2.0): id, the config's metadata, labels and annotations, READY,
 *       the creation time, and the pod IP, empty for a pod on the host network ({@code getIPs}: "For sandboxes using
 *       the node network we are not responsible for reporting the IP"; a HostProcess pod is one, {@code hostNetwork}
 *       in {@code helpers.go} takes {@code host_process} for it on Windows). containerd also sets {@code linux} with
 *       the config's Linux namespace options (none on Windows); our trimmed api.proto has no field for it.
 *   <li>{@code info}, only when {@code verbose}: {@code {"info": <JSON>}}, the JSON of containerd's {@code
 *       SandboxInfo} written by Go's {@code encoding/json} ({@code toCRISandboxInfo}: in {@code
 *       pkg/cri/server/sandbox_status.go} up to 1.7, with {@code runtimeHandler}; in {@code
 *       internal/cri/server/podsandbox/sandbox_status.go} from 2.0, with {@code sandboxMetadata}, the sandbox store's
 *       metadata, which repeats the config). {@code config} is the kubelet's {@code PodSandboxConfig} with the cri-api
 *       Go types' JSON names and {@code omitempty}: the kubelet sends both a Linux and a Windows part to a Windows
 *       runtime ({@code generatePodSandboxWindowsConfig}, kuberuntime_sandbox.go: "called in addition to
 *       LinuxPodSandboxConfig"), whose {@code security_context} always exists and carries {@code host_process: true}
 *       for a HostProcess pod (false is omitted). {@code runtimeSpec} carries hcsshim's {@code
 *       microsoft.com/hostprocess-container} annotation, {@code "true"} or {@code "false"}, with the CRI annotations
 *       ({@code sandboxContainerSpec} in {@code sandbox_run_windows.go}, {@code DefaultCRIAnnotations}; the sandbox
 *       image name only from 2.0), and for a pod with its own network its {@code windows.network.networkNamespace},
 *       the HCN namespace id ({@link #netns}); the spec's process section and the rest of its Windows section, which
 *       nothing reads, are left out.
 * </ul>
 *
 * <p>The default Windows runtime ({@code runhcs-wcow-process}, {@code io.containerd.runhcs.v1}) has no options, so
 * {@code runtimeOptions} is null; snapshots are the {@code windows} snapshotter's; the sandbox image is the default
 * of each line ({@code registry.k8s.io/pause:3.6} in 1.6, {@code 3.8} in 1.7, {@code 3.10} from 2.0).
 */
public final class ContainerdSandboxStatus {
  private static final JsonFactory JSON = new JsonFactory();

  private ContainerdSandboxStatus() {}

  /**
   * The answer for {@code sandbox}, as listed by {@code ListPodSandbox}.
   *
   * @param hostProcess whether the pod is a HostProcess one
   * @param verbose the request's {@code verbose}: whether {@code info} is sent
   */
  public static PodSandboxStatusResponse answer(
      ContainerdLine line, PodSandbox sandbox, boolean hostProcess, boolean verbose) {
    PodSandboxStatusResponse.Builder response =
        PodSandboxStatusResponse.newBuilder()
            .setStatus(
                PodSandboxStatus.newBuilder()
                    .setId(sandbox.getId())
                    .setMetadata(sandbox.getMetadata())
                    .setState(sandbox.getState())
                    .setCreatedAt(sandbox.getCreatedAt())
                    .setNetwork(PodSandboxNetworkStatus.newBuilder().setIp(hostProcess ? "" : podIp(sandbox)))
                    .putAllLabels(sandbox.getLabelsMap())
                    .putAllAnnotations(sandbox.getAnnotationsMap()));
    if (verbose) {
      response.putInfo("info", sandboxInfo(line, sandbox, hostProcess));
    }
    return response.build();
  }

  /**
   * The answer for a sandbox containerd does not hold: {@code PodSandboxStatus} wraps the sandbox store's {@code
   * errdefs.ErrNotFound} ("an error occurred when try to find sandbox: %w"), which reaches gRPC as NotFound.
   */
  public static StatusRuntimeException notFound() {
    return Status.NOT_FOUND.withDescription("an error occurred when try to find sandbox: not found").asRuntimeException();
  }

  private static String podIp(PodSandbox sandbox) {
    return "10.244.1." + (1 + Math.floorMod(sandbox.getId().hashCode(), 250));
  }

  /** The {@code SandboxInfo} JSON of a running sandbox. */
  public static String sandboxInfo(ContainerdLine line, PodSandbox sandbox, boolean hostProcess) {
    boolean v2 = line == ContainerdLine.V2_0 || line == ContainerdLine.V2_2;
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberField("pid", 4000 + Math.floorMod(sandbox.getId().hashCode(), 1000));
      g.writeStringField("processStatus", "running");
      g.writeBooleanField("netNamespaceClosed", false);
      g.writeStringField("image", sandboxImage(line));
      g.writeStringField("snapshotKey", sandbox.getId());
      g.writeStringField("snapshotter", "windows");
      if (!v2) {
        g.writeStringField("runtimeHandler", "");
      }
      g.writeStringField("runtimeType", "io.containerd.runhcs.v1");
      g.writeNullField("runtimeOptions");
      g.writeFieldName("config");
      config(g, sandbox, hostProcess);
      g.writeObjectFieldStart("runtimeSpec");
      g.writeStringField("ociVersion", "1.1.0");
      g.writeObjectFieldStart("annotations");
      for (Map.Entry<String, String> a : specAnnotations(line, sandbox, hostProcess).entrySet()) {
        g.writeStringField(a.getKey(), a.getValue());
      }
      g.writeEndObject();
      if (!hostProcess) {
        // The sandbox's HCN namespace id (sandbox_run_windows.go:54,117@v1.6.38, :55,112-114@v1.7.20;
        // podsandbox/sandbox_run_windows.go:55@v2.3.4); omitempty leaves it out on the host network.
        g.writeObjectFieldStart("windows");
        g.writeObjectFieldStart("network");
        g.writeStringField("networkNamespace", netns(sandbox.getId()));
        g.writeEndObject();
        g.writeEndObject();
      }
      g.writeEndObject();
      // No CNI on the host network; an isolated pod's CNI result is left out here (nothing reads it).
      g.writeNullField("cniResult");
      if (v2) {
        // The sandbox store's Metadata, a Go struct without JSON tags (internal/cri/store/sandbox/metadata.go).
        g.writeObjectFieldStart("sandboxMetadata");
        g.writeStringField("ID", sandbox.getId());
        g.writeStringField("Name", sandbox.getMetadata().getName());
        g.writeFieldName("Config");
        config(g, sandbox, hostProcess);
        g.writeStringField("NetNSPath", hostProcess ? "" : netns(sandbox.getId()));
        g.writeStringField("IP", hostProcess ? "" : podIp(sandbox));
        g.writeNullField("AdditionalIPs");
        g.writeStringField("RuntimeHandler", "");
        g.writeNullField("CNIResult");
        g.writeStringField("ProcessLabel", "");
        g.writeEndObject();
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** The kubelet's {@code PodSandboxConfig} for a Windows pod, as {@code encoding/json} writes it. */
  private static void config(JsonGenerator g, PodSandbox sandbox, boolean hostProcess) throws IOException {
    g.writeStartObject();
    g.writeObjectFieldStart("metadata");
    g.writeStringField("name", sandbox.getMetadata().getName());
    g.writeStringField("uid", sandbox.getMetadata().getUid());
    g.writeStringField("namespace", sandbox.getMetadata().getNamespace());
    if (sandbox.getMetadata().getAttempt() != 0) {
      g.writeNumberField("attempt", sandbox.getMetadata().getAttempt());
    }
    g.writeEndObject();
    g.writeStringField("log_directory", logDirectory(sandbox));
    g.writeObjectFieldStart("labels");
    for (Map.Entry<String, String> l : new TreeMap<>(sandbox.getLabelsMap()).entrySet()) {
      g.writeStringField(l.getKey(), l.getValue());
    }
    g.writeEndObject();
    // generatePodSandboxLinuxConfig: the host network is NamespaceMode NODE (2); POD (0) is omitted.
    g.writeObjectFieldStart("linux");
    g.writeObjectFieldStart("security_context");
    g.writeObjectFieldStart("namespace_options");
    if (hostProcess) {
      g.writeNumberField("network", 2);
    }
    g.writeEndObject();
    g.writeEndObject();
    g.writeEndObject();
    g.writeObjectFieldStart("windows");
    g.writeObjectFieldStart("security_context");
    if (hostProcess) {
      g.writeStringField("run_as_username", "NT AUTHORITY\\SYSTEM");
      g.writeBooleanField("host_process", true);
    }
    g.writeEndObject();
    g.writeEndObject();
    g.writeEndObject();
  }

  private static String sandboxImage(ContainerdLine line) {
    return switch (line) {
      case V1_6 -> "registry.k8s.io/pause:3.6";
      case V1_7 -> "registry.k8s.io/pause:3.8";
      case V2_0, V2_2 -> "registry.k8s.io/pause:3.10";
    };
  }

  /**
   * The HNS namespace id containerd created for sandbox {@code sandboxId}, its network namespace path on Windows
   * ({@code netns.NewNetNS}: the HCN namespace's id, pkg/netns/netns_windows.go:33-40@v1.7.20).
   */
  public static String netns(String sandboxId) {
    return String.format("%08x-0000-4000-8000-%012x", Math.floorMod(sandboxId.hashCode(), 1 << 30), 42L);
  }

  private static String logDirectory(PodSandbox sandbox) {
    return "C:\\var\\log\\pods\\" + sandbox.getMetadata().getNamespace() + "_" + sandbox.getMetadata().getName() + "_"
        + sandbox.getMetadata().getUid();
  }

  private static Map<String, String> specAnnotations(ContainerdLine line, PodSandbox sandbox, boolean hostProcess) {
    Map<String, String> a = new TreeMap<>();
    a.put("io.kubernetes.cri.container-type", "sandbox");
    a.put("io.kubernetes.cri.sandbox-id", sandbox.getId());
    a.put("io.kubernetes.cri.sandbox-namespace", sandbox.getMetadata().getNamespace());
    a.put("io.kubernetes.cri.sandbox-uid", sandbox.getMetadata().getUid());
    a.put("io.kubernetes.cri.sandbox-name", sandbox.getMetadata().getName());
    a.put("io.kubernetes.cri.sandbox-log-directory", logDirectory(sandbox));
    if (line == ContainerdLine.V2_0 || line == ContainerdLine.V2_2) {
      a.put("io.kubernetes.cri.podsandbox.image-name", sandboxImage(line));
    }
    a.put("microsoft.com/hostprocess-container", Boolean.toString(hostProcess));
    return a;
  }
}
