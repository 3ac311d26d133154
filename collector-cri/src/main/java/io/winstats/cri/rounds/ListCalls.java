package io.winstats.cri.rounds;

import io.winstats.cri.api.Container;
import io.winstats.cri.api.ContainerFilter;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.ListContainerStatsRequest;
import io.winstats.cri.api.ListContainersRequest;
import io.winstats.cri.api.ListPodSandboxRequest;
import io.winstats.cri.api.ListPodSandboxStatsRequest;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxFilter;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.RuntimeServiceGrpc;
import io.winstats.cri.api.StreamContainerStatsRequest;
import io.winstats.cri.api.StreamContainerStatsResponse;
import io.winstats.cri.api.StreamContainersRequest;
import io.winstats.cri.api.StreamContainersResponse;
import io.winstats.cri.api.StreamPodSandboxStatsRequest;
import io.winstats.cri.api.StreamPodSandboxStatsResponse;
import io.winstats.cri.api.StreamPodSandboxesRequest;
import io.winstats.cri.api.StreamPodSandboxesResponse;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime's four list calls, each through its KEP-5825 stream ({@code StreamPodSandboxStats}, {@code
 * StreamContainerStats}, {@code StreamPodSandboxes}, {@code StreamContainers}) where the runtime has it, so that no
 * answer meets the 16 MiB message ceiling, and through the unary call where it does not. A stream the runtime answers
 * {@code UNIMPLEMENTED} (every containerd before 2.4: grpc-go's "unknown method") is asked once: the same round falls
 * back to the unary call, counted and logged once, and later rounds go straight to it until {@link #forgetMissing()}
 * (the reader calls it when a round starts on a new connection, as after a runtime restart or upgrade). Confined to
 * the round's thread, but for {@link #fallbacks()}.
 */
final class ListCalls {
  private static final Logger LOG = LoggerFactory.getLogger(ListCalls.class);

  /** A list call: the stream and the unary call it replaces. */
  enum Rpc {
    POD_SANDBOX_STATS("StreamPodSandboxStats", "ListPodSandboxStats"),
    CONTAINER_STATS("StreamContainerStats", "ListContainerStats"),
    POD_SANDBOXES("StreamPodSandboxes", "ListPodSandbox"),
    CONTAINERS("StreamContainers", "ListContainers");

    final String stream;
    final String unary;

    Rpc(String stream, String unary) {
      this.stream = stream;
      this.unary = unary;
    }
  }

  private final RuntimeCalls calls;
  private final Set<Rpc> missing = EnumSet.noneOf(Rpc.class);
  // Filled once here and never changed as a map, so a scrape thread may read it while a round counts.
  private final Map<Rpc, AtomicLong> fallbacks = new EnumMap<>(Rpc.class);

  ListCalls(RuntimeCalls calls) {
    this.calls = Objects.requireNonNull(calls, "calls");
    for (Rpc rpc : Rpc.values()) {
      fallbacks.put(rpc, new AtomicLong());
    }
  }

  /** Every ready pod's stats with its containers'. */
  List<PodSandboxStats> podSandboxStats() {
    return list(
        Rpc.POD_SANDBOX_STATS,
        s -> s.streamPodSandboxStats(StreamPodSandboxStatsRequest.getDefaultInstance()),
        StreamPodSandboxStatsResponse::getPodSandboxStatsList,
        s -> s.listPodSandboxStats(ListPodSandboxStatsRequest.getDefaultInstance()).getStatsList());
  }

  /** Every running container's stats. */
  List<ContainerStats> containerStats() {
    return list(
        Rpc.CONTAINER_STATS,
        s -> s.streamContainerStats(StreamContainerStatsRequest.getDefaultInstance()),
        StreamContainerStatsResponse::getContainerStatsList,
        s -> s.listContainerStats(ListContainerStatsRequest.getDefaultInstance()).getStatsList());
  }

  /** The pod sandboxes {@code filter} selects (the default instance: all). */
  List<PodSandbox> podSandboxes(PodSandboxFilter filter) {
    return list(
        Rpc.POD_SANDBOXES,
        s -> s.streamPodSandboxes(StreamPodSandboxesRequest.newBuilder().setFilter(filter).build()),
        StreamPodSandboxesResponse::getPodSandboxesList,
        s -> s.listPodSandbox(ListPodSandboxRequest.newBuilder().setFilter(filter).build()).getItemsList());
  }

  /** The containers {@code filter} selects (the default instance: all). */
  List<Container> containers(ContainerFilter filter) {
    return list(
        Rpc.CONTAINERS,
        s -> s.streamContainers(StreamContainersRequest.newBuilder().setFilter(filter).build()),
        StreamContainersResponse::getContainersList,
        s -> s.listContainers(ListContainersRequest.newBuilder().setFilter(filter).build()).getContainersList());
  }

  /** Asks every stream again on its next use: the runtime may have restarted as a version that has them. */
  void forgetMissing() {
    missing.clear();
  }

  /**
   * Whether the runtime answered {@code rpc}'s stream {@code UNIMPLEMENTED} since the last {@link #forgetMissing()}.
   */
  boolean streamMissing(Rpc rpc) {
    return missing.contains(rpc);
  }

  /** How often each stream was found missing and its unary call used instead, by the stream's name; thread-safe. */
  Map<String, Long> fallbacks() {
    Map<String, Long> counts = new LinkedHashMap<>();
    fallbacks.forEach((rpc, count) -> counts.put(rpc.stream, count.get()));
    return counts;
  }

  private <R, T> List<T> list(
      Rpc rpc,
      Function<RuntimeServiceGrpc.RuntimeServiceBlockingStub, Iterator<R>> stream,
      Function<R, List<T>> items,
      Function<RuntimeServiceGrpc.RuntimeServiceBlockingStub, List<T>> unary) {
    if (!missing.contains(rpc)) {
      try {
        return calls.stream(rpc.stream, stream, items);
      } catch (RuntimeCalls.RpcFailure f) {
        if (!f.isNotImplemented()) {
          throw f;
        }
        missing.add(rpc);
        Objects.requireNonNull(fallbacks.get(rpc)).incrementAndGet();
        // Every containerd before 2.4 lacks the streams, so this is the usual case, not news: counted in
        // winstats_exporter_cri_stream_fallbacks_total and shown by check, logged at debug. At INFO it added a line
        // to the first fault of the Windows task path, whose fallback is the first CRI list call on the connection.
        LOG.debug(
            "event=cri_stream_fallback endpoint={} rpc={} path={} code={}",
            calls.target(),
            rpc.stream,
            rpc.unary,
            f.code());
      }
    }
    return calls.call(rpc.unary, unary);
  }
}
