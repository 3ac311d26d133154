package io.winstats.exporter;

import io.winstats.cri.RuntimeSample;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task source's calls that fail alone on a Windows node (a process count or a layer left unmeasured, the round
 * still read with {@code Tasks.Metrics}): counted per call for {@code winstats_exporter_cri_calls_failed_total}, and
 * logged once when a call starts failing and once when it has not failed for {@link #QUIET}. A round names only the
 * calls it asked, and each is asked again only after its refresh (10 to 30 s), so a round without the call says
 * nothing of it: two minutes without a failure is a call that has answered since.
 */
final class TaskCallFailures {
  private static final Logger LOG = LoggerFactory.getLogger(TaskCallFailures.class);

  /** The calls, as the rounds name them. */
  static final List<String> CALLS = List.of("Tasks.ListPids", "Snapshots.Usage", "Introspection.Plugins");

  static final Duration QUIET = Duration.ofMinutes(2);

  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  // Guarded by this: the first and the last failure of each call failing now.
  private final Map<String, Instant> failingSince = new HashMap<>();
  private final Map<String, Instant> lastFailed = new HashMap<>();

  TaskCallFailures() {
    CALLS.forEach(call -> counts.put(call, new AtomicLong()));
  }

  /** Files the calls of one round that did not answer, and the recovery of those quiet since {@link #QUIET}. */
  synchronized void record(RuntimeSample round) {
    Instant at = round.timestamp();
    round.callsFailed().forEach(
        (call, cause) -> {
          counts.computeIfAbsent(call, c -> new AtomicLong()).incrementAndGet();
          if (failingSince.putIfAbsent(call, at) == null) {
            LOG.warn(
                "event=cri_call_failed call={} cause=\"{}\" impact=\"{}\"",
                call, cause, "those figures unmeasured until it answers; CPU and memory still from Tasks.Metrics");
          }
          lastFailed.put(call, at);
        });
    failingSince.keySet().removeIf(
        call -> {
          Instant last = lastFailed.get(call);
          if (last == null || Duration.between(last, at).compareTo(QUIET) < 0) {
            return false;
          }
          LOG.info(
              "event=cri_call_recovered call={} outage={}", call, Duration.between(failingSince.get(call), last));
          lastFailed.remove(call);
          return true;
        });
  }

  /** Failures per call since start, for the counter; every call of {@link #CALLS} present from the start. */
  Map<String, Long> counts() {
    Map<String, Long> copy = new LinkedHashMap<>();
    counts.forEach((call, n) -> copy.put(call, n.get()));
    return copy;
  }
}
