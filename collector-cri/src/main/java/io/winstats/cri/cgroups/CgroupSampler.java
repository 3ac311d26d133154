package io.winstats.cri.cgroups;

import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the cgroups of the containers and pods one runtime round returned, keyed by their runtime ids. Runs on the
 * runtime's sampling thread after its round; never throws for a cgroup that vanished or a host without one (the id
 * is listed in {@link CgroupSample#missing()}). Not thread-safe.
 */
public final class CgroupSampler {
  private static final Logger LOG = LoggerFactory.getLogger(CgroupSampler.class);
  private static final Path HOST_CGROUPS = Path.of("/sys/fs/cgroup");

  private final CgroupReader reader;
  private final CgroupLocator locator;
  private final Clock clock;

  CgroupSampler(CgroupReader reader, Duration rescanAfter, LongSupplier nanoTime, Clock clock) {
    this.reader = reader;
    this.locator = new CgroupLocator(reader.scanRoot(), rescanAfter, nanoTime);
    this.clock = clock;
  }

  /** The host's cgroups, looking again for missing ids at most once a minute. */
  public static CgroupSampler host(Clock clock) {
    return new CgroupSampler(CgroupReader.host(), Duration.ofMinutes(1), System::nanoTime, clock);
  }

  /**
   * The host's cgroups when it has a cgroup tree ({@code /sys/fs/cgroup}), logged once with its version; {@code null}
   * on a host without one, which then serves the CRI figures alone.
   */
  public static @Nullable CgroupSampler probeHost(Clock clock) {
    if (!Files.isDirectory(HOST_CGROUPS)) {
      return null;
    }
    CgroupSampler cgroups = host(clock);
    LOG.info("event=cgroups_enabled version={}", cgroups.version());
    return cgroups;
  }

  /** For tests: cgroups under {@code cgroupRoot}, processes under {@code procRoot}, devices under {@code sysRoot}. */
  public static CgroupSampler of(Path cgroupRoot, Path procRoot, Path sysRoot, Clock clock) {
    return new CgroupSampler(
        new CgroupReader(cgroupRoot, procRoot, sysRoot), Duration.ofMinutes(1), System::nanoTime, clock);
  }

  /**
   * The cgroups of {@code round}'s pods (through their sandboxes) and containers, as the daemon reads them after it.
   */
  public CgroupSample sample(RuntimeSample round) {
    List<String> sandboxes = new ArrayList<>(round.pods().size());
    List<String> containers = new ArrayList<>(round.pods().size() * 2);
    for (PodSample pod : round.pods()) {
      sandboxes.add(pod.sandboxId());
      pod.containers().forEach(c -> containers.add(c.id()));
    }
    return sample(sandboxes, containers);
  }

  /**
   * Reads the cgroup of every container in {@code containerIds} and, for every sandbox in {@code sandboxIds}, the
   * pod cgroup above the sandbox's own (runc puts the pause container in {@code <cgroup_parent>/<sandbox id>}) and the
   * pod's network interfaces through the pause process ({@code /proc/<pid>/net/dev}).
   */
  public CgroupSample sample(Collection<String> sandboxIds, Collection<String> containerIds) {
    List<String> ids = new ArrayList<>(sandboxIds.size() + containerIds.size());
    ids.addAll(sandboxIds);
    ids.addAll(containerIds);
    Map<String, String> paths = locator.locate(ids);
    Map<String, CgroupStats> containers = new HashMap<>();
    Map<String, CgroupStats> pods = new HashMap<>();
    Map<String, List<NetDevInterface>> networks = new HashMap<>();
    List<String> missing = new ArrayList<>();
    Set<String> read = new HashSet<>(ids.size() * 2);
    for (String id : containerIds) {
      String path = paths.get(id);
      if (path == null) {
        missing.add(id + ": no cgroup");
        continue;
      }
      CgroupStats stats = reader.read(path);
      if (removed(stats)) {
        locator.forget(id);
        missing.add(id + ": cgroup removed");
      } else {
        containers.put(id, stats);
        read.add(path);
      }
    }
    for (String id : sandboxIds) {
      String path = paths.get(id);
      int slash = path == null ? -1 : path.lastIndexOf('/');
      if (path == null || slash <= 0) {
        missing.add(id + ": no pod cgroup");
        continue;
      }
      String podPath = path.substring(0, slash);
      CgroupStats stats = reader.read(podPath);
      if (removed(stats)) {
        locator.forget(id);
        missing.add(id + ": pod cgroup removed");
      } else {
        pods.put(id, stats);
        read.add(podPath);
        read.add(path);
        List<NetDevInterface> network = reader.network(path);
        if (network != null) {
          networks.put(id, network);
        }
      }
    }
    KubepodsCgroup kubepods = kubepods(pods.values());
    if (kubepods != null) {
      read.add(kubepods.stats().path());
    }
    reader.retainOnly(read);
    return CgroupSample.builder(clock.instant(), reader.version(), reader.nodePressure())
        .containers(containers)
        .pods(pods)
        .podNetworks(networks)
        .missing(missing)
        .kubepods(kubepods)
        .build();
  }

  /**
   * The kubelet's pod cgroup root, its {@code pods} system container: the first segment of the pod cgroups' paths
   * when the kubelet named it ({@code kubepods}, or {@code kubepods.slice} under the systemd driver; kubernetes
   * pkg/kubelet/cm/node_container_manager_linux.go, {@code defaultNodeAllocatableCgroupName}), read when every pod
   * cgroup is under that one; {@code null} otherwise, or when it is gone.
   */
  private @Nullable KubepodsCgroup kubepods(Collection<CgroupStats> pods) {
    String root = null;
    for (CgroupStats pod : pods) {
      int end = pod.path().indexOf('/', 1);
      String first = end < 0 ? pod.path() : pod.path().substring(0, end);
      boolean kubelets = first.equals("/kubepods") || first.equals("/kubepods.slice");
      if (!kubelets || (root != null && !root.equals(first))) {
        return null;
      }
      root = first;
    }
    if (root == null) {
      return null;
    }
    CgroupStats stats = reader.read(root);
    return removed(stats) ? null : new KubepodsCgroup(stats, reader.memoryUsage(root));
  }

  /**
   * A cgroup whose {@code memory.stat} is gone was removed (the kubelet enables the memory controller on every pod and
   * container cgroup; v1 reads it from the memory hierarchy): told from the read itself rather than by a directory
   * check before it, one system call fewer per cgroup and round.
   */
  private static boolean removed(CgroupStats stats) {
    return stats.memory() == null;
  }

  /**
   * Records into {@code names} the name of every file the cgroup reads on this thread open from now on (each kernel
   * file, and each process's {@code fd} directory listed), until called with {@code null}: a round costs the kernel's
   * price of a file times their count ({@link CgroupReader}), which {@code bench/cgroup-round} counts and replays
   * through this.
   */
  public static void recordOpens(@Nullable List<String> names) {
    KernelFile.recordOpens(names);
  }

  /** The host's cgroup layout. */
  public CgroupVersion version() {
    return reader.version();
  }

  /** Walks of the cgroup hierarchy so far. */
  public long scans() {
    return locator.scans();
  }
}
