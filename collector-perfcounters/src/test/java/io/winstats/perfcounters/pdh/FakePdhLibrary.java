package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.RawKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A hand-written PDH: counters exist when their type is configured and their object is present; a collect snapshots
 * the current frame (raw items per path) into the query, and the array calls return that snapshot, as PDH does.
 *
 * <p>Failure modes on demand: objects that vanish (array calls on their counters fail with
 * {@code PDH_CSTATUS_NO_OBJECT}, and those handles stay dead until the counter is added again, which is what a
 * rewritten counter registry does to live queries), add failures by path, collect failures by object, and a collect
 * that blocks until released. Every call is recorded with its thread. Synchronized: the test thread configures, the
 * sampling thread calls.
 */
final class FakePdhLibrary implements PdhLibrary {

  // ---- configuration
  private final Map<String, Integer> types = new HashMap<>();
  private final Map<String, Long> timeBases = new HashMap<>();
  private final Map<String, List<RawCounterItem>> items = new LinkedHashMap<>();
  /** The items as the fixture gives them: what {@link #advance} adds per second. */
  private final Map<String, List<RawCounterItem>> loaded = new HashMap<>();
  private final Set<String> missingObjects = new HashSet<>();
  private final Map<String, Integer> addFailures = new HashMap<>();
  private final Map<String, Integer> counterInfoFailures = new HashMap<>();
  private final Map<String, Integer> collectFailures = new HashMap<>();
  private long localFileTime;
  /** The fixtures loaded, for the message of a counter one of them lacks. */
  private final List<String> fixtures = new ArrayList<>();
  /**
   * The fake host's {@code MEMORYSTATUSEX}, field by field as GlobalMemoryStatusEx documents them: 16 GiB physical;
   * ullAvailPhys the standby, free and zero lists; ullTotalVirtual 128 TiB minus 128 KiB, a 64-bit process's user-mode
   * address space (0x7FFFFFFE0000) on Windows 8.1 and later.
   */
  private final GlobalMemoryStatus memoryStatus =
      new GlobalMemoryStatus(17_179_869_184L, 9_126_805_504L, 140_737_488_224_256L);
  private final int activeProcessors = 4;
  private @Nullable CountDownLatch collectGate;
  private final CountDownLatch collectEntered = new CountDownLatch(1);
  private final CountDownLatch collectLeft = new CountDownLatch(1);

  // ---- PDH state
  private long nextHandle = 0x1000;
  private final Map<Long, QueryState> queries = new HashMap<>();
  private final Map<Long, CounterState> counters = new HashMap<>();

  // ---- records
  private final List<String> calls = new ArrayList<>();
  private final Set<String> threads = new LinkedHashSet<>();
  private boolean closed;

  private static final class QueryState {
    final List<Long> counters = new ArrayList<>();
    final Map<Long, List<RawCounterItem>> snapshot = new HashMap<>();
  }

  private static final class CounterState {
    final String path;
    final long query;
    boolean dead;

    CounterState(String path, long query) {
      this.path = path;
      this.query = query;
    }
  }

  static String key(String path) {
    return path.toLowerCase(Locale.ROOT);
  }

  private static String objectOf(String path) {
    return CounterPath.parse(path).object().toLowerCase(Locale.ROOT);
  }

  // ---------------------------------------------------------------- fixture loading and configuration

  /** Loads a TSV fixture (see fixtures/pdh/synthetic-4cpu/README.md); its time is a local wall-clock time. */
  synchronized FakePdhLibrary load(String resource) {
    String text;
    try (InputStream in = FakePdhLibrary.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + resource);
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    for (String line : text.split("\\R")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t");
      switch (f[0]) {
        case "time" -> localFileTime = localFileTime(LocalDateTime.parse(f[1]));
        case "type" -> {
          types.put(key(f[1]), Integer.parseUnsignedInt(f[2].substring(2), 16));
          if (f.length > 3) {
            timeBases.put(key(f[1]), Long.parseLong(f[3]));
          }
        }
        case "item" -> items
            .computeIfAbsent(key(f[1]), k -> new ArrayList<>())
            .add(
                new RawCounterItem(
                    f[2].equals("-") ? "" : f[2],
                    new RawCounter(
                        Integer.parseUnsignedInt(f[3].substring(2), 16),
                        localFileTime,
                        Long.parseLong(f[4]),
                        Long.parseLong(f[5]),
                        0)));
        default -> throw new IllegalArgumentException("bad fixture line: " + line);
      }
    }
    addDeclaredCounters();
    items.forEach((path, list) -> loaded.put(path, List.copyOf(list)));
    fixtures.add(resource);
    return this;
  }

  /**
   * The synthetic host has every gauge and count the PDH source declares on an object without instances ({@code
   * \Memory}, {@code \System}: a {@code RAW}, {@code RAW_LARGE}, {@code COUNT} or {@code BULK_COUNT} counter): one the
   * fixture does not give gets its documented type and a value made up from its path (a count's value is what it gains
   * per second, stamped with the collect's time as the fixture's counts are), so such a new counter needs no fixture
   * line. Counters of other kinds, whose raw values need a time base or a base value, and counters of objects with
   * instances come from the fixture only.
   */
  private void addDeclaredCounters() {
    Set<PerfCounter> declared = new LinkedHashSet<>();
    for (WorkingSetDefinition definition : WorkingSetDefinition.values()) {
      declared.addAll(PdhNodeSource.counters(definition));
    }
    for (PerfCounter c : declared) {
      String path = key(c.path().toString());
      boolean gauge = c.raw() == RawKind.RAW || c.raw() == RawKind.RAW_LARGE;
      boolean count = c.raw() == RawKind.COUNT || c.raw() == RawKind.BULK_COUNT;
      if (!(gauge || count) || c.instances() != InstanceFilter.NONE || types.containsKey(path)) {
        continue;
      }
      types.put(path, PerfCounterType.documented(c.raw()));
      long madeUp = Math.floorMod(path.hashCode(), 100_000);
      RawCounter value =
          gauge
              ? new RawCounter(0, localFileTime, 4_096L * (1_000 + madeUp), 0, 0)
              : new RawCounter(0, localFileTime, 1_000 + madeUp, localFileTime, 0);
      items.put(path, new ArrayList<>(List.of(new RawCounterItem("", value))));
    }
  }

  /** The items of {@code path}; a counter the fixture lacks fails naming it and the line to add. */
  private List<RawCounterItem> itemsOf(String path) {
    List<RawCounterItem> list = items.get(key(path));
    if (list == null) {
      throw new IllegalArgumentException(lacks(path, "item\t" + path + "\t<instance or ->\t0x0\t<first>\t<second>"));
    }
    return list;
  }

  /** The counter type of {@code path} (a key of {@link #items}, or a path); one the fixture lacks fails naming it. */
  private int typeOf(String path) {
    Integer type = types.get(key(path));
    if (type == null) {
      throw new IllegalArgumentException(lacks(path, "type\t" + path + "\t0x<counter type>"));
    }
    return type;
  }

  private String lacks(String path, String line) {
    return "the fixture " + String.join(", ", fixtures) + " has no counter " + path + ": add a line `" + line
        + "` (the format is in fixtures/pdh/synthetic-4cpu/README.md)";
  }

  /**
   * Moves the frame {@code seconds} on, as a host that does each second what the loaded fixture holds. A cumulative
   * counter gains its fixture value per second: a count or bulk count (a 32-bit one wrapping as a DWORD does), a
   * 100 ns timer (the fixture's value taken as its ticks in one second), a 100 ns queue length (the fixture's value
   * taken as the queue length summed over one second in 100 ns, its SecondValue the 100 ns stamp), an average timer
   * (its time and its count), an average bulk (its numerator and its 32-bit base); a precision 100 ns timer keeps the
   * fixture's fraction of its own elapsed base. Time moves on: the collect's local time, the perf time of the counts,
   * the timers' time stamps and System Up Time's "now". Instantaneous values (raw counts and fractions) stay.
   */
  synchronized void advance(int seconds) {
    long ticks = seconds * 10_000_000L;
    localFileTime += ticks;
    for (Map.Entry<String, List<RawCounterItem>> e : items.entrySet()) {
      int type = typeOf(e.getKey());
      List<RawCounterItem> perSecond = loaded.getOrDefault(e.getKey(), List.of());
      List<RawCounterItem> now = e.getValue();
      for (int i = 0; i < now.size() && i < perSecond.size(); i++) {
        RawCounter v = now.get(i).value();
        RawCounter s = perSecond.get(i).value();
        long first = v.firstValue();
        long second = v.secondValue();
        switch (type) {
          case PerfCounterType.PERF_COUNTER_COUNTER, PerfCounterType.PERF_COUNTER_BULK_COUNT -> {
            first = first + s.firstValue() * seconds;
            first = PerfCounterType.is64Bit(type) ? first : first & 0xFFFF_FFFFL;
            second = second == 0 ? 0 : second + ticks;
          }
          case PerfCounterType.PERF_100NSEC_TIMER,
              PerfCounterType.PERF_100NSEC_TIMER_INV,
              PerfCounterType.PERF_COUNTER_100NS_QUEUELEN_TYPE -> {
            first += s.firstValue() * seconds;
            second += ticks;
          }
          case PerfCounterType.PERF_PRECISION_100NS_TIMER -> {
            first += s.secondValue() == 0 ? 0 : s.firstValue() * ticks / s.secondValue();
            second += ticks;
          }
          case PerfCounterType.PERF_AVERAGE_TIMER -> {
            first += s.firstValue() * seconds;
            second += s.secondValue() * seconds;
          }
          case PerfCounterType.PERF_AVERAGE_BULK -> {
            // A 64-bit numerator; the base is a 32-bit PERF_AVERAGE_BASE count and wraps as a DWORD does.
            first += s.firstValue() * seconds;
            second = (second + s.secondValue() * seconds) & 0xFFFF_FFFFL;
          }
          case PerfCounterType.PERF_ELAPSED_TIME ->
              second += seconds * timeBases.getOrDefault(e.getKey(), 10_000_000L);
          default -> {
            // Raw counts and fractions: what the host has now, unchanged.
          }
        }
        now.set(i, new RawCounterItem(now.get(i).instance(),
            new RawCounter(v.cStatus(), localFileTime, first, second, v.multiCount())));
      }
    }
  }

  /** A wall-clock time as PDH stamps it: a FILETIME (100 ns ticks since 1601-01-01) counting local time. */
  static long localFileTime(LocalDateTime wall) {
    Instant asIfUtc = wall.toInstant(ZoneOffset.UTC);
    return asIfUtc.getEpochSecond() * 10_000_000L + asIfUtc.getNano() / 100 + 116_444_736_000_000_000L;
  }

  /** Replaces one instance's raw values (the first item of that name). */
  synchronized void setItem(String path, String instance, int cStatus, long first, long second) {
    List<RawCounterItem> list = itemsOf(path);
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).instance().equals(instance)) {
        list.set(i, new RawCounterItem(instance, new RawCounter(cStatus, localFileTime, first, second, 0)));
        return;
      }
    }
    throw new IllegalArgumentException("no item " + instance + " in " + path);
  }

  synchronized void setItem(String path, String instance, long first) {
    RawCounter old = item(path, instance);
    setItem(path, instance, old.cStatus(), first, old.secondValue());
  }

  synchronized void setItems(String path, List<RawCounterItem> list) {
    items.put(key(path), new ArrayList<>(list));
  }

  synchronized RawCounter item(String path, String instance) {
    return itemsOf(path).stream()
        .filter(i -> i.instance().equals(instance))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no item " + instance + " in " + path))
        .value();
  }

  /** Sets the FirstValue of every item of {@code path} to what {@code first} maps (item index, FirstValue) to. */
  synchronized void update(String path, ItemUpdate first) {
    List<RawCounterItem> list = itemsOf(path);
    for (int i = 0; i < list.size(); i++) {
      RawCounter v = list.get(i).value();
      list.set(
          i,
          new RawCounterItem(
              list.get(i).instance(),
              new RawCounter(v.cStatus(), v.localFileTime(), first.apply(i, v.firstValue()), v.secondValue(), 0)));
    }
  }

  /** The new FirstValue of item {@code index} of a path. */
  @FunctionalInterface
  interface ItemUpdate {
    long apply(int index, long firstValue);
  }

  synchronized void setType(String path, int type, @Nullable Long timeBase) {
    types.put(key(path), type);
    if (timeBase != null) {
      timeBases.put(key(path), timeBase);
    }
  }

  synchronized void setLocalFileTime(long value) {
    localFileTime = value;
  }

  synchronized void removeObject(String object) {
    missingObjects.add(object.toLowerCase(Locale.ROOT));
  }

  synchronized void restoreObject(String object) {
    missingObjects.remove(object.toLowerCase(Locale.ROOT));
  }

  synchronized void failAdd(String path, PdhStatus status) {
    addFailures.put(key(path), status.code());
  }

  /** {@code PdhGetCounterInfoW} fails for {@code path} (null: succeeds again), after its add succeeded. */
  synchronized void failCounterInfo(String path, @Nullable PdhStatus status) {
    if (status == null) {
      counterInfoFailures.remove(key(path));
    } else {
      counterInfoFailures.put(key(path), status.code());
    }
  }

  synchronized void failCollect(String object, @Nullable PdhStatus status) {
    if (status == null) {
      collectFailures.remove(object.toLowerCase(Locale.ROOT));
    } else {
      collectFailures.put(object.toLowerCase(Locale.ROOT), status.code());
    }
  }

  /** The next collects block until {@link #releaseCollect()}. */
  synchronized void hangCollect() {
    collectGate = new CountDownLatch(1);
  }

  void releaseCollect() {
    CountDownLatch gate;
    synchronized (this) {
      gate = collectGate;
      collectGate = null;
    }
    if (gate != null) {
      gate.countDown();
    }
  }

  void awaitCollectEntered() throws InterruptedException {
    if (!collectEntered.await(30, TimeUnit.SECONDS)) {
      throw new AssertionError("collect never entered");
    }
  }

  void awaitHungCollectLeft() throws InterruptedException {
    if (!collectLeft.await(30, TimeUnit.SECONDS)) {
      throw new AssertionError("hung collect never returned");
    }
  }

  // ---------------------------------------------------------------- observations

  synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  synchronized Set<String> threads() {
    return Set.copyOf(threads);
  }

  synchronized int openQueries() {
    return queries.size();
  }

  /** The paths of the counters the open queries hold now, one entry per counter handle. */
  synchronized List<String> countersInQueries() {
    List<String> out = new ArrayList<>();
    for (QueryState q : queries.values()) {
      for (long h : q.counters) {
        out.add(counters.get(h).path);
      }
    }
    return out;
  }

  synchronized boolean closed() {
    return closed;
  }

  synchronized long count(String call) {
    return calls.stream().filter(c -> c.startsWith(call + " ") || c.equals(call)).count();
  }

  private void record(String call) {
    calls.add(call);
    threads.add(Thread.currentThread().getName());
  }

  // ---------------------------------------------------------------- PdhLibrary

  @Override
  public synchronized PdhQuery openQuery() {
    record("PdhOpenQueryW");
    long h = nextHandle++;
    queries.put(h, new QueryState());
    return new PdhQuery(h);
  }

  @Override
  public synchronized PdhCounter addEnglishCounter(PdhQuery query, String englishPath) {
    record("PdhAddEnglishCounterW " + englishPath);
    QueryState q = queries.get(query.handle());
    if (q == null) {
      throw new PdhException(PdhStatus.PDH_INVALID_HANDLE, "PdhAddEnglishCounterW", englishPath);
    }
    Integer failure = addFailures.get(key(englishPath));
    if (failure != null) {
      throw new PdhException(failure, "PdhAddEnglishCounterW", englishPath);
    }
    if (missingObjects.contains(objectOf(englishPath))) {
      throw new PdhException(PdhStatus.PDH_CSTATUS_NO_OBJECT, "PdhAddEnglishCounterW", englishPath);
    }
    if (!types.containsKey(key(englishPath))) {
      throw new PdhException(PdhStatus.PDH_CSTATUS_NO_COUNTER, "PdhAddEnglishCounterW", englishPath);
    }
    long h = nextHandle++;
    counters.put(h, new CounterState(englishPath, query.handle()));
    q.counters.add(h);
    return new PdhCounter(h, englishPath);
  }

  @Override
  public synchronized void removeCounter(PdhCounter counter) {
    record("PdhRemoveCounter " + counter.path());
    CounterState c = counters.remove(counter.handle());
    if (c == null) {
      throw new PdhException(PdhStatus.PDH_INVALID_HANDLE, "PdhRemoveCounter", counter.path());
    }
    queries.get(c.query).counters.remove(counter.handle());
  }

  @Override
  public void collectQueryData(PdhQuery query) {
    collect(query, "PdhCollectQueryData");
  }

  private void collect(PdhQuery query, String call) {
    CountDownLatch gate;
    synchronized (this) {
      record(call);
      gate = collectGate;
    }
    if (gate != null) {
      collectEntered.countDown();
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      collectLeft.countDown();
    }
    synchronized (this) {
      QueryState q = queries.get(query.handle());
      if (q == null) {
        throw new PdhException(PdhStatus.PDH_INVALID_HANDLE, call, null);
      }
      for (long h : q.counters) {
        Integer failure = collectFailures.get(objectOf(counters.get(h).path));
        if (failure != null) {
          throw new PdhException(failure, call, null);
        }
      }
      q.snapshot.clear();
      for (long h : q.counters) {
        List<RawCounterItem> list = items.get(key(counters.get(h).path));
        q.snapshot.put(h, list == null ? List.of() : List.copyOf(list));
      }
    }
  }

  @Override
  public synchronized List<RawCounterItem> rawCounterArray(PdhCounter counter) {
    record("PdhGetRawCounterArrayW " + counter.path());
    CounterState c = counters.get(counter.handle());
    if (c == null) {
      throw new PdhException(PdhStatus.PDH_INVALID_HANDLE, "PdhGetRawCounterArrayW", counter.path());
    }
    if (c.dead || missingObjects.contains(objectOf(c.path))) {
      c.dead = true;
      throw new PdhException(PdhStatus.PDH_CSTATUS_NO_OBJECT, "PdhGetRawCounterArrayW", counter.path());
    }
    List<RawCounterItem> snap = queries.get(c.query).snapshot.get(counter.handle());
    return snap == null ? List.of() : snap;
  }

  @Override
  public synchronized List<FormattedCounterItem> formattedCounterArray(PdhCounter counter, int format) {
    record("PdhGetFormattedCounterArrayW " + counter.path());
    List<FormattedCounterItem> out = new ArrayList<>();
    for (RawCounterItem i : rawCounterArray(counter)) {
      out.add(
          new FormattedCounterItem(
              i.instance(),
              new FormattedValue(i.value().cStatus(), i.value().firstValue(), i.value().firstValue())));
    }
    return out;
  }

  @Override
  public synchronized CounterInfo counterInfo(PdhCounter counter) {
    record("PdhGetCounterInfoW " + counter.path());
    CounterState c = counters.get(counter.handle());
    if (c == null) {
      throw new PdhException(PdhStatus.PDH_INVALID_HANDLE, "PdhGetCounterInfoW", counter.path());
    }
    Integer failure = counterInfoFailures.get(key(c.path));
    if (failure != null) {
      throw new PdhException(failure, "PdhGetCounterInfoW", counter.path());
    }
    return new CounterInfo(types.get(key(c.path)), 0, c.path);
  }

  /**
   * Implements the two formulas the tests use: {@code PERF_COUNTER_COUNTER}/{@code BULK_COUNT} as
   * (N1-N0)/((D1-D0)/F) and the raw counts as N; anything else is {@code PDH_FUNCTION_NOT_FOUND}.
   */
  @Override
  public synchronized FormattedValue calculateFromRaw(
      PdhCounter counter, int format, RawCounter newer, @Nullable RawCounter older) {
    record("PdhCalculateCounterFromRawValue " + counter.path());
    int type = typeOf(counter.path());
    if (type == PerfCounterType.PERF_COUNTER_COUNTER || type == PerfCounterType.PERF_COUNTER_BULK_COUNT) {
      if (older == null) {
        throw new PdhException(PdhStatus.PDH_INVALID_ARGUMENT, "PdhCalculateCounterFromRawValue", counter.path());
      }
      long f = timeBases.getOrDefault(key(counter.path()), 10_000_000L);
      double seconds = (newer.secondValue() - older.secondValue()) / (double) f;
      double v = (newer.firstValue() - older.firstValue()) / seconds;
      return new FormattedValue(0, v, (long) v);
    }
    if (type == PerfCounterType.PERF_COUNTER_RAWCOUNT || type == PerfCounterType.PERF_COUNTER_LARGE_RAWCOUNT) {
      return new FormattedValue(0, newer.firstValue(), newer.firstValue());
    }
    throw new PdhException(PdhStatus.PDH_FUNCTION_NOT_FOUND, "PdhCalculateCounterFromRawValue", counter.path());
  }

  @Override
  public synchronized long counterTimeBase(PdhCounter counter) {
    record("PdhGetCounterTimeBase " + counter.path());
    Long base = timeBases.get(key(counter.path()));
    if (base == null) {
      throw new PdhException(PdhStatus.PDH_INVALID_ARGUMENT, "PdhGetCounterTimeBase", counter.path());
    }
    return base;
  }

  @Override
  public synchronized void closeQuery(PdhQuery query) {
    record("PdhCloseQuery");
    QueryState q = queries.remove(query.handle());
    if (q == null) {
      throw new PdhException(PdhStatus.PDH_INVALID_HANDLE, "PdhCloseQuery", null);
    }
    q.counters.forEach(counters::remove);
  }

  @Override
  public synchronized GlobalMemoryStatus globalMemoryStatus() {
    record("GlobalMemoryStatusEx");
    return memoryStatus;
  }

  @Override
  public synchronized int activeProcessorCount() {
    record("GetActiveProcessorCount");
    return activeProcessors;
  }

  @Override
  public synchronized void close() {
    closed = true;
  }
}
