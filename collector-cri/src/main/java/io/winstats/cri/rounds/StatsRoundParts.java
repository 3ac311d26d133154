package io.winstats.cri.rounds;

import java.util.Objects;

/**
 * What each {@link StatsRound} reads through, the same for all three.
 *
 * @param context the reader's endpoint, call deadline and clocks
 * @param calls the runtime service's calls
 * @param lists the list calls, streamed where the runtime can
 * @param identities the pods' and containers' identity
 * @param mapper the CRI stats into samples, with the CPU rates
 * @param podCpu the pods' cumulative CPU over exited and restarted containers
 */
record StatsRoundParts(
    RuntimeContext context,
    RuntimeCalls calls,
    ListCalls lists,
    IdentityLister identities,
    StatsMapper mapper,
    PodCpuTotals podCpu) {
  StatsRoundParts {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(calls, "calls");
    Objects.requireNonNull(lists, "lists");
    Objects.requireNonNull(identities, "identities");
    Objects.requireNonNull(mapper, "mapper");
    Objects.requireNonNull(podCpu, "podCpu");
  }
}
