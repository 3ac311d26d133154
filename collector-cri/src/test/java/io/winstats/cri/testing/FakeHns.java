package io.winstats.cri.testing;

import io.winstats.cri.hns.HnsException;
import io.winstats.cri.hns.HnsPort;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * {@code HNSCall} answering as HNS does for the endpoints of a {@link WindowsRuntimeFake}'s pods, in the reply shapes
 * kept as goldens under {@code src/test/resources/golden/hns/} (their sources are in that directory's README):
 *
 * <ul>
 *   <li>{@code GET /endpoints/}: {@code {"Success":true,"Output":[{"ID":..,"SharedContainers":[..]},..]}} (the list
 *       windows_exporter unwraps, internal/headers/hcn/hcn.go:41-62@v0.31.8); an isolated pod's endpoint is shared by
 *       its pause container (the sandbox id) and its running containers; a Hyper-V pod's by its utility VM alone,
 *       {@code <sandbox-id>@vm}: the shim creates the VM under that id (hcsshim v0.11.7
 *       cmd/containerd-shim-runhcs-v1/pod.go:112, :176 at v0.15.0-rc.1) and hot-adds the namespace's endpoints to
 *       it ({@code SetupNetworkNamespace}, internal/uvm/network.go:42-70@v0.11.7), so no container of the pod shares
 *       the endpoint. What HNS lists there
 *       has not been recorded on a host; the VM's id is this fake's reading;
 *   <li>{@code GET /namespaces/<id>}: the namespace containerd created for a pod with its own network ({@link
 *       ContainerdSandboxStatus#netns}), its endpoints as {@code ResourceList} entries {@code {"Type":"Endpoint",
 *       "Data":{"Id":..}}} (hcsshim's {@code Namespace}, internal/hns/namespace.go:17-36,78-95@v0.15.0-rc.1); golden
 *       {@code namespace.json};
 *   <li>{@code GET /endpointstats/<id>}: the statistics wrapped in the same envelope (windows_exporter#2379);
 *   <li>an endpoint HNS does not hold: {@code {"Success":false,"Error":"Element not found.","ErrorCode":2147943568}}
 *       (hcsshim matches "Element not found.", internal/hns/namespace.go:56@v0.13.0; 2147943568 is
 *       HRESULT_FROM_WIN32(ERROR_NOT_FOUND) 0x80070490).
 * </ul>
 */
public final class FakeHns implements HnsPort {
  private final Supplier<Collection<WindowsPod>> pods;
  private final AtomicInteger calls = new AtomicInteger();
  private volatile @Nullable String errorReply;
  private volatile boolean unloadable;
  private volatile String emptyListReply = "{\"Success\":true,\"Error\":\"\",\"Output\":[]}";
  private final java.util.Map<String, AtomicInteger> callsByPath = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile boolean namespacesListNothing;

  public FakeHns(Supplier<Collection<WindowsPod>> pods) {
    this.pods = Objects.requireNonNull(pods, "pods");
  }

  /** How many calls this port answered. */
  public int calls() {
    return calls.get();
  }

  /** How many calls to paths starting with {@code prefix} ({@code /endpoints/}, {@code /namespaces/}, ...). */
  public int calls(String prefix) {
    return callsByPath.entrySet().stream()
        .filter(e -> e.getKey().startsWith(prefix))
        .mapToInt(e -> e.getValue().get())
        .sum();
  }

  /**
   * Answers {@code GET /namespaces/<id>} with no {@code ResourceList} from now on, as if HNS v1 did not list the
   * endpoints of a namespace created through HCN v2 (not seen upstream: hcsshim relies on it, internal/uvm/network.go
   * :73-99@v0.11.7), or answers them again.
   */
  public void namespacesListNothing(boolean value) {
    this.namespacesListNothing = value;
  }

  /** Answers every call with HNS's error envelope carrying {@code error}, or normally again ({@code null}). */
  public void answerError(@Nullable String error) {
    this.errorReply = error;
  }

  /**
   * Answers {@code GET /endpoints/} with {@code reply} while no pod has an endpoint (by default the envelope with an
   * empty {@code Output} array). HNS's own shape for an empty list is not known here: hcsshim's {@code hnsCall}
   * accepts a reply without {@code Output} (internal/hns/hnsfuncs.go:40-42@v0.15.0-rc.1); VmcomputeHnsWindowsTest
   * prints the one a Windows runner gives.
   */
  public void emptyEndpointListReply(String reply) {
    this.emptyListReply = Objects.requireNonNull(reply, "reply");
  }

  /** Fails every call as a host without {@code vmcompute.dll} does, or answers again. */
  public void unloadable(boolean value) {
    this.unloadable = value;
  }

  @Override
  public String call(String method, String path, String request) {
    calls.incrementAndGet();
    callsByPath.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
    if (unloadable) {
      throw new HnsException("vmcompute.dll cannot be loaded (is the Containers feature installed?)");
    }
    String error = errorReply;
    if (error != null) {
      return "{\"Success\":false,\"Error\":\"" + error + "\",\"ErrorCode\":2147943568}";
    }
    if (!method.equals("GET")) {
      throw new IllegalArgumentException("the daemon only reads: " + method);
    }
    if (path.equals("/endpoints/")) {
      if (pods.get().stream().allMatch(p -> endpoints(p).isEmpty())) {
        return emptyListReply;
      }
      StringBuilder out = new StringBuilder("{\"Success\":true,\"Error\":\"\",\"Output\":[");
      String sep = "";
      for (WindowsPod p : pods.get()) {
        for (HnsEndpoint e : endpoints(p)) {
          out.append(sep).append("{\"ID\":\"").append(e.id().toUpperCase(Locale.ROOT))
              .append("\",\"Name\":\"").append(e.id()).append("_cbr0\",\"State\":3,\"SharedContainers\":[\"");
          if (p.hyperV()) {
            out.append(p.id()).append("@vm\"");
          } else {
            out.append(p.id()).append('"');
            for (WindowsContainer c : p.containers()) {
              if (c.running()) {
                out.append(",\"").append(c.id()).append('"');
              }
            }
          }
          out.append("]}");
          sep = ",";
        }
      }
      return out.append("]}").toString();
    }
    if (path.startsWith("/namespaces/")) {
      String id = path.substring("/namespaces/".length());
      for (WindowsPod p : pods.get()) {
        if (!p.hostProcess() && ContainerdSandboxStatus.netns(p.id()).equalsIgnoreCase(id)) {
          StringBuilder out = new StringBuilder("{\"Success\":true,\"Error\":\"\",\"Output\":{\"ID\":\"")
              .append(id).append("\",\"IsDefault\":false");
          if (!namespacesListNothing) {
            out.append(",\"ResourceList\":[");
            String sep = "";
            for (HnsEndpoint e : endpoints(p)) {
              out.append(sep).append("{\"Type\":\"Endpoint\",\"Data\":{\"Id\":\"").append(e.id()).append("\"}}");
              sep = ",";
            }
            out.append(']');
          }
          return out.append(",\"CompartmentId\":").append(2 + Math.floorMod(p.id().hashCode(), 100)).append("}}")
              .toString();
        }
      }
      return "{\"Success\":false,\"Error\":\"Element not found.\",\"ErrorCode\":2147943568}";
    }
    if (path.startsWith("/endpointstats/")) {
      String id = path.substring("/endpointstats/".length());
      for (WindowsPod p : pods.get()) {
        for (HnsEndpoint e : endpoints(p)) {
          if (e.id().equalsIgnoreCase(id)) {
            return "{\"Success\":true,\"Error\":\"\",\"Output\":{\"BytesReceived\":" + e.rxBytes()
                + ",\"BytesSent\":" + e.txBytes() + ",\"DroppedPacketsIncoming\":" + e.rxPacketsDropped()
                + ",\"DroppedPacketsOutgoing\":" + e.txPacketsDropped() + ",\"EndpointId\":\""
                + e.id().toUpperCase(Locale.ROOT) + "\",\"InstanceId\":\"" + p.id() + "\",\"PacketsReceived\":"
                + e.rxPackets() + ",\"PacketsSent\":" + e.txPackets() + "}}";
          }
        }
      }
      return "{\"Success\":false,\"Error\":\"Element not found.\",\"ErrorCode\":2147943568}";
    }
    throw new IllegalArgumentException("not an HNS path the daemon asks: " + path);
  }

  private static java.util.List<HnsEndpoint> endpoints(WindowsPod p) {
    return p.endpoints() == null ? java.util.List.of() : p.endpoints();
  }
}
