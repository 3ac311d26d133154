package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.counters.CounterHealth;
import io.winstats.perfcounters.counters.RawKind;
import io.winstats.perfcounters.pdh.PdhLibrary.PdhCounter;
import io.winstats.perfcounters.pdh.PdhLibrary.PdhQuery;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounterItem;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * One PDH query for one perf object: its counters (declared and custom), their health, and reading them as raw arrays.
 *
 * <p>Lifecycle: {@link #open(Instant)} opens the query, adds every counter with {@code PdhAddEnglishCounterW}, reads
 * each counter's type and time base, and primes the query with one collect ({@code PDH_NO_DATA} from it is expected
 * and ignored). A counter whose type lookup fails after its add is taken out of the query again ({@code
 * PdhRemoveCounter}), so the query holds only counters it tracks. A counter whose add failed for a reason other than a
 * malformed path is added again on a later
 * {@link #collect(Instant)}, with a growing backoff: the first retry after the retry interval, each further one after
 * twice the previous wait, up to the longest retry interval; success resets it. An object that is absent (PerfProc
 * disabled, a driver's counters not installed) usually stays absent, so retrying every minute forever only costs.
 * When an added counter, or the whole collect, reports that its object, counter or handle is gone, the query is
 * closed and rebuilt on a later collect: the counter registry may have been rewritten under us, and old handles stay
 * dead until re-added.
 *
 * <p>Logging: one WARN line when a counter enters a failing state or changes its failure
 * ({@code event=pdh_counter_failed}), one INFO line when it recovers ({@code event=pdh_counter_recovered}, with the
 * outage), nothing per sample.
 *
 * <p>Not thread-safe: confined to the sampling thread.
 */
final class ObjectQuery {

  /** A counter in this query and its state. */
  static final class Tracked {
    final String path;
    final @Nullable RawKind kind;
    @Nullable PdhCounter handle;
    int type;
    long timeBase;
    boolean addable = true;
    boolean ok = true;
    String status = "OK";
    String call = "";
    Instant since;
    int skipped;
    @Nullable String addFailure;

    Tracked(String path, @Nullable RawKind kind, Instant since) {
      this.path = path;
      this.kind = kind;
      this.since = since;
    }

    CounterHealth health() {
      return new CounterHealth(path, ok, status, call, since, skipped);
    }
  }

  /**
   * What one counter gave in one collect.
   *
   * @param failure the status name when the counter gave nothing, else {@code null}
   * @param type the counter's actual {@code dwType}
   * @param timeBase ticks per second of its time base, or 0 when it has none
   * @param items valid items by ({@code #n}-disambiguated) instance name, in PDH's order
   * @param handle the counter handle the items came from
   */
  record Reading(
      String path,
      @Nullable String failure,
      int type,
      long timeBase,
      Map<String, RawCounter> items,
      @Nullable PdhCounter handle) {
    boolean ok() {
      return failure == null;
    }
  }

  /**
   * One collect of the query.
   *
   * @param collectedAt the source clock right after the collect, or {@code null} when the collect failed. Not PDH's
   *     own stamp: that is a local-time FILETIME, which a zone or daylight-saving change moves by hours.
   * @param monotonicNanos the monotonic clock right after the collect
   */
  record Collected(@Nullable Instant collectedAt, long monotonicNanos, Map<String, Reading> byPath) {
    /** The reading of {@code path}; a failed reading if the path is unknown. */
    Reading get(String path) {
      Reading r = byPath.get(key(path));
      return r != null ? r : new Reading(path, "NOT_ADDED", 0, 0, Map.of(), null);
    }
  }

  private final PdhLibrary lib;
  private final String object;
  private final Logger log;
  private final Duration retryInterval;
  private final Duration maxRetryInterval;
  private final LongSupplier nanoTime;
  private final Clock clock;
  private final Map<String, Tracked> counters = new LinkedHashMap<>();
  private @Nullable PdhQuery query;
  private boolean rebuild;
  private Instant nextRetry = Instant.MIN;
  private Duration backoff;

  /**
   * @param retryInterval the wait before the first retry of a failed add or rebuild
   * @param maxRetryInterval the longest wait the backoff grows to
   */
  ObjectQuery(
      PdhLibrary lib,
      String object,
      Logger log,
      Duration retryInterval,
      Duration maxRetryInterval,
      LongSupplier nanoTime,
      Clock clock) {
    this.lib = lib;
    this.object = object;
    this.log = log;
    this.retryInterval = retryInterval;
    this.maxRetryInterval = maxRetryInterval;
    this.backoff = retryInterval;
    this.nanoTime = nanoTime;
    this.clock = clock;
  }

  static String key(String path) {
    return path.toLowerCase(Locale.ROOT);
  }

  /** The perf object. */
  String object() {
    return object;
  }

  /** Declares a counter; call before {@link #open(Instant)}. Declaring a path twice keeps the first. */
  void declare(String path, @Nullable RawKind kind, Instant now) {
    counters.putIfAbsent(key(path), new Tracked(path, kind, now));
  }

  /** Opens the query and adds every declared counter. Failures are recorded per counter, never thrown. */
  void open(Instant now) {
    openQuery(now);
    scheduleRetry(now);
  }

  /** Whether a counter waits to be added again or the query to be rebuilt. */
  private boolean needsRetry() {
    return query == null || rebuild || counters.values().stream().anyMatch(t -> t.addable && t.handle == null);
  }

  private void scheduleRetry(Instant now) {
    if (!needsRetry()) {
      backoff = retryInterval;
      return;
    }
    nextRetry = now.plus(backoff);
    Duration doubled = backoff.multipliedBy(2);
    backoff = doubled.compareTo(maxRetryInterval) > 0 ? maxRetryInterval : doubled;
  }

  private void openQuery(Instant now) {
    rebuild = false;
    try {
      query = lib.openQuery();
    } catch (PdhException e) {
      query = null;
      for (Tracked t : counters.values()) {
        t.handle = null;
        fail(t, e.statusName(), e.call(), now);
      }
      return;
    }
    for (Tracked t : counters.values()) {
      t.handle = null;
      if (t.addable) {
        add(t, now);
      }
    }
    if (counters.values().stream().noneMatch(t -> t.handle != null)) {
      closeQuery();
      return;
    }
    prime();
  }

  private void add(Tracked t, Instant now) {
    PdhQuery q = query;
    if (q == null) {
      return;
    }
    try {
      PdhCounter c = lib.addEnglishCounter(q, t.path);
      PdhLibrary.CounterInfo info;
      try {
        info = lib.counterInfo(c);
      } catch (PdhException e) {
        // Added but untyped: its raw values cannot be read, so take it out rather than collect it untracked.
        remove(c);
        throw e;
      }
      t.type = info.type();
      t.timeBase = timeBase(c);
      t.handle = c;
      t.addFailure = null;
      if (t.kind != null && PerfCounterType.documented(t.kind) != t.type) {
        log.info(
            "event=pdh_counter_type path={} expected={} actual={}",
            t.path,
            PerfCounterType.hex(PerfCounterType.documented(t.kind)),
            PerfCounterType.hex(t.type));
      }
    } catch (PdhException e) {
      t.addFailure = e.statusName();
      if (e.status().map(s -> s.kind() == PdhStatus.Kind.PERMANENT).orElse(false)) {
        t.addable = false;
      }
      fail(t, e.statusName(), e.call(), now);
    }
  }

  /**
   * {@code PdhRemoveCounter} of a counter this query does not track. Should PDH refuse, the query is rebuilt on a later
   * collect: closing it frees every counter it holds.
   */
  private void remove(PdhCounter c) {
    try {
      lib.removeCounter(c);
    } catch (PdhException e) {
      log.debug("event=pdh_remove_failed path={} status={}", c.path(), e.statusName());
      rebuild = true;
    }
  }

  private long timeBase(PdhCounter c) {
    try {
      return lib.counterTimeBase(c);
    } catch (PdhException e) {
      // PDH_INVALID_ARGUMENT: the counter has no time base.
      return 0;
    }
  }

  private void prime() {
    PdhQuery q = query;
    if (q == null) {
      return;
    }
    try {
      lib.collectQueryData(q);
    } catch (PdhException e) {
      log.debug("event=pdh_prime_collect object={} status={}", object, e.statusName());
    }
  }

  /** Collects the query and reads every added counter. Never throws {@link PdhException}. */
  Collected collect(Instant now) {
    if (needsRetry() && !now.isBefore(nextRetry)) {
      if (query == null || rebuild) {
        closeQuery();
        openQuery(now);
      } else {
        for (Tracked t : counters.values()) {
          if (t.addable && t.handle == null) {
            add(t, now);
          }
        }
      }
      scheduleRetry(now);
    }
    Map<String, Reading> out = new LinkedHashMap<>();
    PdhQuery q = query;
    if (q == null) {
      for (Map.Entry<String, Tracked> e : counters.entrySet()) {
        out.put(e.getKey(), failed(e.getValue()));
      }
      return new Collected(null, nanoTime.getAsLong(), out);
    }
    try {
      lib.collectQueryData(q);
    } catch (PdhException e) {
      long mono = nanoTime.getAsLong();
      if (gone(e)) {
        rebuild = true;
      }
      for (Map.Entry<String, Tracked> entry : counters.entrySet()) {
        Tracked t = entry.getValue();
        if (t.handle != null) {
          fail(t, e.statusName(), e.call(), now);
        }
        out.put(entry.getKey(), failed(t));
      }
      return new Collected(null, mono, out);
    }
    long mono = nanoTime.getAsLong();
    Instant collectedAt = clock.instant();
    for (Map.Entry<String, Tracked> entry : counters.entrySet()) {
      out.put(entry.getKey(), read(entry.getValue(), now));
    }
    return new Collected(collectedAt, mono, out);
  }

  private Reading read(Tracked t, Instant now) {
    PdhCounter c = t.handle;
    if (c == null) {
      return failed(t);
    }
    List<RawCounterItem> items;
    try {
      items = lib.rawCounterArray(c);
    } catch (PdhException e) {
      if (gone(e)) {
        rebuild = true;
      }
      fail(t, e.statusName(), e.call(), now);
      return failed(t);
    }
    List<String> names = new ArrayList<>(items.size());
    for (RawCounterItem item : items) {
      names.add(item.instance());
    }
    names = InstanceNames.disambiguate(names);
    Map<String, RawCounter> valid = new LinkedHashMap<>();
    int skipped = 0;
    @Nullable String firstBad = null;
    boolean wide = PerfCounterType.is64Bit(t.type);
    for (int i = 0; i < items.size(); i++) {
      RawCounter raw = items.get(i).value();
      String bad = null;
      if (!PdhStatus.isValidItemStatus(raw.cStatus())) {
        bad = PdhStatus.describe(raw.cStatus());
      } else if (wide && raw.firstValue() < 0) {
        bad = PdhStatus.PDH_CALC_NEGATIVE_VALUE.name();
      }
      if (bad != null) {
        skipped++;
        if (firstBad == null) {
          firstBad = bad;
        }
        log.debug("event=pdh_item_skipped path={} instance={} status={}", t.path, names.get(i), bad);
      } else {
        valid.put(names.get(i), raw);
      }
    }
    if (!items.isEmpty() && valid.isEmpty() && firstBad != null) {
      t.skipped = skipped;
      fail(t, firstBad, "PdhGetRawCounterArrayW", now);
      return failed(t);
    }
    succeed(t, skipped, now);
    return new Reading(t.path, null, t.type, t.timeBase, Collections.unmodifiableMap(valid), c);
  }

  private static boolean gone(PdhException e) {
    return e.status().map(s -> s.kind() == PdhStatus.Kind.MISSING || s == PdhStatus.PDH_INVALID_HANDLE
        || s == PdhStatus.PDH_CSTATUS_NO_MACHINE).orElse(false);
  }

  private static Reading failed(Tracked t) {
    return new Reading(t.path, t.ok ? "NOT_READ" : t.status, t.type, t.timeBase, Map.of(), t.handle);
  }

  private void fail(Tracked t, String status, String call, Instant now) {
    if (t.ok || !t.status.equals(status)) {
      log.warn("event=pdh_counter_failed path={} status={} call={}", t.path, status, call);
      t.since = now;
    }
    t.ok = false;
    t.status = status;
    t.call = call;
  }

  private void succeed(Tracked t, int skipped, Instant now) {
    if (!t.ok) {
      log.info(
          "event=pdh_counter_recovered path={} status={} outage={}",
          t.path,
          t.status,
          Duration.between(t.since, now));
      t.since = now;
    }
    t.ok = true;
    t.status = "OK";
    t.call = "";
    t.skipped = skipped;
  }

  /** Health of every declared counter, in declaration order. */
  List<CounterHealth> health() {
    List<CounterHealth> out = new ArrayList<>(counters.size());
    for (Tracked t : counters.values()) {
      out.add(t.health());
    }
    return out;
  }

  /** Paths whose add failed, with the status, as of now. */
  Map<String, String> addFailures() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Tracked t : counters.values()) {
      if (t.addFailure != null) {
        out.put(t.path, t.addFailure);
      }
    }
    return out;
  }

  /** Closes the query; counters keep their declarations and health. */
  void closeQuery() {
    PdhQuery q = query;
    query = null;
    for (Tracked t : counters.values()) {
      t.handle = null;
    }
    if (q != null) {
      try {
        lib.closeQuery(q);
      } catch (PdhException e) {
        log.debug("event=pdh_close_failed object={} status={}", object, e.statusName());
      }
    }
  }
}
