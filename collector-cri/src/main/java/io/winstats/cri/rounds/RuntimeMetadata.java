package io.winstats.cri.rounds;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Ticker;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodRef;
import io.winstats.cri.ResourceSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Identity of pods and containers as {@code ListPodSandbox} and {@code ListContainers} report it, cached by runtime id.
 * The stats RPCs carry names but no creation time and no image, so the reader joins them with this cache. Entries
 * expire when a pod or container goes unread for {@code expireAfterAccess} and are dropped at once when a refresh no
 * longer lists them, so memory stays flat under pod churn. Thread-safe.
 */
final class RuntimeMetadata {
  /**
   * A pod sandbox's identity; {@code hostProcess} is whether it is a Windows HostProcess sandbox and {@code
   * netNamespace} its Windows network namespace id ({@link HostProcessLookup.Facts}), each {@code null} where the
   * runtime did not say.
   */
  record Pod(
      String id,
      PodRef ref,
      long attempt,
      Instant createdAt,
      Map<String, String> labels,
      @Nullable Boolean hostProcess,
      @Nullable String netNamespace) {
    Pod {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(createdAt, "createdAt");
      labels = Map.copyOf(labels);
    }
  }

  /**
   * A container's identity; {@code image} is the human image name where the runtime knows one. {@code logPath} (the
   * absolute path of its log file) and {@code resources} come from {@code ContainerStatus}, asked once per container,
   * and are {@code null} where the runtime does not report them. {@code state} is the one thing that changes under the
   * same id, so every listing replaces it.
   */
  record Container(
      String id,
      String podSandboxId,
      String name,
      long attempt,
      String image,
      Instant createdAt,
      ContainerSample.State state,
      Map<String, String> labels,
      @Nullable String logPath,
      @Nullable ResourceSpec resources) {
    Container {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(podSandboxId, "podSandboxId");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(image, "image");
      Objects.requireNonNull(createdAt, "createdAt");
      Objects.requireNonNull(state, "state");
      labels = Map.copyOf(labels);
    }
  }

  private final Cache<String, Pod> pods;
  private final Cache<String, Container> containers;

  RuntimeMetadata(Duration expireAfterAccess, long maximumSize, Ticker ticker) {
    this.pods = ExpiringCaches.expiring(expireAfterAccess, maximumSize, ticker);
    this.containers = ExpiringCaches.expiring(expireAfterAccess, maximumSize, ticker);
  }

  @Nullable
  Pod pod(String id) {
    return pods.getIfPresent(id);
  }

  @Nullable
  Container container(String id) {
    return containers.getIfPresent(id);
  }

  /** Whether every pod id is cached; a miss means a pod appeared since the last pod listing. */
  boolean knowsPods(Collection<String> podIds) {
    for (String id : podIds) {
      if (pods.getIfPresent(id) == null) {
        return false;
      }
    }
    return true;
  }

  /**
   * Replaces the cache with a complete listing: entries not listed are gone from the runtime and are dropped.
   *
   * @param listedPods every pod the runtime listed
   * @param listedContainers every container the runtime listed
   */
  void replaceAll(Collection<Pod> listedPods, Collection<Container> listedContainers) {
    Set<String> podIds = new java.util.HashSet<>();
    for (Pod p : listedPods) {
      pods.put(p.id(), p);
      podIds.add(p.id());
    }
    pods.asMap().keySet().retainAll(podIds);
    replaceContainers(listedContainers);
  }

  /** Replaces the container entries with a complete container listing, keeping the pods. */
  void replaceContainers(Collection<Container> listedContainers) {
    Set<String> containerIds = new java.util.HashSet<>();
    for (Container c : listedContainers) {
      containers.put(c.id(), c);
      containerIds.add(c.id());
    }
    containers.asMap().keySet().retainAll(containerIds);
  }

  /** Adds or replaces entries without dropping others (a partial listing, such as running containers only). */
  void putAll(Collection<Pod> listedPods, Collection<Container> listedContainers) {
    listedPods.forEach(p -> pods.put(p.id(), p));
    listedContainers.forEach(c -> containers.put(c.id(), c));
  }

  long podCount() {
    pods.cleanUp();
    return pods.estimatedSize();
  }

  long containerCount() {
    containers.cleanUp();
    return containers.estimatedSize();
  }
}
