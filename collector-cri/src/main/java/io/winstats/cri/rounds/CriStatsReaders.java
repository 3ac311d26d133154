package io.winstats.cri.rounds;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.InodeCounter;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.StatsCall;
import io.winstats.cri.WindowsStatsSource;
import java.time.Clock;
import java.time.Duration;

/** Opens a {@link CriStatsReader} on a runtime's endpoint; the one public class of the rounds behind it. */
public final class CriStatsReaders {
  private CriStatsReaders() {}

  /**
   * Opens a reader on {@code endpoint}. Does not connect, so it neither blocks nor fails while the runtime is down.
   *
   * @param callTimeout the deadline of every gRPC call (a round makes two to four calls, more on churn)
   * @param clock stamps {@link RuntimeSample#timestamp()} and times outages; the stats carry the runtime's own times
   * @param windowsHost whether this host is Windows, the caller's one answer (the daemon's {@code HostOs}): named
   *     pipes are opened only there
   * @throws CriException with {@link CriException.Reason#UNAVAILABLE} if this platform has no transport for the
   *     endpoint (a named pipe off Windows)
   */
  public static CriStatsReader open(CriEndpoint endpoint, Duration callTimeout, Clock clock, boolean windowsHost) {
    return RuntimeStatsReader.open(endpoint, callTimeout, clock, windowsHost);
  }

  /**
   * As {@link #open(CriEndpoint, Duration, Clock, boolean)}, reading every round with {@code call}, and with the inode
   * counts of the runtime's filesystems (image filesystem, writable layers) from {@code inodes}.
   */
  public static CriStatsReader open(
      CriEndpoint endpoint,
      Duration callTimeout,
      Clock clock,
      StatsCall call,
      InodeCounter inodes,
      boolean windowsHost) {
    return RuntimeStatsReader.open(endpoint, callTimeout, clock, call, inodes, windowsHost);
  }

  /**
   * As {@link #open(CriEndpoint, Duration, Clock, StatsCall, InodeCounter, boolean)}, with the figures from {@code
   * windowsSource}: {@link WindowsStatsSource#TASKS} reads containerd's {@code Tasks.Metrics} and HNS and no CRI stats
   * (falling back to {@code call} for a part while it fails), for a Windows node's pods: the caller passes {@link
   * WindowsStatsSource#CRI} for a Linux node. Off Windows HNS cannot load, so pod networks come from CRI stats.
   */
  public static CriStatsReader open(
      CriEndpoint endpoint,
      Duration callTimeout,
      Clock clock,
      StatsCall call,
      InodeCounter inodes,
      boolean windowsHost,
      WindowsStatsSource windowsSource) {
    return RuntimeStatsReader.open(endpoint, callTimeout, clock, call, inodes, windowsHost, windowsSource);
  }
}
