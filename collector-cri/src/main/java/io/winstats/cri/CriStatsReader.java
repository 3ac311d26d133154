package io.winstats.cri;

import java.util.Map;

/**
 * Pod and container stats of one container runtime, read over CRI runtime.v1: one {@link RuntimeSample} per {@link
 * #sample()} call. Opened by {@code cri.rounds.CriStatsReaders}; the rounds behind it (which calls, the caches, the
 * transport) are that package's own.
 *
 * <p>Sample from one loop: CPU rates are deltas between this reader's consecutive readings of an instance.
 * Thread-safe.
 */
public interface CriStatsReader extends AutoCloseable {

  /** The collector name the exporter labels this source with: {@code cri}. */
  String name();

  /**
   * Reads every pod and container once.
   *
   * @return the pods (possibly none) with the runtime's name and version, and what was skipped
   * @throws CriException when the round as a whole failed, with the {@link CriException.Reason}; gRPC's status never
   *     leaves this module; also after {@link #close()}
   */
  RuntimeSample sample();

  /**
   * Entries in the reader's caches by name ({@code pod_identities}, {@code container_identities}, {@code
   * cpu_readings}, {@code pod_cpu_totals}; with Windows task metrics also {@code task_process_counts} and {@code
   * writable_layers}), read at scrape time; after churn they fall back to what the node runs.
   */
  Map<String, Long> cacheEntries();

  /**
   * How often each CRI list stream (KEP-5825: {@code StreamPodSandboxStats}, {@code StreamContainerStats}, {@code
   * StreamPodSandboxes}, {@code StreamContainers}) was found missing from the runtime ({@code UNIMPLEMENTED}) and its
   * unary list call used instead, by the stream's name, every name present from the start. A runtime is asked again
   * after it restarts, so a count that grows after the first rounds means a runtime that keeps restarting.
   */
  Map<String, Long> streamFallbacks();

  /**
   * The call the last round read its pods with: {@code ListPodSandboxStats}, {@code ListContainerStats} (chosen, or
   * because the runtime lacks the other), or the Windows task metrics' path; what {@code check} names per call.
   */
  String statsPath();

  /** Releases the connection and its threads; idempotent. */
  @Override
  void close();
}
