package io.winstats.cri;

import com.github.benmanes.caffeine.cache.Ticker;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.winstats.cri.api.Container;
import io.winstats.cri.api.ContainerFilter;
import io.winstats.cri.api.ContainerState;
import io.winstats.cri.api.ContainerStateValue;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.ContainerStatsRequest;
import io.winstats.cri.api.ContainerStatus;
import io.winstats.cri.api.ContainerStatusRequest;
import io.winstats.cri.api.FilesystemUsage;
import io.winstats.cri.api.ImageFsInfoRequest;
import io.winstats.cri.api.ImageFsInfoResponse;
import io.winstats.cri.api.ImageServiceGrpc;
import io.winstats.cri.api.LinuxPodSandboxStats;
import io.winstats.cri.api.ListContainerStatsRequest;
import io.winstats.cri.api.ListContainersRequest;
import io.winstats.cri.api.ListPodSandboxRequest;
import io.winstats.cri.api.ListPodSandboxStatsRequest;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxFilter;
import io.winstats.cri.api.PodSandboxState;
import io.winstats.cri.api.PodSandboxStateValue;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.PodSandboxStatsRequest;
import io.winstats.cri.api.RuntimeServiceGrpc;
import io.winstats.cri.api.VersionRequest;
import io.winstats.cri.api.VersionResponse;
import io.winstats.cri.api.WindowsContainerStats;
import io.winstats.cri.api.WindowsPodSandboxStats;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads pod and container stats from a container runtime over CRI runtime.v1 gRPC, one {@link RuntimeSample} per
 * {@link #sample()} call.
 *
 * <p><b>Reading.</b> {@code ListPodSandboxStats} by default (pods with their containers, pod network and process
 * count). If the runtime answers {@code UNIMPLEMENTED} (containerd before 1.7 on Windows), or the operator chose {@link
 * StatsCall#LIST_CONTAINER_STATS} because the other call costs the runtime too much, the reader uses {@code
 * ListPodSandbox} + {@code ListContainers} + {@code ListContainerStats} and sums container CPU and memory into the
 * pod, as the kubelet's {@code addPodCPUMemoryStats} does; pods then have no network or process count. Identity
 * (creation times, labels, the image) comes from {@code ListPodSandbox}/{@code ListContainers}, cached by id and
 * refreshed when an unknown id appears. Of containers sharing a name in a pod (a restarted container and its exited
 * predecessor) only the newest is reported, as the kubelet does.
 *
 * <p><b>Filesystems.</b> Each round also asks {@code ImageService.ImageFsInfo} for the image and container
 * filesystems. {@code ContainerStatus}, asked once per new container, gives its log path and the Linux resources the
 * runtime applied. The capacity of the filesystem under each runtime mountpoint ({@link java.nio.file.FileStore}) and the size of
 * each container's log directory are read from this host's files when the paths are visible here, and left out when
 * they are not (the daemon in another mount namespace, a Windows path seen from Linux): never guessed.
 *
 * <p><b>CPU rate.</b> {@link CpuUsage#usageNanoCores()} is our own delta between consecutive readings of the same
 * container or pod instance, never the runtime's shared {@code usage_nano_cores} (containerd#9531): {@code null} on
 * the first reading of an instance, after a counter reset and over an empty interval. The rate therefore needs one
 * steady caller: sample from a single loop.
 *
 * <p><b>Failure.</b> {@link #sample()} throws only {@link CriException}; gRPC's status never leaves this module.
 * Every call has the {@code callTimeout} deadline. A pod or container that vanishes mid-round ({@code NOT_FOUND}) is
 * left out and listed in {@link RuntimeSample#skipped()}; it never fails the others. The gRPC channel connects lazily,
 * so {@link #open} succeeds while the runtime is down, and it reconnects at once (no backoff wait) after {@code
 * UNAVAILABLE}. Only health changes are logged: {@code event=cri_failing} and {@code event=cri_recovered} with the
 * outage length.
 *
 * <p><b>Threads.</b> {@link #sample()} and {@link #close()} are synchronized; the reader owns one channel and one
 * daemon event-loop thread, both released by {@link #close()}.
 */
public final class CriStatsReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CriStatsReader.class);

  /** How long an unread pod or container stays in the identity and CPU caches. */
  static final Duration CACHE_EXPIRY = Duration.ofMinutes(2);

  /** Upper bound on cached pods, containers and CPU readings. */
  static final long CACHE_MAXIMUM_SIZE = 20_000;

  private static final Pattern BARE_IMAGE_ID = Pattern.compile("[0-9a-f]{64}");

  /** How long a round after an outage waits for the connection it starts (capped by the call timeout). */
  private static final Duration RECONNECT_WAIT = Duration.ofMillis(250);

  private final String target;
  private final ManagedChannel channel;
  private final AutoCloseable resources;
  private final RuntimeServiceGrpc.RuntimeServiceBlockingStub runtime;
  private final ImageServiceGrpc.ImageServiceBlockingStub images;
  private final HostFiles hostFiles;
  private final Duration callTimeout;
  private final Clock clock;
  private final CpuRateCache cpuRates;
  private final StatsMapper mapper;
  private final RuntimeMetadata metadata;

  private @Nullable String runtimeName;
  // Reading through ListContainerStats: chosen, or fallen back to when ListPodSandboxStats is unimplemented.
  private boolean viaContainerStats;
  private boolean imageFsUnimplemented;
  private boolean everHealthy;
  private CriException.@Nullable Reason failing;
  private @Nullable Instant failingSince;
  private boolean closed;

  private CriStatsReader(
      String target,
      ManagedChannel channel,
      AutoCloseable resources,
      Duration callTimeout,
      Clock clock,
      Ticker ticker,
      Duration cacheExpiry,
      HostFiles hostFiles) {
    this.target = Objects.requireNonNull(target, "target");
    this.channel = Objects.requireNonNull(channel, "channel");
    this.resources = Objects.requireNonNull(resources, "resources");
    this.callTimeout = Objects.requireNonNull(callTimeout, "callTimeout");
    if (callTimeout.isNegative() || callTimeout.isZero()) {
      throw new IllegalArgumentException("callTimeout must be positive: " + callTimeout);
    }
    this.clock = Objects.requireNonNull(clock, "clock");
    this.runtime = RuntimeServiceGrpc.newBlockingStub(channel);
    this.images = ImageServiceGrpc.newBlockingStub(channel);
    this.hostFiles = Objects.requireNonNull(hostFiles, "hostFiles");
    this.cpuRates = new CpuRateCache(cacheExpiry, CACHE_MAXIMUM_SIZE, ticker);
    this.mapper = new StatsMapper(cpuRates);
    this.metadata = new RuntimeMetadata(cacheExpiry, CACHE_MAXIMUM_SIZE, ticker);
  }

  /**
   * Opens a reader on {@code endpoint}. Does not connect, so it neither blocks nor fails while the runtime is down.
   *
   * @param callTimeout the deadline of every gRPC call (a round makes two to four calls, more on churn)
   * @param clock stamps {@link RuntimeSample#timestamp()} and times outages; the stats carry the runtime's own times
   * @throws CriException with {@link CriException.Reason#UNAVAILABLE} if this platform has no transport for the
   *     endpoint (a named pipe off Windows, or a Unix socket without Netty's epoll)
   */
  public static CriStatsReader open(CriEndpoint endpoint, Duration callTimeout, Clock clock) {
    return open(endpoint, callTimeout, clock, StatsCall.LIST_POD_SANDBOX_STATS, InodeCounter.NONE);
  }

  /** As {@link #open(CriEndpoint, Duration, Clock)}, reading every round with {@code call}. */
  public static CriStatsReader open(CriEndpoint endpoint, Duration callTimeout, Clock clock, StatsCall call) {
    return open(endpoint, callTimeout, clock, call, InodeCounter.NONE);
  }

  /**
   * As {@link #open(CriEndpoint, Duration, Clock, StatsCall)}, with the inode counts of the runtime's filesystems
   * (image filesystem, writable layers) from {@code inodes}.
   */
  public static CriStatsReader open(
      CriEndpoint endpoint, Duration callTimeout, Clock clock, StatsCall call, InodeCounter inodes) {
    CriStatsReader reader =
        over(endpoint.uri(), CriTransport.open(endpoint), callTimeout, clock, HostFiles.local(inodes));
    if (call == StatsCall.LIST_CONTAINER_STATS) {
      reader.useContainerStats();
    }
    return reader;
  }

  /** A reader whose connections a {@link io.winstats.cri.npipe.PipeBridge} relays (a Unix socket in tests). */
  static CriStatsReader openBridged(
      String target, io.winstats.cri.npipe.PipeConnector connector, Duration callTimeout, Clock clock) {
    return over(
        target, CriTransport.bridged(target, connector), callTimeout, clock, HostFiles.local(InodeCounter.NONE));
  }

  private static CriStatsReader over(
      String target, CriTransport.Channel transport, Duration callTimeout, Clock clock, HostFiles files) {
    try {
      return new CriStatsReader(
          target,
          transport.channel(),
          transport,
          callTimeout,
          clock,
          Ticker.systemTicker(),
          CACHE_EXPIRY,
          files);
    } catch (RuntimeException e) {
      transport.close();
      throw e;
    }
  }

  /** A reader over a channel the caller built (in-process servers in tests); {@link #close()} shuts it down. */
  static CriStatsReader forChannel(
      String target, ManagedChannel channel, Duration callTimeout, Clock clock, Ticker ticker) {
    return forChannel(target, channel, callTimeout, clock, ticker, HostFiles.local(InodeCounter.NONE));
  }

  /** As {@link #forChannel(String, ManagedChannel, Duration, Clock, Ticker)}, looking at host files through a fake. */
  static CriStatsReader forChannel(
      String target, ManagedChannel channel, Duration callTimeout, Clock clock, Ticker ticker, HostFiles files) {
    AutoCloseable shutdown =
        () -> {
          channel.shutdownNow();
          channel.awaitTermination(5, TimeUnit.SECONDS);
        };
    return new CriStatsReader(target, channel, shutdown, callTimeout, clock, ticker, CACHE_EXPIRY, files);
  }

  /** The collector name the exporter labels this source with: {@code cri}. */
  public String name() {
    return "cri";
  }

  /**
   * Reads every pod and container once.
   *
   * @return the pods (possibly none) with the runtime's name and version, and what was skipped
   * @throws CriException when the round as a whole failed: the runtime is down ({@code UNAVAILABLE}), did not answer
   *     in time ({@code DEADLINE_EXCEEDED}), sent more than 16 MiB ({@code MESSAGE_TOO_LARGE}), sent bytes that do not
   *     decode ({@code MALFORMED}) or answered with an error of its own ({@code RUNTIME_ERROR}); also after {@link
   *     #close()}
   */
  public synchronized RuntimeSample sample() {
    if (closed) {
      throw new CriException(CriException.Reason.UNAVAILABLE, "endpoint=" + target + ": the reader is closed");
    }
    long started = System.nanoTime();
    if (failing == CriException.Reason.UNAVAILABLE) {
      reconnect();
    }
    try {
      Round round = new Round(new StatsMapper.HostView(hostFiles, clock.instant()));
      String name = runtimeName();
      List<PodSample> pods = viaContainerStats ? readViaContainerStats(round) : readViaPodSandboxStats(round);
      RuntimeFilesystems filesystems = imageFilesystems(round);
      RuntimeSample sample = new RuntimeSample(clock.instant(), name, pods, filesystems, round.skipped);
      healthy(name);
      if (LOG.isDebugEnabled()) {
        LOG.debug(
            "event=cri_round endpoint={} path={} pods={} skipped={} durationMs={}",
            target,
            viaContainerStats ? "ListContainerStats" : "ListPodSandboxStats",
            pods.size(),
            round.skipped.size(),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      }
      return sample;
    } catch (RpcFailure f) {
      throw failed(fault(target, f.method, f.cause));
    } catch (CriException e) {
      throw failed(e);
    } catch (RuntimeException e) {
      throw failed(
          new CriException(
              CriException.Reason.MALFORMED,
              "endpoint=" + target + ": could not map the runtime's answer: " + e,
              e));
    }
  }

  /**
   * Starts a connection attempt now and waits for it, up to {@link #RECONNECT_WAIT}. Without the reset the channel waits
   * out its reconnect backoff (3.5-5 s measured) after the runtime is back. Without the wait the round's first call
   * still fails at once with the outage's error: after a transient failure the channel keeps reporting
   * TRANSIENT_FAILURE, and fails calls fast, until a new connection is READY (pick_first's sticky transient failure),
   * so the first round after the runtime returned failed and recovery took one more retry (RuntimeFaultsIT).
   */
  private void reconnect() {
    channel.resetConnectBackoff();
    long end = System.nanoTime() + Math.min(RECONNECT_WAIT.toNanos(), callTimeout.toNanos());
    ConnectivityState state = channel.getState(true);
    while (state != ConnectivityState.READY && state != ConnectivityState.SHUTDOWN && System.nanoTime() - end < 0) {
      try {
        TimeUnit.MILLISECONDS.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      state = channel.getState(false);
    }
  }

  /** Shuts the channel and its event loop down; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      resources.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.debug("event=cri_close_failed endpoint={}", target, e);
    }
  }

  /** Reads with {@code ListContainerStats} from the next round on, as if the runtime lacked the other call. */
  synchronized void useContainerStats() {
    viaContainerStats = true;
  }

  /** Whether the reader reads with {@code ListContainerStats}. */
  synchronized boolean usesContainerStats() {
    return viaContainerStats;
  }

  /**
   * Entries in the reader's caches, by name: {@code pod_identities} and {@code container_identities} (from the
   * listings) and {@code cpu_readings} (the previous reading of each instance, for its rate). Each holds an entry only
   * until it goes unread for {@link #CACHE_EXPIRY}, so after churn they return to what the node runs.
   */
  public Map<String, Long> cacheEntries() {
    return Map.of(
        "pod_identities", metadata.podCount(),
        "container_identities", metadata.containerCount(),
        "cpu_readings", cpuRates.size());
  }

  RuntimeMetadata metadataForTest() {
    return metadata;
  }

  // ---- gRPC plumbing -------------------------------------------------------------------------------------------

  /** A failed call, carried up to {@link #sample()} where it becomes a {@link CriException}. */
  private static final class RpcFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String method;
    final transient StatusRuntimeException cause;

    RpcFailure(String method, StatusRuntimeException cause) {
      super(method + ": " + cause.getStatus(), cause, false, false);
      this.method = method;
      this.cause = cause;
    }

    Status.Code code() {
      return cause.getStatus().getCode();
    }

    /** The pod or container is gone (or going): containerd answers NotFound, or Unknown wrapping "not found". */
    boolean isGone() {
      return code() == Status.Code.NOT_FOUND || code() == Status.Code.UNKNOWN;
    }

    String summary() {
      String description = cause.getStatus().getDescription();
      return code() + (description == null ? "" : ": " + description);
    }
  }

  private <T> T rpc(String method, Function<RuntimeServiceGrpc.RuntimeServiceBlockingStub, T> call) {
    try {
      return call.apply(runtime.withDeadlineAfter(callTimeout.toNanos(), TimeUnit.NANOSECONDS));
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
        channel.resetConnectBackoff();
      }
      throw new RpcFailure(method, e);
    }
  }

  /** Maps a gRPC status to our failure reasons. */
  static CriException fault(String target, String method, StatusRuntimeException e) {
    Status status = e.getStatus();
    String description = status.getDescription() == null ? "" : status.getDescription();
    String message = "endpoint=" + target + " rpc=" + method + " code=" + status.getCode() + ": " + description;
    CriException.Reason reason;
    if (isParseError(e)) {
      // grpc-java reports an answer it cannot decode as CANCELLED "Failed to read message." caused by the parse error.
      return new CriException(CriException.Reason.MALFORMED, message, e);
    }
    switch (status.getCode()) {
      case UNAVAILABLE:
        reason = CriException.Reason.UNAVAILABLE;
        break;
      case DEADLINE_EXCEEDED:
        reason = CriException.Reason.DEADLINE_EXCEEDED;
        break;
      case RESOURCE_EXHAUSTED:
        reason = isMessageSize(description) ? CriException.Reason.MESSAGE_TOO_LARGE : CriException.Reason.RUNTIME_ERROR;
        break;
      default:
        reason = CriException.Reason.RUNTIME_ERROR;
    }
    return new CriException(reason, message, e);
  }

  /** grpc-java: "gRPC message exceeds maximum size 16777216: 17825792". */
  private static boolean isMessageSize(String description) {
    String d = description.toLowerCase(Locale.ROOT);
    return d.contains("exceeds maximum size") || d.contains("message too large") || d.contains("larger than max");
  }

  /**
   * An answer that does not decode: grpc-java's protobuf marshaller throws INTERNAL "Invalid protobuf byte sequence"
   * caused by the parse exception, which the client call reports as CANCELLED with that cause.
   */
  private static boolean isParseError(StatusRuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InvalidProtocolBufferException) {
        return true;
      }
    }
    String description = e.getStatus().getDescription();
    return description != null && description.toLowerCase(Locale.ROOT).contains("invalid protobuf");
  }

  // ---- Health logging ------------------------------------------------------------------------------------------
  // The exporter's sampling loop logs failure and recovery once per state change for every collector; here the
  // detail (and the stack) goes to DEBUG so that an operator sees one line, not two.

  private void healthy(String name) {
    if (failing != null) {
      Duration outage = failingSince == null ? Duration.ZERO : Duration.between(failingSince, clock.instant());
      LOG.debug("event=cri_recovered endpoint={} runtime={} outage={}", target, name, outage);
    } else if (!everHealthy) {
      LOG.info("event=cri_connected endpoint={} runtime={}", target, name);
    }
    everHealthy = true;
    failing = null;
    failingSince = null;
  }

  private CriException failed(CriException e) {
    if (failing == null) {
      failingSince = clock.instant();
      LOG.debug("event=cri_failing endpoint={} reason={} cause={}", target, e.reason().label(), e.getMessage(), e);
    } else if (failing != e.reason()) {
      LOG.debug("event=cri_failing endpoint={} reason={} cause={}", target, e.reason().label(), e.getMessage());
    } else {
      LOG.debug("event=cri_still_failing endpoint={} reason={} cause={}", target, e.reason().label(), e.getMessage());
    }
    failing = e.reason();
    return e;
  }

  // ---- A round -------------------------------------------------------------------------------------------------

  /** What one round left out, and its view of the host's files. */
  private static final class Round {
    final List<String> skipped = new ArrayList<>();
    final StatsMapper.HostView host;

    Round(StatsMapper.HostView host) {
      this.host = host;
    }

    void skip(String id, String why) {
      skipped.add(id + ": " + why);
    }
  }

  private String runtimeName() {
    String name = runtimeName;
    if (name == null) {
      VersionResponse v = rpc("Version", s -> s.version(VersionRequest.newBuilder().setVersion("v1").build()));
      name = (v.getRuntimeName() + " " + v.getRuntimeVersion()).strip();
      runtimeName = name;
    }
    return name;
  }

  private List<PodSample> readViaPodSandboxStats(Round round) {
    List<PodSandboxStats> stats;
    try {
      stats =
          rpc("ListPodSandboxStats", s -> s.listPodSandboxStats(ListPodSandboxStatsRequest.getDefaultInstance()))
              .getStatsList();
    } catch (RpcFailure f) {
      if (f.code() == Status.Code.UNIMPLEMENTED) {
        viaContainerStats = true;
        LOG.info(
            "event=cri_fallback endpoint={} path=ListContainerStats cause={}",
            target,
            "ListPodSandboxStats is unimplemented; pod network and process counts will be missing");
        return readViaContainerStats(round);
      }
      if (!f.isGone()) {
        throw f;
      }
      // One pod being torn down (or one without a cgroup parent) fails the whole list in containerd 1.6.
      LOG.debug("event=cri_pod_list_failed endpoint={} cause={}", target, f.summary());
      stats = podStatsOneByOne(round);
    }

    Set<String> podIds = new HashSet<>();
    Set<String> containerIds = new HashSet<>();
    for (PodSandboxStats s : stats) {
      podIds.add(s.getAttributes().getId());
      s.getLinux().getContainersList().forEach(c -> containerIds.add(c.getAttributes().getId()));
      s.getWindows().getContainersList().forEach(c -> containerIds.add(c.getAttributes().getId()));
    }
    if (!metadata.knowsAll(podIds, containerIds)) {
      refreshMetadata();
    }

    Instant now = clock.instant();
    List<PodSample> pods = new ArrayList<>(stats.size());
    for (PodSandboxStats s : stats) {
      String id = s.getAttributes().getId();
      try {
        PodSample pod = pod(s, now, round);
        if (pod != null) {
          pods.add(pod);
        }
      } catch (IllegalArgumentException | ArithmeticException e) {
        round.skip(id, "malformed stats: " + e.getMessage());
      }
    }
    return pods;
  }

  private List<PodSandboxStats> podStatsOneByOne(Round round) {
    List<PodSandboxStats> stats = new ArrayList<>();
    for (PodSandbox sandbox : listPods(true)) {
      try {
        stats.add(
            rpc(
                    "PodSandboxStats",
                    s ->
                        s.podSandboxStats(
                            PodSandboxStatsRequest.newBuilder().setPodSandboxId(sandbox.getId()).build()))
                .getStats());
      } catch (RpcFailure f) {
        if (!f.isGone()) {
          throw f;
        }
        round.skip(sandbox.getId(), f.summary());
      }
    }
    return stats;
  }

  private @Nullable PodSample pod(PodSandboxStats s, Instant now, Round round) {
    String id = s.getAttributes().getId();
    RuntimeMetadata.Pod meta = metadata.pod(id);
    if (meta == null) {
      round.skip(id, "not listed by ListPodSandbox (removed)");
      return null;
    }
    CpuRateCache.Key key = new CpuRateCache.Key(id, meta.attempt());
    List<ContainerSample> containers = new ArrayList<>();
    CpuUsage cpu = null;
    MemoryUsage memory = null;
    NetworkUsage network = null;
    Long processCount = null;
    if (s.hasLinux()) {
      LinuxPodSandboxStats l = s.getLinux();
      for (ContainerStats c : l.getContainersList()) {
        RuntimeMetadata.Container cm = containerMeta(c.getAttributes().getId(), round);
        if (cm != null) {
          addContainer(containers, round, cm.id(), () -> mapper.container(c, cm, now, round.host));
        }
      }
      cpu = l.hasCpu() ? mapper.cpu(l.getCpu(), key, now) : null;
      Instant podTime = cpu != null ? cpu.timestamp() : now;
      memory = l.hasMemory() ? StatsMapper.memory(l.getMemory(), podTime) : null;
      network = l.hasNetwork() ? StatsMapper.network(l.getNetwork(), podTime) : null;
      processCount =
          l.hasProcess() ? StatsMapper.u64(l.getProcess().hasProcessCount(), l.getProcess().getProcessCount()) : null;
    } else if (s.hasWindows()) {
      WindowsPodSandboxStats w = s.getWindows();
      for (WindowsContainerStats c : w.getContainersList()) {
        RuntimeMetadata.Container cm = containerMeta(c.getAttributes().getId(), round);
        if (cm != null) {
          addContainer(containers, round, cm.id(), () -> mapper.container(c, cm, now, round.host));
        }
      }
      cpu = w.hasCpu() ? mapper.cpu(w.getCpu(), key, now) : null;
      Instant podTime = cpu != null ? cpu.timestamp() : now;
      memory = w.hasMemory() ? StatsMapper.memory(w.getMemory(), podTime) : null;
      network = w.hasNetwork() ? StatsMapper.network(w.getNetwork(), podTime) : null;
      processCount =
          w.hasProcess() ? StatsMapper.u64(w.getProcess().hasProcessCount(), w.getProcess().getProcessCount()) : null;
    }
    return new PodSample(
        meta.ref(), id, meta.createdAt(), meta.labels(), cpu, memory, network, processCount, latestPerName(containers));
  }

  /**
   * Keeps, of the containers sharing a name in one pod, only the most recently created. A restart creates a new
   * container (the next attempt) and leaves the exited one listed, with no stats, until the kubelet garbage-collects
   * it; the kubelet hides it likewise ({@code removeTerminatedContainers} in {@code cri_stats_provider.go}), so a pod
   * shows one series per container name. A lone exited container stays.
   */
  static List<ContainerSample> latestPerName(List<ContainerSample> containers) {
    Map<String, ContainerSample> latest = new HashMap<>();
    for (ContainerSample c : containers) {
      latest.merge(
          c.name(),
          c,
          (a, b) -> {
            int byCreation = a.createdAt().compareTo(b.createdAt());
            return byCreation != 0 ? (byCreation > 0 ? a : b) : (a.attempt() >= b.attempt() ? a : b);
          });
    }
    return latest.size() == containers.size() ? containers : List.copyOf(latest.values());
  }

  private RuntimeMetadata.@Nullable Container containerMeta(String id, Round round) {
    RuntimeMetadata.@Nullable Container cm = metadata.container(id);
    if (cm == null) {
      round.skip(id, "not listed by ListContainers (removed)");
    }
    return cm;
  }

  private static void addContainer(
      List<ContainerSample> into, Round round, String id, java.util.function.Supplier<ContainerSample> mapping) {
    try {
      into.add(mapping.get());
    } catch (IllegalArgumentException | ArithmeticException e) {
      round.skip(id, "malformed stats: " + e.getMessage());
    }
  }

  // ---- The ListContainerStats fallback -------------------------------------------------------------------------

  private List<PodSample> readViaContainerStats(Round round) {
    List<PodSandbox> sandboxes = listPods(true);
    List<Container> running =
        rpc(
                "ListContainers",
                s ->
                    s.listContainers(
                        ListContainersRequest.newBuilder()
                            .setFilter(
                                ContainerFilter.newBuilder()
                                    .setState(
                                        ContainerStateValue.newBuilder().setState(ContainerState.CONTAINER_RUNNING)))
                            .build()))
            .getContainersList();
    metadata.replaceAll(podMetadata(sandboxes), containerMetadata(running));

    Map<String, ContainerStats> statsById = new HashMap<>();
    try {
      rpc("ListContainerStats", s -> s.listContainerStats(ListContainerStatsRequest.getDefaultInstance()))
          .getStatsList()
          .forEach(c -> statsById.put(c.getAttributes().getId(), c));
    } catch (RpcFailure f) {
      if (!f.isGone()) {
        throw f;
      }
      // A container removed mid-call fails the whole list: ask for each container on its own instead.
      LOG.debug("event=cri_container_list_failed endpoint={} cause={}", target, f.summary());
    }

    Instant now = clock.instant();
    Map<String, List<ContainerSample>> byPod = new HashMap<>();
    for (Container c : running) {
      RuntimeMetadata.Pod pod = metadata.pod(c.getPodSandboxId());
      RuntimeMetadata.Container cm = metadata.container(c.getId());
      if (pod == null || cm == null) {
        continue;
      }
      ContainerStats stats = statsById.get(c.getId());
      if (stats == null) {
        try {
          stats =
              rpc(
                      "ContainerStats",
                      s -> s.containerStats(ContainerStatsRequest.newBuilder().setContainerId(c.getId()).build()))
                  .getStats();
        } catch (RpcFailure f) {
          if (!f.isGone()) {
            throw f;
          }
          round.skip(c.getId(), f.summary());
          continue;
        }
      }
      ContainerStats found = stats;
      addContainer(
          byPod.computeIfAbsent(pod.id(), k -> new ArrayList<>()), round, c.getId(),
          () -> mapper.container(found, cm, now, round.host));
    }

    List<PodSample> pods = new ArrayList<>(sandboxes.size());
    for (PodSandbox sandbox : sandboxes) {
      RuntimeMetadata.Pod meta = metadata.pod(sandbox.getId());
      if (meta == null) {
        continue;
      }
      List<ContainerSample> containers = byPod.getOrDefault(sandbox.getId(), List.of());
      try {
        pods.add(
            new PodSample(
                meta.ref(),
                meta.id(),
                meta.createdAt(),
                meta.labels(),
                StatsMapper.sumCpu(containers),
                StatsMapper.sumMemory(containers),
                null,
                null,
                containers));
      } catch (IllegalArgumentException | ArithmeticException e) {
        round.skip(sandbox.getId(), "malformed stats: " + e.getMessage());
      }
    }
    return pods;
  }

  // ---- Image filesystems ---------------------------------------------------------------------------------------

  /**
   * {@code ImageService.ImageFsInfo}, once per round (containerd answers from its snapshotter's cached usage). A
   * failure leaves the filesystems out of this round (logged at DEBUG) and never fails the pods; {@code
   * UNIMPLEMENTED} stops the asking for good, logged once.
   */
  private @Nullable RuntimeFilesystems imageFilesystems(Round round) {
    if (imageFsUnimplemented) {
      return null;
    }
    ImageFsInfoResponse answer;
    try {
      answer = images.withDeadlineAfter(callTimeout.toNanos(), TimeUnit.NANOSECONDS)
          .imageFsInfo(ImageFsInfoRequest.getDefaultInstance());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
        imageFsUnimplemented = true;
        LOG.info(
            "event=cri_image_fs_unimplemented endpoint={} cause={}",
            target,
            "ImageFsInfo is unimplemented; imageFs and containerFs will be missing");
      }
      LOG.debug("event=cri_image_fs_failed endpoint={} code={}", target, e.getStatus().getCode());
      return null;
    }
    Instant now = clock.instant();
    try {
      return new RuntimeFilesystems(
          filesystems(answer.getImageFilesystemsList(), now, round.host),
          filesystems(answer.getContainerFilesystemsList(), now, round.host));
    } catch (IllegalArgumentException e) {
      LOG.debug("event=cri_image_fs_failed endpoint={} code=MALFORMED cause={}", target, e.getMessage());
      return null;
    }
  }

  private static List<RuntimeFilesystem> filesystems(
      List<FilesystemUsage> listed, Instant now, StatsMapper.HostView host) {
    List<RuntimeFilesystem> result = new ArrayList<>(listed.size());
    for (FilesystemUsage fs : listed) {
      result.add(StatsMapper.runtimeFilesystem(fs, now, host));
    }
    return result;
  }

  // ---- Identity ------------------------------------------------------------------------------------------------

  private List<PodSandbox> listPods(boolean readyOnly) {
    ListPodSandboxRequest.Builder request = ListPodSandboxRequest.newBuilder();
    if (readyOnly) {
      request.setFilter(
          PodSandboxFilter.newBuilder()
              .setState(PodSandboxStateValue.newBuilder().setState(PodSandboxState.SANDBOX_READY)));
    }
    return rpc("ListPodSandbox", s -> s.listPodSandbox(request.build())).getItemsList();
  }

  private void refreshMetadata() {
    List<PodSandbox> sandboxes = listPods(false);
    List<Container> containers =
        rpc("ListContainers", s -> s.listContainers(ListContainersRequest.getDefaultInstance())).getContainersList();
    metadata.replaceAll(podMetadata(sandboxes), containerMetadata(containers));
  }

  private static List<RuntimeMetadata.Pod> podMetadata(List<PodSandbox> sandboxes) {
    List<RuntimeMetadata.Pod> pods = new ArrayList<>(sandboxes.size());
    for (PodSandbox p : sandboxes) {
      pods.add(
          new RuntimeMetadata.Pod(
              p.getId(),
              new PodRef(p.getMetadata().getName(), p.getMetadata().getNamespace(), p.getMetadata().getUid()),
              Integer.toUnsignedLong(p.getMetadata().getAttempt()),
              StatsMapper.instant(p.getCreatedAt(), Instant.EPOCH),
              p.getLabelsMap()));
    }
    return pods;
  }

  private List<RuntimeMetadata.Container> containerMetadata(List<Container> containers) {
    List<RuntimeMetadata.Container> result = new ArrayList<>(containers.size());
    for (Container c : containers) {
      RuntimeMetadata.Container known = metadata.container(c.getId());
      String image;
      String logPath;
      ResourceSpec resources;
      if (known != null) {
        image = known.image();
        logPath = known.logPath();
        resources = known.resources();
      } else {
        ContainerStatus status = containerStatus(c.getId());
        image = imageName(c, status);
        logPath = status == null || status.getLogPath().isEmpty() ? null : status.getLogPath();
        resources = status == null ? null : StatsMapper.resources(status);
      }
      result.add(
          new RuntimeMetadata.Container(
              c.getId(),
              c.getPodSandboxId(),
              c.getMetadata().getName(),
              Integer.toUnsignedLong(c.getMetadata().getAttempt()),
              image,
              StatsMapper.instant(c.getCreatedAt(), Instant.EPOCH),
              c.getLabelsMap(),
              logPath,
              resources));
    }
    return result;
  }

  /**
   * {@code ContainerStatus}, asked once per container when it first appears: it carries the log path and the applied
   * resources, which the listings lack. {@code null} when the container is already gone.
   */
  private @Nullable ContainerStatus containerStatus(String id) {
    try {
      return rpc(
              "ContainerStatus",
              s -> s.containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build()))
          .getStatus();
    } catch (RpcFailure f) {
      if (!f.isGone()) {
        throw f;
      }
      return null;
    }
  }

  /**
   * The human image name, as cAdvisor's {@code image} label shows it. The kubelet creates containers from the image
   * id ({@code sha256:...}), which {@code ListContainers} echoes; {@code ContainerStatus} resolves it to the first
   * repo tag.
   */
  private static String imageName(Container c, @Nullable ContainerStatus status) {
    String spec = c.getImage().getImage();
    if (!spec.isEmpty() && !looksLikeImageId(spec)) {
      return spec;
    }
    if (status != null) {
      String named = status.getImage().getImage();
      if (!named.isEmpty() && !looksLikeImageId(named)) {
        return named;
      }
    }
    String ref = c.getImageRef();
    return !ref.isEmpty() && !looksLikeImageId(ref) ? ref : spec.isEmpty() ? ref : spec;
  }

  static boolean looksLikeImageId(String image) {
    return image.startsWith("sha256:") || BARE_IMAGE_ID.matcher(image).matches();
  }
}
