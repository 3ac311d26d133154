package io.winstats.cri.rounds;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodRef;
import io.winstats.cri.ResourceSpec;
import io.winstats.cri.api.Container;
import io.winstats.cri.api.ContainerFilter;
import io.winstats.cri.api.ContainerState;
import io.winstats.cri.api.ContainerStateValue;
import io.winstats.cri.api.ContainerStatus;
import io.winstats.cri.api.ContainerStatusRequest;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxFilter;
import io.winstats.cri.api.PodSandboxState;
import io.winstats.cri.api.PodSandboxStateValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Fills {@link RuntimeMetadata} from {@code ListPodSandbox}, {@code ListContainers} (or their streams, {@link
 * ListCalls}), once per new container {@code
 * ContainerStatus} and once per new ready sandbox the verbose {@code PodSandboxStatus} ({@link HostProcessLookup}):
 * the identity (creation times, labels, image, log path, resources, HostProcess or not) the stats calls lack.
 */
final class IdentityLister {
  private static final Pattern BARE_IMAGE_ID = Pattern.compile("[0-9a-f]{64}");

  private final RuntimeCalls calls;
  private final ListCalls lists;
  private final RuntimeMetadata metadata;
  private final HostProcessLookup hostProcess;

  IdentityLister(RuntimeCalls calls, ListCalls lists, RuntimeMetadata metadata, HostProcessLookup hostProcess) {
    this.calls = Objects.requireNonNull(calls, "calls");
    this.lists = Objects.requireNonNull(lists, "lists");
    this.metadata = Objects.requireNonNull(metadata, "metadata");
    this.hostProcess = Objects.requireNonNull(hostProcess, "hostProcess");
  }

  RuntimeMetadata metadata() {
    return metadata;
  }

  /**
   * Whether the cache knows every pod id fully: a miss means a pod appeared since the last pod listing, or a pod's
   * HostProcess lookup failed and is due again; either way the pods are to be listed again.
   */
  boolean knowsPods(Collection<String> podIds) {
    if (!metadata.knowsPods(podIds)) {
      return false;
    }
    for (String id : podIds) {
      if (hostProcess.mayAskAgain(id)) {
        return false;
      }
    }
    return true;
  }

  /** {@code ListPodSandbox}, of ready sandboxes only or of all. */
  List<PodSandbox> pods(boolean readyOnly) {
    return lists.podSandboxes(
        readyOnly
            ? PodSandboxFilter.newBuilder()
                .setState(PodSandboxStateValue.newBuilder().setState(PodSandboxState.SANDBOX_READY))
                .build()
            : PodSandboxFilter.getDefaultInstance());
  }

  /** {@code ListContainers} of running containers. */
  List<Container> runningContainers() {
    return lists.containers(
        ContainerFilter.newBuilder()
            .setState(ContainerStateValue.newBuilder().setState(ContainerState.CONTAINER_RUNNING))
            .build());
  }

  /**
   * Lists every container, of any state, and makes the cache hold exactly them; pods are listed too when
   * {@code podsKnown} is false. The containers are listed every round, as the kubelet does ({@code listPodStats} in
   * kubernetes {@code pkg/kubelet/stats/cri_stats_provider.go}), because a container's state changes under the same
   * id: an init container that completes is still listed, as {@code CONTAINER_EXITED}.
   */
  void refresh(boolean podsKnown) {
    if (podsKnown) {
      metadata.replaceContainers(containerMetadata(allContainers()));
    } else {
      List<PodSandbox> sandboxes = pods(false);
      replaceAll(sandboxes, allContainers());
    }
  }

  private List<Container> allContainers() {
    return lists.containers(ContainerFilter.getDefaultInstance());
  }

  /** Makes the cache hold exactly {@code sandboxes} and {@code containers}. */
  void replaceAll(List<PodSandbox> sandboxes, List<Container> containers) {
    metadata.replaceAll(podMetadata(sandboxes), containerMetadata(containers));
  }

  private List<RuntimeMetadata.Pod> podMetadata(List<PodSandbox> sandboxes) {
    List<RuntimeMetadata.Pod> pods = new ArrayList<>(sandboxes.size());
    for (PodSandbox p : sandboxes) {
      HostProcessLookup.Facts facts = facts(p);
      pods.add(
          new RuntimeMetadata.Pod(
              p.getId(),
              new PodRef(p.getMetadata().getName(), p.getMetadata().getNamespace(), p.getMetadata().getUid()),
              Integer.toUnsignedLong(p.getMetadata().getAttempt()),
              StatsMapper.instant(p.getCreatedAt(), Instant.EPOCH),
              p.getLabelsMap(),
              facts.hostProcess(),
              facts.netNamespace()));
    }
    return pods;
  }

  /**
   * The sandbox's HostProcess flag and network namespace: the cached ones, else asked of the runtime if the sandbox
   * is ready (a sandbox never becomes ready again once stopped, and reports no stats), else unknown.
   */
  private HostProcessLookup.Facts facts(PodSandbox p) {
    RuntimeMetadata.Pod known = metadata.pod(p.getId());
    if (known != null && !hostProcess.mayAskAgain(p.getId())) {
      return new HostProcessLookup.Facts(known.hostProcess(), known.netNamespace());
    }
    return p.getState() == PodSandboxState.SANDBOX_READY
        ? hostProcess.ask(p.getId())
        : HostProcessLookup.Facts.UNKNOWN;
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
              state(c.getState()),
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
      return calls
          .call(
              "ContainerStatus",
              s -> s.containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build()))
          .getStatus();
    } catch (RuntimeCalls.RpcFailure f) {
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

  static ContainerSample.State state(ContainerState state) {
    return switch (state) {
      case CONTAINER_CREATED -> ContainerSample.State.CREATED;
      case CONTAINER_RUNNING -> ContainerSample.State.RUNNING;
      case CONTAINER_EXITED -> ContainerSample.State.EXITED;
      case CONTAINER_UNKNOWN, UNRECOGNIZED -> ContainerSample.State.UNKNOWN;
    };
  }

  static boolean looksLikeImageId(String image) {
    return image.startsWith("sha256:") || BARE_IMAGE_ID.matcher(image).matches();
  }
}
