package io.winstats.cri.rounds;

import com.github.benmanes.caffeine.cache.Ticker;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.InodeCounter;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeFilesystems;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.StatsCall;
import io.winstats.cri.WindowsStatsSource;
import io.winstats.cri.api.VersionRequest;
import io.winstats.cri.api.VersionResponse;
import io.winstats.cri.hns.HnsPort;
import io.winstats.cri.hns.jna.VmcomputeHns;
import io.winstats.cri.npipe.UntrustedPipeException;
import io.winstats.cri.transport.Connector;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads pod and container stats from a container runtime over CRI runtime.v1 gRPC, one {@link RuntimeSample} per
 * {@link #sample()} call.
 *
 * <p><b>Reading.</b> Each round goes through the {@link StatsRound} that {@link StatsRoundChooser} picks:
 * {@code ListPodSandboxStats} by default, {@code ListContainerStats} when chosen or when the runtime lacks the other,
 * containerd's {@code Tasks.Metrics} with {@link WindowsStatsSource#TASKS} (falling back to CRI stats while that
 * service fails). Each list call goes through its KEP-5825 stream where the runtime has one (containerd 2.4+,
 * CRI-O), which no 16 MiB message ceiling limits, and falls back to the unary call once per connection where it
 * answers {@code UNIMPLEMENTED} ({@link ListCalls}); a round that starts on a new connection (the runtime restarted,
 * or the first round) asks the runtime's version and its streams again. Identity (creation times, labels, the image,
 * the CRI state) comes from {@code ListPodSandbox}/{@code ListContainers}, cached by id; pods are listed again when an
 * unknown pod id appears, containers every round, because a container's state changes under the same id. Whether a
 * pod is a Windows HostProcess one is asked once per new ready sandbox with the verbose {@code PodSandboxStatus}
 * ({@link HostProcessLookup}), never per round. Of containers sharing a name in a pod only the newest is reported
 * ({@link NewestContainers}). Where the runtime's pod CPU is a sum over running containers (Windows; the {@code
 * ListContainerStats} path), the pod's cumulative CPU carries what exited and restarted containers used ({@link
 * PodCpuTotals}), so it never goes backwards while the pod lives.
 *
 * <p><b>Filesystems.</b> Each round also asks {@code ImageService.ImageFsInfo} for the image and container
 * filesystems. {@code ContainerStatus}, asked once per new container, gives its log path and the Linux resources the
 * runtime applied. The capacity of the filesystem under each runtime mountpoint ({@link java.nio.file.FileStore})
 * and the size of each container's log directory are read from this host's files when the paths are visible here, and
 * left out when they are not (the daemon in another mount namespace, a Windows path seen from Linux): never guessed.
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
 * UNAVAILABLE}. Only health changes are logged ({@link RuntimeHealthLog}).
 *
 * <p><b>Threads.</b> {@link #sample()} and {@link #close()} are synchronized; the reader owns one channel and its
 * daemon threads (one reading the connection, one timer), all released by {@link #close()}.
 */
final class RuntimeStatsReader implements CriStatsReader {
  private static final Logger LOG = LoggerFactory.getLogger(CriStatsReader.class);

  /** How long an unread pod or container stays in the identity and CPU caches. */
  static final Duration CACHE_EXPIRY = Duration.ofMinutes(2);

  /** Upper bound on cached pods, containers and CPU readings. */
  static final long CACHE_MAXIMUM_SIZE = 20_000;

  /** How long the reader reads CRI stats after the Tasks service failed before it asks that service again. */
  static final Duration TASKS_RETRY_AFTER = Duration.ofMinutes(1);

  /** {@link RuntimeSample#fallbacksStarted()}'s name for the Tasks service's part. */
  static final String TASKS_FALLBACK = "tasks_metrics";

  /** How long a round after an outage waits for the connection it starts (capped by the call timeout). */
  private static final Duration RECONNECT_WAIT = Duration.ofMillis(250);

  private final RuntimeContext context;
  private final ManagedChannel channel;
  private final AutoCloseable resources;
  private final RuntimeCalls calls;
  private final ListCalls lists;
  private final HostFiles hostFiles;
  private final CpuRateCache cpuRates;
  private final RuntimeMetadata metadata;
  private final PodCpuTotals podCpu;
  private final StatsRoundParts roundParts;
  private final StatsRoundChooser rounds;
  // Set with the task-metrics round (Windows); read by cacheEntries at scrape time, outside the round's lock.
  private volatile @Nullable TaskProcesses taskProcesses;
  private volatile @Nullable WritableLayers writableLayers;
  private final ImageFilesystems imageFilesystems;
  private final RuntimeHealthLog health;

  private @Nullable String runtimeName;
  // The name and version the runtime last answered, kept across connections to see an in-place upgrade.
  private @Nullable String lastRuntimeName;
  private boolean closed;

  private RuntimeStatsReader(
      String target,
      ManagedChannel channel,
      AutoCloseable resources,
      Duration callTimeout,
      Clock clock,
      Ticker ticker,
      Duration cacheExpiry,
      HostFiles hostFiles) {
    this.context = new RuntimeContext(target, callTimeout, clock, ticker);
    this.channel = Objects.requireNonNull(channel, "channel");
    this.resources = Objects.requireNonNull(resources, "resources");
    this.hostFiles = Objects.requireNonNull(hostFiles, "hostFiles");
    this.calls = new RuntimeCalls(context, channel);
    this.lists = new ListCalls(calls);
    this.cpuRates = new CpuRateCache(cacheExpiry, CACHE_MAXIMUM_SIZE, ticker);
    this.metadata = new RuntimeMetadata(cacheExpiry, CACHE_MAXIMUM_SIZE, ticker);
    this.podCpu = new PodCpuTotals(cacheExpiry, CACHE_MAXIMUM_SIZE, ticker);
    IdentityLister identities =
        new IdentityLister(calls, lists, metadata, new HostProcessLookup(calls, ticker, cacheExpiry));
    this.roundParts = new StatsRoundParts(context, calls, lists, identities, new StatsMapper(cpuRates), podCpu);
    this.rounds =
        new StatsRoundChooser(
            context, new PodSandboxStatsRound(roundParts), new ContainerStatsRound(roundParts));
    this.imageFilesystems = new ImageFilesystems(context, channel);
    this.health = new RuntimeHealthLog(context);
  }

  /** As {@link CriStatsReaders#open(CriEndpoint, CriReaderOptions)} says. */
  static RuntimeStatsReader open(CriEndpoint endpoint, CriReaderOptions options) {
    RuntimeStatsReader reader =
        over(
            endpoint.uri(),
            CriTransport.open(endpoint, options.windowsHost()),
            options.callTimeout(),
            options.clock(),
            HostFiles.local(options.inodes()));
    if (options.statsCall() == StatsCall.LIST_CONTAINER_STATS) {
      reader.useContainerStats();
    }
    if (options.windowsStats() == WindowsStatsSource.TASKS) {
      HnsPort hns = options.hns();
      reader.useTaskMetrics(hns == null ? new VmcomputeHns() : hns);
    }
    return reader;
  }

  /** A reader whose every connection is one {@code connector.open()}, as a named pipe's are (any stream in tests). */
  static RuntimeStatsReader openOver(
      String target, Connector connector, Duration callTimeout, Clock clock) {
    return over(target, CriTransport.over(target, connector), callTimeout, clock, HostFiles.local(InodeCounter.NONE));
  }

  private static RuntimeStatsReader over(
      String target, CriTransport.Channel transport, Duration callTimeout, Clock clock, HostFiles files) {
    try {
      return new RuntimeStatsReader(
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
  static RuntimeStatsReader forChannel(
      String target, ManagedChannel channel, Duration callTimeout, Clock clock, Ticker ticker) {
    return forChannel(target, channel, callTimeout, clock, ticker, HostFiles.local(InodeCounter.NONE));
  }

  /** As {@link #forChannel(String, ManagedChannel, Duration, Clock, Ticker)}, looking at host files through a fake. */
  static RuntimeStatsReader forChannel(
      String target, ManagedChannel channel, Duration callTimeout, Clock clock, Ticker ticker, HostFiles files) {
    AutoCloseable shutdown =
        () -> {
          channel.shutdownNow();
          channel.awaitTermination(5, TimeUnit.SECONDS);
        };
    return new RuntimeStatsReader(target, channel, shutdown, callTimeout, clock, ticker, CACHE_EXPIRY, files);
  }

  @Override
  public String name() {
    return "cri";
  }

  /**
   * Reads every pod and container once.
   *
   * @return the pods (possibly none) with the runtime's name and version, and what was skipped
   * @throws CriException when the round as a whole failed: the runtime is down ({@code UNAVAILABLE}), did not answer
   *     in time ({@code DEADLINE_EXCEEDED}), sent more than 16 MiB ({@code MESSAGE_TOO_LARGE}), sent bytes that do not
   *     decode ({@code MALFORMED}) or answered with an error of its own ({@code RUNTIME_ERROR}), or a named pipe's
   *     server is not the runtime ({@code UNTRUSTED_PIPE}); also after {@link
   *     #close()}
   */
  @Override
  public synchronized RuntimeSample sample() {
    if (closed) {
      throw new CriException(
          CriException.Reason.UNAVAILABLE, "endpoint=" + context.target() + ": the reader is closed");
    }
    long startedNanos = System.nanoTime();
    if (channel.getState(false) != ConnectivityState.READY) {
      newConnection();
    }
    if (health.connectionLost()) {
      reconnect();
    }
    try {
      Instant started = context.clock().instant();
      RoundContext round = new RoundContext(new StatsMapper.HostView(hostFiles, started), started);
      String name = runtimeName();
      List<PodSample> pods = rounds.read(round);
      RuntimeFilesystems filesystems = imageFilesystems.read(round);
      RuntimeSample sample =
          RuntimeSample.builder(context.clock().instant(), name)
              .pods(pods)
              .filesystems(filesystems)
              .skipped(round.skipped)
              .fallbacksStarted(round.fallbacksStarted)
              .callsFailed(round.callsFailed)
              .build();
      health.healthy(name);
      if (LOG.isDebugEnabled()) {
        LOG.debug(
            "event=cri_round endpoint={} path={} pods={} skipped={} durationMs={}",
            context.target(),
            rounds.rpcName(),
            pods.size(),
            round.skipped.size(),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos));
      }
      return sample;
    } catch (RuntimeCalls.RpcFailure f) {
      throw health.failed(refusedOrFault(f));
    } catch (CriException e) {
      throw health.failed(e);
    } catch (RuntimeException e) {
      throw health.failed(
          new CriException(
              CriException.Reason.MALFORMED,
              "endpoint=" + context.target() + ": could not map the runtime's answer: " + e,
              e));
    }
  }

  /**
   * The round will run on a connection other than the last round's (or the first): the runtime behind it may have
   * restarted, perhaps as another version (a node upgrade restarts containerd; a restart closes every connection to
   * its socket or pipe). Its name and version are asked again, and so is each call it lacked (list streams,
   * {@code ListPodSandboxStats}); if the version changed, the Tasks source too ({@link
   * StatsRoundChooser#runtimeChanged()}).
   */
  private void newConnection() {
    runtimeName = null;
    lists.forgetMissing();
    rounds.forgetMissing();
  }

  /**
   * Starts a connection attempt now and waits for it, up to {@link #RECONNECT_WAIT}. Without the reset the channel
   * waits out its reconnect backoff (3.5-5 s measured) after the runtime is back. Without the wait the round's first
   * call still fails at once with the outage's error: after a transient failure the channel keeps reporting
   * TRANSIENT_FAILURE, and fails calls fast, until a new connection is READY (pick_first's sticky transient failure),
   * so the first round after the runtime returned failed and recovery took one more retry (RuntimeFaultsIT).
   */
  private void reconnect() {
    channel.resetConnectBackoff();
    long end = System.nanoTime() + Math.min(RECONNECT_WAIT.toNanos(), context.callTimeout().toNanos());
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
      LOG.debug("event=cri_close_failed endpoint={}", context.target(), e);
    }
  }

  /** Reads with {@code ListContainerStats} from the next round on, as if the runtime lacked the other call. */
  synchronized void useContainerStats() {
    rounds.useContainerStats();
  }

  /**
   * Reads a Windows node's figures with containerd's {@code Tasks.Metrics} from the next round on, falling back to
   * CRI stats while that service fails.
   */
  synchronized void useTaskMetrics(HnsPort hns) {
    taskProcesses = new TaskProcesses(context, channel);
    writableLayers = new WritableLayers(context, channel);
    rounds.useTaskMetrics(
        new TasksStatsRound(
            roundParts,
            new TaskMetrics(context, channel),
            taskProcesses,
            writableLayers,
            new PodNetworks(hns)));
  }

  /** Whether the last round read CRI stats although task metrics were chosen. */
  synchronized boolean fellBackFromTaskMetrics() {
    return rounds.fellBackFromTaskMetrics();
  }

  /** Whether the reader reads with {@code ListContainerStats}. */
  synchronized boolean usesContainerStats() {
    return rounds.usesContainerStats();
  }

  /**
   * Entries in the reader's caches, by name: {@code pod_identities} and {@code container_identities} (from the
   * listings), {@code cpu_readings} (the previous reading of each instance, for its rate) and {@code pod_cpu_totals}
   * (per pod, the CPU of containers that left the runtime's pod sum). Each holds an entry only until it goes unread for
   * {@link #CACHE_EXPIRY}, so after churn they return to what the node runs. With task metrics (Windows) also {@code
   * task_process_counts} and {@code writable_layers} ({@link TaskProcesses}, {@link WritableLayers}: counts and
   * layers kept {@link WritableLayers#REFRESH}, containers' snapshot keys until unread for {@link #CACHE_EXPIRY}).
   */
  @Override
  public Map<String, Long> cacheEntries() {
    Map<String, Long> entries = new TreeMap<>();
    entries.put("pod_identities", metadata.podCount());
    entries.put("container_identities", metadata.containerCount());
    entries.put("cpu_readings", cpuRates.size());
    entries.put("pod_cpu_totals", podCpu.size());
    TaskProcesses processes = taskProcesses;
    WritableLayers layers = writableLayers;
    if (processes != null && layers != null) {
      entries.put("task_process_counts", processes.size());
      entries.put("writable_layers", layers.size());
    }
    return Map.copyOf(entries);
  }

  @Override
  public Map<String, Long> streamFallbacks() {
    return lists.fallbacks();
  }

  @Override
  public String statsPath() {
    return rounds.rpcName();
  }

  /** Whether the runtime lacked {@code rpc}'s stream when last asked (on this connection). */
  synchronized boolean streamMissing(ListCalls.Rpc rpc) {
    return lists.streamMissing(rpc);
  }

  RuntimeMetadata metadataForTest() {
    return metadata;
  }

  /**
   * A named pipe whose server {@code npipe.PipeServerTrust} refused fails the connection like any other ({@code
   * UNAVAILABLE}); the refusal is the status's cause.
   */
  private CriException refusedOrFault(RuntimeCalls.RpcFailure f) {
    CriException e = RuntimeCalls.fault(context.target(), f.method, f.cause);
    if (e.reason() == CriException.Reason.UNAVAILABLE) {
      for (Throwable t = f.cause.getCause(); t != null; t = t.getCause()) {
        if (t instanceof UntrustedPipeException refusal) {
          return new CriException(
              CriException.Reason.UNTRUSTED_PIPE,
              "endpoint=" + context.target() + ": " + refusal.getMessage(),
              refusal);
        }
      }
    }
    return e;
  }

  private String runtimeName() {
    String name = runtimeName;
    if (name == null) {
      VersionResponse v =
          calls.call("Version", s -> s.version(VersionRequest.newBuilder().setVersion("v1").build()));
      name = (v.getRuntimeName() + " " + v.getRuntimeVersion()).strip();
      runtimeName = name;
      String last = lastRuntimeName;
      if (last != null && !last.equals(name)) {
        // An in-place upgrade (AKS moves Windows nodes from containerd 1.7 to 2.x so): what was learnt of the old
        // version, a Tasks-service failure above all, says nothing of the new one.
        LOG.info("event=cri_runtime_changed endpoint={} from={} to={}", context.target(), last, name);
        rounds.runtimeChanged();
      }
      lastRuntimeName = name;
    }
    return name;
  }
}
