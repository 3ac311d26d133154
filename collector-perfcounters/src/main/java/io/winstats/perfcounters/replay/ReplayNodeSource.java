package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.NodeSourceException.Reason;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays a PDH-CSV 4.0 counter log (typeperf, relog, a data collector set, or {@link CounterLogRecorder}) as node
 * samples.
 *
 * <p>Every sample is {@link io.winstats.perfcounters.ValueOrigin#FORMATTED}: the log holds formatted per-second
 * values and percentages, and the cumulative figures are integrated from them over the logged intervals, starting at
 * 0 at the first row (see {@link CounterLogIntegrator} for the rules). A sample's timestamp is the logged time in UTC;
 * its {@code monotonicNanos} is the logged time since the first row, so rates over replayed samples use the log's own
 * intervals.
 *
 * <p>Logged times are local times. The banner's bias converts them to UTC ({@code (PDH-CSV 4.0) (Pacific Daylight
 * Time)(420)}: UTC = local + 420 min). Localized Windows often drops the zone name and bias ({@code (PDH-CSV 4.0) (});
 * then the bias given to {@link #open} is used, or, without one, the times are taken as UTC and that is logged once.
 * Daylight-saving changes inside a log are not applied.
 *
 * <p>Timestamps: with {@link Timeline#REPLAY} (the daemon's default) a row is stamped with the moment its logged
 * offset falls in the replay (replay start + offset / speed; the call's time at infinite speed), so that a live
 * Prometheus accepts the series; with {@link Timeline#RECORDED} it keeps the logged time. Either way
 * {@code monotonicNanos} stays the logged offset, so rates use the log's own intervals.
 *
 * <p>Pacing: with a finite {@code speed}, the first call returns the first row and starts the replay clock; each later
 * call returns the last row due by then, at {@code speed} log seconds per second of the injected clock (the same row
 * again when the next is not yet due). With {@code speed} = {@link Double#POSITIVE_INFINITY} each call returns the
 * next row. Once the last row has been returned, {@link #sample()} throws {@link Reason#END_OF_LOG}. Not thread-safe.
 */
public final class ReplayNodeSource implements NodeCounterSource {
  private static final Logger LOG = LoggerFactory.getLogger(ReplayNodeSource.class);

  /** Which time a replayed sample carries. */
  public enum Timeline {
    /** The time the row was logged, converted to UTC. */
    RECORDED,
    /** The moment the row is due in this replay. */
    REPLAY
  }

  private final List<NodeSample> samples;
  private final double speed;
  private final Timeline timeline;
  private final Clock clock;
  private @Nullable Instant startedAt;
  private int lastReturned = -1;

  ReplayNodeSource(List<NodeSample> samples, double speed, Timeline timeline, Clock clock) {
    if (!(speed > 0)) {
      throw new IllegalArgumentException("replay speed must be positive: " + speed);
    }
    this.samples = List.copyOf(samples);
    this.speed = speed;
    this.timeline = Objects.requireNonNull(timeline, "timeline");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Reads, parses and integrates a counter log.
   *
   * @param file the CSV log
   * @param speed log seconds per clock second (1 = the recorded pace), or {@link Double#POSITIVE_INFINITY} for one row
   *     per call
   * @param biasMinutes the Windows bias of the logging machine's time zone (UTC = local + bias), used when the banner
   *     has none; null to take banner-less times as UTC
   * @param clock paces the replay
   * @throws NodeSourceException READ_FAILED or NOT_FOUND when the file cannot be read; MALFORMED when it is not a
   *     PDH-CSV 4.0 log or has no data row; NOT_FOUND when the log holds no counter any node part can be built from
   * @throws IllegalArgumentException when speed is not positive
   */
  public static ReplayNodeSource open(
      Path file, double speed, @Nullable Integer biasMinutes, Timeline timeline, Clock clock) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new NodeSourceException(Reason.NOT_FOUND, file + ": no such file", e);
    } catch (IOException e) {
      throw new NodeSourceException(Reason.READ_FAILED, file + ": " + e, e);
    }
    CounterLog log = PdhCsv.parse(bytes);
    if (log.rows().isEmpty()) {
      throw new NodeSourceException(Reason.MALFORMED, file + ": the log has no data row");
    }
    ZoneOffset offset = offset(file, log, biasMinutes);
    CounterLogIntegrator integrated = CounterLogIntegrator.integrate(log, offset);
    Map<NodePart, String> unavailable = integrated.unavailable();
    if (unavailable.keySet().containsAll(NodePart.counterParts())) {
      throw new NodeSourceException(
          Reason.NOT_FOUND, file + ": the log holds no counter a node part can be built from: " + unavailable);
    }
    LOG.info(
        "event=source_opened source=replay file={} host={} rows={} dropped_rows={} charset={} utc_offset={} speed={}",
        file,
        integrated.host(),
        log.rows().size(),
        log.droppedRows(),
        log.charset(),
        offset,
        speed);
    unavailable.forEach(
        (part, reason) -> LOG.info("event=part_unavailable source=replay part={} reason={}", part, reason));
    return new ReplayNodeSource(integrated.samples(), speed, timeline, clock);
  }

  private static ZoneOffset offset(Path file, CounterLog log, @Nullable Integer biasMinutes) {
    Integer bias = log.biasMinutes() != null ? log.biasMinutes() : biasMinutes;
    if (bias == null) {
      LOG.info(
          "event=replay_time_zone_unknown source=replay file={} banner={} assumed=UTC", file, log.banner());
      return ZoneOffset.UTC;
    }
    return ZoneOffset.ofTotalSeconds(-bias * 60);
  }

  @Override
  public String name() {
    return "replay";
  }

  @Override
  public NodePlatform platform() {
    return NodePlatform.WINDOWS;
  }

  /** The number of rows in the log. */
  public int rowCount() {
    return samples.size();
  }

  @Override
  public NodeSample sample() {
    int next = nextRow();
    if (next == lastReturned && next == samples.size() - 1) {
      throw new NodeSourceException(Reason.END_OF_LOG, "replay: all " + samples.size() + " rows were returned");
    }
    lastReturned = next;
    NodeSample sample = samples.get(next);
    if (sample.missing().keySet().containsAll(NodePart.counterParts())) {
      throw new NodeSourceException(Reason.NOT_FOUND, "replay: row " + next + " has no part: " + sample.missing());
    }
    return timeline == Timeline.RECORDED ? sample : restamped(sample);
  }

  private NodeSample restamped(NodeSample sample) {
    Instant at =
        Double.isInfinite(speed) || startedAt == null
            ? clock.instant()
            : startedAt.plusNanos(Math.round(sample.monotonicNanos() / speed));
    return sample.toBuilder(at).build();
  }

  private int nextRow() {
    if (Double.isInfinite(speed)) {
      return Math.min(lastReturned + 1, samples.size() - 1);
    }
    Instant now = clock.instant();
    if (startedAt == null) {
      startedAt = now;
      return 0;
    }
    double elapsedLogNanos = Duration.between(startedAt, now).toNanos() * speed;
    int row = Math.max(lastReturned, 0);
    while (row + 1 < samples.size() && samples.get(row + 1).monotonicNanos() <= elapsedLogNanos) {
      row++;
    }
    return row;
  }

  /** Holds no OS handle: the log was read whole at {@link #open}. */
  @Override
  public void close() {}
}
