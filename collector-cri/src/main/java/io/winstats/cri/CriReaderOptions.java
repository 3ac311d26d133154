package io.winstats.cri;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.winstats.cri.hns.HnsPort;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What opening a {@link CriStatsReader} takes beside its endpoint, each set by name: {@link #of} gives the two every
 * caller chooses, and each {@code with...} method (generated: {@code CriReaderOptionsBuilder.With}) one more. The rest
 * start as a Linux node's reader: not a Windows host, {@code ListPodSandboxStats}, no inode counts, CRI stats, the
 * host's own HNS.
 *
 * @param callTimeout the deadline of every gRPC call (a round makes two to four calls, more on churn)
 * @param clock stamps {@link RuntimeSample#timestamp()} and times outages; the stats carry the runtime's own times
 * @param windowsHost whether this host is Windows, the caller's one answer (the daemon's {@code HostOs}): named pipes
 *     are opened only there
 * @param statsCall the CRI stats call every round makes
 * @param inodes the inode counts of the runtime's filesystems (image filesystem, writable layers)
 * @param windowsStats where a Windows node's pod figures come from: {@link WindowsStatsSource#TASKS} reads containerd's
 *     {@code Tasks.Metrics} and HNS and no CRI stats (falling back to {@code statsCall} for a part while it fails); a
 *     Linux node's caller keeps {@link WindowsStatsSource#CRI}. Off Windows HNS cannot load, so pod networks come from
 *     CRI stats
 * @param hns the Host Network Service asked for pod networks with task metrics, or {@code null} for this host's own
 *     ({@code vmcompute.dll}), loaded only when task metrics are read
 */
@RecordBuilder
public record CriReaderOptions(
    Duration callTimeout,
    Clock clock,
    boolean windowsHost,
    StatsCall statsCall,
    InodeCounter inodes,
    WindowsStatsSource windowsStats,
    @Nullable HnsPort hns)
    implements CriReaderOptionsBuilder.With {
  public CriReaderOptions {
    Objects.requireNonNull(callTimeout, "callTimeout");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(statsCall, "statsCall");
    Objects.requireNonNull(inodes, "inodes");
    Objects.requireNonNull(windowsStats, "windowsStats");
  }

  /** A Linux node's reader with this call deadline and clock. */
  public static CriReaderOptions of(Duration callTimeout, Clock clock) {
    return CriReaderOptionsBuilder.builder()
        .callTimeout(callTimeout)
        .clock(clock)
        .statsCall(StatsCall.LIST_POD_SANDBOX_STATS)
        .inodes(InodeCounter.NONE)
        .windowsStats(WindowsStatsSource.CRI)
        .build();
  }
}
