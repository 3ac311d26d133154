package io.winstats.cri.rounds;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.grpc.Channel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.winstats.cri.api.containerd.ContainersGrpc;
import io.winstats.cri.api.containerd.GetContainerRequest;
import io.winstats.cri.api.containerd.IntrospectionGrpc;
import io.winstats.cri.api.containerd.Plugin;
import io.winstats.cri.api.containerd.PluginsRequest;
import io.winstats.cri.api.containerd.SnapshotsGrpc;
import io.winstats.cri.api.containerd.UsageRequest;
import io.winstats.cri.api.containerd.UsageResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The size of each container's writable layer from containerd's own services, without a CRI stats call: the figure
 * containerd's CRI plugin sends the kubelet, taken the way that plugin takes it.
 *
 * <p>containerd's CRI code never measures a layer while answering: {@code toPodSandboxStats} and {@code
 * windowsContainerMetrics} look up {@code GetSnapshot(cntr.ID, snapshotter)} in its snapshot store
 * (internal/cri/server/sandbox_stats_windows.go:167-180, container_stats_list.go:316-336@v2.3.4; the same lines
 * from v2.0.0), which its snapshots syncer fills every {@code stats_collect_period} (10 s by default,
 * internal/cri/config/config_windows.go:33@v2.3.4) by calling {@code Snapshotter.Usage} for each active snapshot
 * (internal/cri/server/images/snapshots.go:84-144@v2.3.4). So the kubelet's figure is at most about 10 s old. This
 * class calls the same {@code Usage} through the Snapshots service ({@code Usage}, plugins/services/snapshots/
 * service.go:242-254@v2.3.4) and keeps each answer for {@link #REFRESH}, so its figure is no older than the kubelet's
 * and a layer is measured at most once per {@link #REFRESH}, whatever the sampling interval. On Windows {@code Usage}
 * of an active snapshot is a walk of its directory ({@code windowsBaseSnapshotter.Usage},
 * plugins/snapshots/windows/common.go:106-131@v2.3.4), byte sizes only: continuity's {@code diskUsage} on Windows
 * counts no inodes (vendor/github.com/containerd/continuity/fs/du_windows.go:27-51@v2.3.4), and the CRI pod path's
 * {@code WindowsFilesystemUsage} has no inode field, so none is carried here.
 *
 * <p>The snapshot's key and snapshotter are the container's own ({@code Containers.Get}: {@code snapshot_key}, which
 * the CRI plugin sets to the container id, container_create.go:378@v2.3.4, and {@code snapshotter}, the runtime
 * handler's), asked once per container and kept while the container is read. The mountpoint is containerd's {@code
 * imageFSPaths[snapshotter]} ({@code snapshotRoot}, plugins/cri/images/plugin.go:124-133@v2.3.4): the snapshotter
 * plugin's exported {@code root}, else {@code io.containerd.snapshotter.v1.<name>} beside the other plugins' roots
 * (the Windows snapshotter exports none); asked once per snapshotter through {@code Introspection.Plugins}, whose
 * content store exports its root (plugins/content/local/plugin/plugin.go:33@v2.3.4).
 *
 * <p>A snapshot the snapshotter does not know ({@code NOT_FOUND}), and any other failed {@code Usage}, is a layer
 * without bytes, as the CRI plugin sends a snapshot its store has not measured; a container containerd does not hold
 * ({@code Containers.Get} NotFound) has no layer, remembered while the container is listed, so its record is not asked
 * for again each round. A failed {@code Introspection.Plugins} leaves every layer unmeasured (no mountpoint to name)
 * and is asked again after {@link #REFRESH}; any other failure of {@code Containers.Get} is the call's ({@link
 * RuntimeCalls.RpcFailure}), for the round to decide. Not thread-safe: one round at a time.
 */
final class WritableLayers {
  private static final Logger LOG = LoggerFactory.getLogger(WritableLayers.class);

  /** How long a measured layer is served before it is measured again: containerd's default stats_collect_period. */
  static final Duration REFRESH = Duration.ofSeconds(10);

  static final String GET = "Containers.Get";
  static final String PLUGINS = "Introspection.Plugins";
  static final String USAGE = "Snapshots.Usage";

  private static final String SNAPSHOT_PLUGIN = "io.containerd.snapshotter.v1";
  private static final String CONTENT_PLUGIN = "io.containerd.content.v1";

  /** A container's layer as measured at {@code measuredAt}; {@code usedBytes} {@code null} when not measured. */
  record Layer(Instant measuredAt, String mountpoint, @Nullable Long usedBytes) {}

  /** A container's snapshot; {@link #NONE} for one containerd holds without a snapshot, or does not hold. */
  private record SnapshotRef(String snapshotter, String key) {
    static final SnapshotRef NONE = new SnapshotRef("", "");
  }

  private final SnapshotsGrpc.SnapshotsBlockingStub snapshots;
  private final ContainersGrpc.ContainersBlockingStub containers;
  private final IntrospectionGrpc.IntrospectionBlockingStub introspection;
  private final RuntimeContext context;
  private final Cache<String, SnapshotRef> refs;
  private final Cache<String, Layer> measured;
  private final Map<String, String> roots = new ConcurrentHashMap<>();
  // When Introspection.Plugins last failed (ticker nanos): not asked again within REFRESH; null while it answers.
  private @Nullable Long pluginsFailedAtNanos;
  // The calls that failed since takeFailures, with their causes.
  private final Map<String, String> failures = new java.util.LinkedHashMap<>();

  WritableLayers(RuntimeContext context, Channel channel) {
    Metadata headers = new Metadata();
    headers.put(TaskMetrics.NAMESPACE_HEADER, TaskMetrics.NAMESPACE);
    var namespaced = MetadataUtils.newAttachHeadersInterceptor(headers);
    this.snapshots = SnapshotsGrpc.newBlockingStub(channel).withInterceptors(namespaced);
    this.containers = ContainersGrpc.newBlockingStub(channel).withInterceptors(namespaced);
    this.introspection = IntrospectionGrpc.newBlockingStub(channel);
    this.context = Objects.requireNonNull(context, "context");
    Ticker ticker = context.ticker();
    this.refs =
        ExpiringCaches.expiring(RuntimeStatsReader.CACHE_EXPIRY, RuntimeStatsReader.CACHE_MAXIMUM_SIZE, ticker);
    this.measured =
        Caffeine.newBuilder()
            .expireAfterWrite(REFRESH)
            .maximumSize(RuntimeStatsReader.CACHE_MAXIMUM_SIZE)
            .ticker(ticker)
            .executor(Runnable::run)
            .<String, Layer>build();
  }

  /**
   * The layer of container {@code containerId}: the one measured within {@link #REFRESH}, else measured now.
   *
   * @return {@code null} when containerd does not hold the container or its snapshot, or when the snapshotter's root
   *     is not known (Introspection.Plugins failed)
   * @throws RuntimeCalls.RpcFailure when {@code Containers.Get} fails for another reason than NotFound
   */
  @Nullable Layer of(String containerId) {
    Layer known = measured.getIfPresent(containerId);
    if (known != null) {
      return known;
    }
    SnapshotRef ref = refs.getIfPresent(containerId);
    if (ref == null) {
      ref = snapshotOf(containerId);
      // Kept while the container is listed (read each round), NONE too: a record containerd does not hold is not
      // asked for again until the container leaves the listing and its entry expires.
      refs.put(containerId, ref);
    }
    if (ref.equals(SnapshotRef.NONE)) {
      return null;
    }
    String mountpoint = root(ref.snapshotter());
    if (mountpoint == null) {
      return null;
    }
    Instant at = context.clock().instant();
    Long bytes;
    try {
      UsageResponse usage =
          context
              .withDeadline(snapshots)
              .usage(UsageRequest.newBuilder().setSnapshotter(ref.snapshotter()).setKey(ref.key()).build());
      bytes = TasksStatsRound.unsigned(usage.getSize(), "size");
    } catch (StatusRuntimeException e) {
      // As containerd's snapshot syncer: a layer whose walk fails (a deadline, an OS error from a layer torn down
      // mid-walk, any status) is logged and left unmeasured, the others still served (snapshotsSyncer.sync,
      // internal/cri/server/images/snapshots.go:106-112@0c16722). Kept as unmeasured until the next REFRESH.
      if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
        failures.put(USAGE, "snapshot " + ref.key() + ": " + e.getStatus().getCode() + ": "
            + e.getStatus().getDescription());
        LOG.debug("event=cri_layer_unmeasured snapshotter={} key={} cause={}", ref.snapshotter(), ref.key(),
            e.getStatus());
      }
      bytes = null;
    }
    Layer layer = new Layer(at, mountpoint, bytes);
    measured.put(containerId, layer);
    return layer;
  }

  /**
   * Forgets the snapshotter roots, the containers' snapshot references and the measured layers, and a failure of
   * {@code Introspection.Plugins}: a runtime that came back as another version is asked anew (its root may differ).
   */
  void forget() {
    roots.clear();
    refs.invalidateAll();
    measured.invalidateAll();
    pluginsFailedAtNanos = null;
  }

  /** The calls that failed since the previous call, each with its last cause, then forgotten. */
  Map<String, String> takeFailures() {
    Map<String, String> taken = Map.copyOf(failures);
    failures.clear();
    return taken;
  }

  /** Entries kept: containers' snapshot references and measured layers. */
  long size() {
    refs.cleanUp();
    measured.cleanUp();
    return refs.estimatedSize() + measured.estimatedSize();
  }

  private SnapshotRef snapshotOf(String containerId) {
    try {
      var c =
          context
              .withDeadline(containers)
              .get(GetContainerRequest.newBuilder().setId(containerId).build())
              .getContainer();
      if (c.getSnapshotKey().isEmpty() || c.getSnapshotter().isEmpty()) {
        return SnapshotRef.NONE; // a container created without a snapshot has no writable layer to measure
      }
      return new SnapshotRef(c.getSnapshotter(), c.getSnapshotKey());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return SnapshotRef.NONE;
      }
      throw new RuntimeCalls.RpcFailure(GET, e);
    }
  }

  /**
   * containerd's {@code snapshotRoot(snapshotter)}, asked once per snapshotter; {@code null} while {@code
   * Introspection.Plugins} fails or names no root (asked again after {@link #REFRESH}): the layers are then
   * unmeasured, the rest of the round still served.
   */
  private @Nullable String root(String snapshotter) {
    String known = roots.get(snapshotter);
    if (known != null) {
      return known;
    }
    Long failedAt = pluginsFailedAtNanos;
    if (failedAt != null && context.ticker().read() - failedAt < REFRESH.toNanos()) {
      return null;
    }
    String snapshotterRoot = null;
    String contentRoot = null;
    try {
      for (Plugin p :
          context
              .withDeadline(introspection)
              .plugins(
                  PluginsRequest.newBuilder()
                      .addFilters("type==" + SNAPSHOT_PLUGIN + ",id==" + snapshotter)
                      .addFilters("type==" + CONTENT_PLUGIN + ",id==content")
                      .build())
              .getPluginsList()) {
        String root = p.getExportsMap().get("root");
        if (root == null || root.isEmpty()) {
          continue;
        }
        if (p.getType().equals(SNAPSHOT_PLUGIN) && p.getId().equals(snapshotter)) {
          snapshotterRoot = root;
        } else if (p.getType().equals(CONTENT_PLUGIN)) {
          contentRoot = root;
        }
      }
    } catch (StatusRuntimeException e) {
      return pluginsFailed(snapshotter, e.getStatus().getCode() + ": " + e.getStatus().getDescription());
    }
    String root = snapshotterRoot != null ? snapshotterRoot : besidePlugin(contentRoot, snapshotter);
    if (root == null) {
      return pluginsFailed(snapshotter, "neither the snapshotter nor the content store exports its root");
    }
    pluginsFailedAtNanos = null;
    roots.put(snapshotter, root);
    return root;
  }

  private @Nullable String pluginsFailed(String snapshotter, String cause) {
    failures.put(PLUGINS, "snapshotter " + snapshotter + ": " + cause);
    if (pluginsFailedAtNanos == null) {
      LOG.debug("event=cri_layers_unmeasured call={} snapshotter={} cause={}", PLUGINS, snapshotter, cause);
    }
    pluginsFailedAtNanos = context.ticker().read();
    return null;
  }

  /**
   * {@code filepath.Join(filepath.Dir(<a plugin's root>), "io.containerd.snapshotter.v1.<name>")} in the separator of
   * containerd's host; {@code null} without a plugin root.
   */
  private static @Nullable String besidePlugin(@Nullable String pluginRoot, String snapshotter) {
    if (pluginRoot == null) {
      return null;
    }
    char separator = pluginRoot.indexOf('\\') >= 0 ? '\\' : '/';
    int cut = pluginRoot.lastIndexOf(separator);
    String parent = cut <= 0 ? pluginRoot : pluginRoot.substring(0, cut);
    return parent + separator + SNAPSHOT_PLUGIN + "." + snapshotter;
  }
}
