package io.winstats.exporter.otlp;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.sdk.resources.Resource;
import io.winstats.exporter.metrics.ServedFamilies;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which resource a point belongs to, from its labels: a point with a {@code pod} label is a pod's, and a container's
 * when its {@code container} label is set too; every other point is the node's. The identity labels become the
 * resource's attributes (semantic conventions {@code k8s.*} and {@code container.*}) and leave the point. Built once
 * per push: a pod's uid and a container's image are joined by name and id across families, so that every family of
 * one pod or container lands on the same resource (windows_exporter's container series carry neither).
 */
final class OtlpResources {
  /** The kind of thing a point describes. */
  enum Level {
    CONTAINER,
    POD,
    NODE
  }

  /**
   * A point's place.
   *
   * @param level container, pod or node
   * @param resource the resource it is sent under
   * @param attributes its labels less the identity ones
   */
  record Placed(Level level, Resource resource, Map<String, String> attributes) {}

  /** The labels that name a pod or container (cAdvisor's, the ephemeral-storage series', windows_exporter's). */
  static final Set<String> IDENTITY =
      Set.of("container", "container_id", "id", "image", "name", "namespace", "pod", "uid");

  private static final String POD_CGROUP = "/kubepods/pod";

  private final Resource node;
  private final Map<String, String> uids = new HashMap<>();
  private final Map<String, String> images = new HashMap<>();
  private final Map<Attributes, Resource> resources = new HashMap<>();

  OtlpResources(Resource node, List<ServedFamilies.Family> families) {
    this.node = node;
    for (ServedFamilies.Family f : families) {
      for (ServedFamilies.Point p : f.points()) {
        Map<String, String> l = p.labels();
        String pod = l.get("pod");
        if (pod == null || pod.isEmpty()) {
          continue;
        }
        String uid = uid(l);
        if (uid != null) {
          uids.putIfAbsent(podKey(l.getOrDefault("namespace", ""), pod), uid);
        }
        String id = containerId(l);
        String image = l.get("image");
        if (id != null && image != null && !image.isEmpty()) {
          images.putIfAbsent(id, image);
        }
      }
    }
  }

  Placed place(Map<String, String> labels) {
    String pod = labels.get("pod");
    if (pod == null) {
      return new Placed(Level.NODE, node, labels);
    }
    Map<String, String> rest = new LinkedHashMap<>(labels);
    rest.keySet().removeAll(IDENTITY);
    if (pod.isEmpty()) {
      return new Placed(Level.NODE, node, rest);
    }
    String namespace = labels.getOrDefault("namespace", "");
    AttributesBuilder a = Attributes.builder().put("k8s.namespace.name", namespace).put("k8s.pod.name", pod);
    String uid = uids.get(podKey(namespace, pod));
    if (uid != null) {
      a.put("k8s.pod.uid", uid);
    }
    String container = labels.get("container");
    Level level = Level.POD;
    if (container != null && !container.isEmpty()) {
      level = Level.CONTAINER;
      a.put("k8s.container.name", container);
      String id = containerId(labels);
      if (id != null) {
        a.put("container.id", id);
        String image = images.get(id);
        if (image != null) {
          a.put("container.image.name", image);
        }
      }
    }
    Resource resource = resources.computeIfAbsent(a.build(), attributes -> node.merge(Resource.create(attributes)));
    return new Placed(level, resource, rest);
  }

  /** The pod's uid: the ephemeral-storage series' {@code uid}, or cAdvisor's pod cgroup {@code /kubepods/pod<uid>}. */
  private static @Nullable String uid(Map<String, String> labels) {
    String uid = labels.get("uid");
    if (uid != null && !uid.isEmpty()) {
      return uid;
    }
    String id = labels.get("id");
    if (id == null || !id.startsWith(POD_CGROUP)) {
      return null;
    }
    int end = id.indexOf('/', POD_CGROUP.length());
    return id.substring(POD_CGROUP.length(), end < 0 ? id.length() : end);
  }

  /** cAdvisor's {@code name} (the runtime's id), or windows_exporter's {@code container_id} without its scheme. */
  private static @Nullable String containerId(Map<String, String> labels) {
    String name = labels.get("name");
    if (name != null && !name.isEmpty()) {
      return name;
    }
    String id = labels.get("container_id");
    if (id == null || id.isEmpty()) {
      return null;
    }
    int scheme = id.indexOf("://");
    return scheme < 0 ? id : id.substring(scheme + 3);
  }

  private static String podKey(String namespace, String pod) {
    return namespace + "/" + pod;
  }
}
