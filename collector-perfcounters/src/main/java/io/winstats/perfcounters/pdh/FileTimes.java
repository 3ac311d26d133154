package io.winstats.perfcounters.pdh;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

/**
 * FILETIME (100 ns ticks since 1601-01-01) conversions.
 *
 * <p>PDH stamps collections ({@code PdhCollectQueryDataWithTime}, {@code PDH_RAW_COUNTER.TimeStamp}) with a FILETIME in
 * <b>local</b> time (Microsoft's {@code PDH_RAW_COUNTER} page; OSHI converts it the same way). Read as UTC it would be
 * off by the zone offset. {@link #localToInstant(long, ZoneId, Instant)} reads the ticks as a local date-time and
 * applies the zone's rules for that date-time, so daylight-saving changes are honoured. In the repeated hour after a
 * fall-back change a local time names two instants; the one nearer to a reference instant (the source's clock at the
 * sample) is chosen. A local time inside a spring-forward gap cannot come from Windows; it is shifted forward by the
 * gap, as {@link java.time.ZonedDateTime#ofLocal} does.
 *
 * <p>Stateless and thread-safe.
 */
final class FileTimes {
  /** 100 ns ticks from 1601-01-01 to 1970-01-01. */
  static final long EPOCH_OFFSET_TICKS = 116_444_736_000_000_000L;

  private static final long TICKS_PER_SECOND = 10_000_000L;

  private FileTimes() {}

  /** A FILETIME that counts UTC ticks, as an instant. */
  static Instant utcToInstant(long fileTime) {
    long sinceEpoch = fileTime - EPOCH_OFFSET_TICKS;
    return Instant.ofEpochSecond(
        Math.floorDiv(sinceEpoch, TICKS_PER_SECOND), Math.floorMod(sinceEpoch, TICKS_PER_SECOND) * 100);
  }

  /** The wall-clock reading a local FILETIME holds. */
  static LocalDateTime toLocalDateTime(long localFileTime) {
    return LocalDateTime.ofInstant(utcToInstant(localFileTime), ZoneOffset.UTC);
  }

  /**
   * A local FILETIME as an instant.
   *
   * @param localFileTime ticks since 1601-01-01 on the wall clock of {@code zone}
   * @param zone the machine's time zone
   * @param near an instant close to the reading, used only to resolve the repeated hour of a fall-back change
   */
  static Instant localToInstant(long localFileTime, ZoneId zone, Instant near) {
    LocalDateTime local = toLocalDateTime(localFileTime);
    List<ZoneOffset> offsets = zone.getRules().getValidOffsets(local);
    if (offsets.size() == 1) {
      return local.toInstant(offsets.get(0));
    }
    if (offsets.isEmpty()) {
      return local.atZone(zone).toInstant();
    }
    Instant best = local.toInstant(offsets.get(0));
    for (ZoneOffset offset : offsets) {
      Instant candidate = local.toInstant(offset);
      if (Duration.between(candidate, near).abs().compareTo(Duration.between(best, near).abs()) < 0) {
        best = candidate;
      }
    }
    return best;
  }

  /** An instant as a FILETIME on the wall clock of {@code zone} (for tests and fixtures). */
  static long toLocalFileTime(Instant instant, ZoneId zone) {
    LocalDateTime local = LocalDateTime.ofInstant(instant, zone);
    Instant asIfUtc = local.toInstant(ZoneOffset.UTC);
    return Math.addExact(
        Math.multiplyExact(asIfUtc.getEpochSecond(), TICKS_PER_SECOND) + asIfUtc.getNano() / 100,
        EPOCH_OFFSET_TICKS);
  }
}
