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
 *       its pause container (the sandbox id) and its running containers;
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

  public FakeHns(Supplier<Collection<WindowsPod>> pods) {
    this.pods = Objects.requireNonNull(pods, "pods");
  }

  /** How many calls this port answered. */
  public int calls() {
    return calls.get();
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
              .append("\",\"Name\":\"").append(e.id()).append("_cbr0\",\"State\":3,\"SharedContainers\":[\"")
              .append(p.id()).append('"');
          for (WindowsContainer c : p.containers()) {
            if (c.running()) {
              out.append(",\"").append(c.id()).append('"');
            }
          }
          out.append("]}");
          sep = ",";
        }
      }
      return out.append("]}").toString();
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
