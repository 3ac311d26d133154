package io.winstats.cri;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.hns.HnsPort;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Each option is set by its name alone, and what is not set is a Linux node's reader. */
class CriReaderOptionsTest {
  private static final Duration TIMEOUT = Duration.ofMillis(750);
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-28T10:00:00Z"), ZoneOffset.UTC);

  @Test
  void whatIsNotSetIsALinuxNodesReader() {
    assertThat(CriReaderOptions.of(TIMEOUT, CLOCK))
        .isEqualTo(
            new CriReaderOptions(
                TIMEOUT,
                CLOCK,
                false,
                StatsCall.LIST_POD_SANDBOX_STATS,
                InodeCounter.NONE,
                WindowsStatsSource.CRI,
                null));
  }

  @Test
  void eachWithSetsItsOwnOptionAndKeepsTheOthers() {
    InodeCounter inodes = (Path path) -> new InodeCounter.Inodes(100, 42);
    HnsPort hns = (method, path, request) -> "{\"Success\":true}";

    CriReaderOptions options =
        CriReaderOptions.of(TIMEOUT, CLOCK)
            .withWindowsHost(true)
            .withStatsCall(StatsCall.LIST_CONTAINER_STATS)
            .withInodes(inodes)
            .withWindowsStats(WindowsStatsSource.TASKS)
            .withHns(hns);

    assertThat(options)
        .isEqualTo(
            new CriReaderOptions(
                TIMEOUT, CLOCK, true, StatsCall.LIST_CONTAINER_STATS, inodes, WindowsStatsSource.TASKS, hns));
    assertThat(options.withWindowsHost(false))
        .isEqualTo(
            new CriReaderOptions(
                TIMEOUT, CLOCK, false, StatsCall.LIST_CONTAINER_STATS, inodes, WindowsStatsSource.TASKS, hns));
  }
}
