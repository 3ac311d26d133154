package io.winstats.perfcounters;

import java.util.Locale;

/**
 * The kind of node a {@link NodeCounterSource} describes, which decides the names the daemon serves its figures under
 * (windows_exporter's or node_exporter's) and how the kubelet's views read them. It follows the source, not the host
 * the JVM runs on: a Windows counter log replayed on Linux describes a Windows node.
 */
public enum NodePlatform {
  WINDOWS,
  LINUX;

  /** {@code windows} or {@code linux}, as Kubernetes' {@code kubernetes.io/os} label spells them. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
