package io.winstats.cri.rounds;

import io.winstats.cri.PodSample;
import java.util.List;

/**
 * One way of reading every pod with its containers in a round: {@link PodSandboxStatsRound} or {@link
 * ContainerStatsRound}.
 */
interface StatsRound {
  /** The runtime.v1 call the round is named after, for logs. */
  String rpcName();

  /**
   * Reads every pod once.
   *
   * @throws RuntimeCalls.RpcFailure when a call fails for the round as a whole
   */
  List<PodSample> read(RoundContext round);

  /**
   * The runtime came back as another version (an in-place upgrade, as AKS does from containerd 1.7 to 2.x): what the
   * round learnt of the old one (failure clocks, plugin roots) is forgotten. Nothing by default.
   */
  default void runtimeChanged() {}
}
