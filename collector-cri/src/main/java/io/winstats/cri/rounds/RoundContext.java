package io.winstats.cri.rounds;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** One sampling round: what it left out, and its view of the host's files. Confined to the round's thread. */
final class RoundContext {
  final List<String> skipped = new ArrayList<>();
  /** Parts that fell back to CRI stats in this round for the first time ({@link io.winstats.cri.RuntimeSample}). */
  final List<String> fallbacksStarted = new ArrayList<>();
  /** Calls asked this round that did not answer, with their causes ({@link io.winstats.cri.RuntimeSample}). */
  final Map<String, String> callsFailed = new LinkedHashMap<>();
  final StatsMapper.HostView host;
  final Instant started;

  RoundContext(StatsMapper.HostView host, Instant started) {
    this.host = Objects.requireNonNull(host, "host");
    this.started = Objects.requireNonNull(started, "started");
  }

  void skip(String id, String why) {
    skipped.add(id + ": " + why);
  }
}
