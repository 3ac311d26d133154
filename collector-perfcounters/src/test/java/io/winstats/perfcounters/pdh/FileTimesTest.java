package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class FileTimesTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

  /** FILETIME ticks of a wall-clock reading. */
  private static long ticks(String localDateTime) {
    return FileTimes.toLocalFileTime(LocalDateTime.parse(localDateTime).toInstant(ZoneOffset.UTC), ZoneOffset.UTC);
  }

  @Test
  void unixEpochIsTheKnownFileTime() {
    assertThat(FileTimes.utcToInstant(116_444_736_000_000_000L)).isEqualTo(Instant.EPOCH);
    assertThat(FileTimes.utcToInstant(116_444_736_000_000_001L)).isEqualTo(Instant.EPOCH.plusNanos(100));
    assertThat(FileTimes.utcToInstant(0)).isEqualTo(Instant.parse("1601-01-01T00:00:00Z"));
  }

  @Test
  void localWinterAndSummerTimesUseTheirOwnOffsets() {
    Instant near = Instant.parse("2025-06-01T00:00:00Z");
    assertThat(FileTimes.localToInstant(ticks("2025-01-15T11:00:00"), BERLIN, near))
        .isEqualTo(Instant.parse("2025-01-15T10:00:00Z"));
    assertThat(FileTimes.localToInstant(ticks("2025-07-15T11:00:00"), BERLIN, near))
        .isEqualTo(Instant.parse("2025-07-15T09:00:00Z"));
    assertThat(FileTimes.localToInstant(ticks("2025-07-15T11:00:00"), NEW_YORK, near))
        .isEqualTo(Instant.parse("2025-07-15T15:00:00Z"));
  }

  @Test
  void theRepeatedFallBackHourIsResolvedTowardsTheReference() {
    long local = ticks("2025-10-26T02:30:00");
    Instant summer = Instant.parse("2025-10-26T00:30:00Z");
    Instant winter = Instant.parse("2025-10-26T01:30:00Z");

    assertThat(FileTimes.localToInstant(local, BERLIN, summer.plusSeconds(1))).isEqualTo(summer);
    assertThat(FileTimes.localToInstant(local, BERLIN, winter.plusSeconds(1))).isEqualTo(winter);
  }

  @Test
  void aTimeInTheSpringForwardGapIsShiftedForward() {
    assertThat(FileTimes.localToInstant(ticks("2025-03-30T02:30:00"), BERLIN, Instant.EPOCH))
        .isEqualTo(Instant.parse("2025-03-30T01:30:00Z"));
  }

  @Test
  void subSecondTicksSurviveTheRoundTrip() {
    Instant t = Instant.parse("2025-01-15T10:00:00.1234567Z");
    assertThat(FileTimes.localToInstant(FileTimes.toLocalFileTime(t, BERLIN), BERLIN, t)).isEqualTo(t);
  }
}
