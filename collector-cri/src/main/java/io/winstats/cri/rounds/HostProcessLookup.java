package io.winstats.cri.rounds;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Ticker;
import io.grpc.Status;
import io.winstats.cri.api.PodSandboxStatusRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a pod sandbox is a Windows HostProcess one, and its Windows network namespace ({@link
 * #netNamespaceFromSandboxInfo}, for {@link PodNetworks}), from the runtime's verbose {@code PodSandboxStatus}: asked
 * once per sandbox, when it is first listed ready, and cached with its identity ({@link RuntimeMetadata.Pod}).
 *
 * <p>containerd answers the verbose call with {@code info["info"]}, the JSON of its {@code SandboxInfo}, whose {@code
 * config} is the {@code PodSandboxConfig} the kubelet sent, marshalled with Go's {@code encoding/json}: the flag is
 * {@code config.windows.security_context.host_process}, written only when true ({@code json:"host_process,omitempty"}
 * in the cri-api Go types). containerd 1.6/1.7 build it in {@code toCRISandboxInfo} ({@code
 * pkg/cri/server/sandbox_status.go}), 2.x in the pod sandbox controller's {@code toCRISandboxInfo} ({@code
 * internal/cri/server/podsandbox/sandbox_status.go}), and 2.x's {@code toDeletedCRISandboxInfo} keeps the config for
 * a sandbox whose shim is gone. The same flag is what containerd writes as hcsshim's {@code
 * microsoft.com/hostprocess-container} annotation on the sandbox's and every container's runtime spec ({@code
 * sandbox_run_windows.go}, {@code container_create_windows.go} / {@code buildWindowsSpec}), which windows_exporter
 * reads; containerd refuses a container whose flag differs from its pod's, so the pod's flag is its containers'.
 *
 * <p>A sandbox whose answer has a config but no Windows flag (a Linux pod, an isolated Windows pod) is not a
 * HostProcess one; an answer without a config (another runtime, no verbose info) leaves the flag unknown. A failed
 * call never fails the round: the flag stays unknown (logged at DEBUG) and the sandbox is asked again after {@link
 * #RETRY_AFTER}; {@code NOT_FOUND} (the sandbox went away) is not asked again; {@code UNIMPLEMENTED} stops the asking
 * for good (logged once at INFO). Confined to the round's thread.
 */
final class HostProcessLookup {
  private static final Logger LOG = LoggerFactory.getLogger(HostProcessLookup.class);
  private static final JsonFactory JSON = new JsonFactory();

  /** How long a sandbox whose lookup failed waits before it is asked again. */
  static final Duration RETRY_AFTER = Duration.ofMinutes(1);

  private final RuntimeCalls calls;
  private final Ticker ticker;
  // When each sandbox's last lookup failed (ticker nanos); dropped on an answer, or with the sandbox.
  private final Cache<String, Long> failedAt;
  private boolean unimplemented;

  HostProcessLookup(RuntimeCalls calls, Ticker ticker, Duration cacheExpiry) {
    this.calls = Objects.requireNonNull(calls, "calls");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.failedAt = ExpiringCaches.expiring(cacheExpiry, RuntimeStatsReader.CACHE_MAXIMUM_SIZE, ticker);
  }

  /**
   * What the verbose answer says of a sandbox: whether it is a HostProcess one, and its network namespace (the HNS
   * namespace id containerd created for the pod: {@code netns.NewNetNS} creates an HCN namespace and keeps its id as
   * the path, pkg/netns/netns_windows.go:33-40@v1.7.20), each {@code null} where the runtime does not say.
   */
  record Facts(@Nullable Boolean hostProcess, @Nullable String netNamespace) {
    static final Facts UNKNOWN = new Facts(null, null);
  }

  /**
   * Asks the runtime about {@code sandboxId}.
   *
   * @return what it says; {@link Facts#UNKNOWN} when it says nothing or the call failed
   */
  Facts ask(String sandboxId) {
    if (unimplemented) {
      return Facts.UNKNOWN;
    }
    Map<String, String> info;
    try {
      info =
          calls
              .call(
                  "PodSandboxStatus",
                  s ->
                      s.podSandboxStatus(
                          PodSandboxStatusRequest.newBuilder().setPodSandboxId(sandboxId).setVerbose(true).build()))
              .getInfoMap();
    } catch (RuntimeCalls.RpcFailure f) {
      if (f.isNotImplemented()) {
        unimplemented = true;
        LOG.info(
            "event=cri_sandbox_status_unimplemented endpoint={} cause={}",
            calls.target(),
            "PodSandboxStatus is not implemented; windows_container_available will have no hostprocess label");
      } else if (f.code() == Status.Code.NOT_FOUND) {
        failedAt.invalidate(sandboxId);
      } else {
        // Not RpcFailure.isGone(): containerd answers Unknown for whatever else went wrong here (a task status it
        // cannot read), and only NotFound for a sandbox it no longer holds.
        failedAt.put(sandboxId, ticker.read());
        LOG.debug("event=cri_sandbox_status_failed endpoint={} sandbox={} cause={}", calls.target(), sandboxId,
            f.summary());
      }
      return Facts.UNKNOWN;
    }
    failedAt.invalidate(sandboxId);
    String json = info.get("info");
    if (json == null) {
      return Facts.UNKNOWN;
    }
    try {
      return new Facts(fromSandboxInfo(json), netNamespaceFromSandboxInfo(json));
    } catch (IOException e) {
      LOG.debug("event=cri_sandbox_status_malformed endpoint={} sandbox={} cause={}", calls.target(), sandboxId,
          e.getMessage());
      return Facts.UNKNOWN;
    }
  }

  /**
   * The sandbox's network namespace in containerd's {@code SandboxInfo} JSON: {@code
   * runtimeSpec.windows.network.networkNamespace}, which containerd sets to the sandbox's {@code NetNSPath} on
   * Windows (sandbox_run_windows.go:55,112-114@v1.7.20; podsandbox/sandbox_run_windows.go:55@v2.3.4; the OCI spec's
   * {@code json:"networkNamespace,omitempty"}), else 2.x's {@code sandboxMetadata.NetNSPath} (an untagged Go field,
   * internal/cri/store/sandbox/metadata.go:53-54@v2.3.4); {@code null} when neither is there or both are empty (a
   * HostProcess pod shares the host's network: no namespace).
   *
   * @throws IOException when the text is not JSON
   */
  static @Nullable String netNamespaceFromSandboxInfo(String json) throws IOException {
    String fromSpec = stringAt(json, "runtimeSpec", "windows", "network", "networkNamespace");
    if (fromSpec != null && !fromSpec.isEmpty()) {
      return fromSpec;
    }
    String fromMetadata = stringAt(json, "sandboxMetadata", "NetNSPath");
    return fromMetadata == null || fromMetadata.isEmpty() ? null : fromMetadata;
  }

  /** The string at the object path {@code names} of the JSON object {@code json}; {@code null} if absent. */
  private static @Nullable String stringAt(String json, String... names) throws IOException {
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      for (int i = 0; i < names.length - 1; i++) {
        if (!field(p, names[i]) || p.currentToken() != JsonToken.START_OBJECT) {
          return null;
        }
      }
      return field(p, names[names.length - 1]) && p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : null;
    }
  }

  /**
   * Whether to ask again about a sandbox already asked: only when its last lookup failed, {@link #RETRY_AFTER} ago or
   * more. A sandbox the runtime answered is never asked again, whatever the answer said.
   */
  boolean mayAskAgain(String sandboxId) {
    Long failed = failedAt.getIfPresent(sandboxId);
    return failed != null && !unimplemented && ticker.read() - failed >= RETRY_AFTER.toNanos();
  }

  /**
   * The flag in containerd's {@code SandboxInfo} JSON: {@code config.windows.security_context.host_process}, false
   * when the config has none of it, {@code null} without a config.
   *
   * @throws IOException when the text is not JSON
   */
  static @Nullable Boolean fromSandboxInfo(String json) throws IOException {
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT
          || !field(p, "config")
          || p.currentToken() != JsonToken.START_OBJECT) {
        return null;
      }
      return field(p, "windows")
          && p.currentToken() == JsonToken.START_OBJECT
          && field(p, "security_context")
          && p.currentToken() == JsonToken.START_OBJECT
          && field(p, "host_process")
          && p.currentToken() == JsonToken.VALUE_TRUE;
    }
  }

  /**
   * Moves the parser, at the start of an object, to the value of that object's field {@code name}; false when the
   * object has no such field (the parser is then at its end).
   */
  private static boolean field(JsonParser p, String name) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      if (name.equals(field)) {
        return true;
      }
      p.skipChildren();
    }
    return false;
  }
}
