package io.winstats.cri;

import java.util.Objects;

/** The Kubernetes identity of a pod, from the sandbox metadata. */
public record PodRef(String name, String namespace, String uid) {
  public PodRef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(uid, "uid");
  }
}
