package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.counters.InstanceValue;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import io.winstats.perfcounters.pdh.PdhLibrary.FormattedValue;
import io.winstats.perfcounters.pdh.PdhLibrary.PdhCounter;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/** The operator's {@link CustomCounter}s as values (see {@link CustomCounter} for the meaning by type). */
final class PdhCustomCounters {
  private final PdhLibrary lib;
  private final List<CustomCounter> custom;
  private final Logger log;
  private final CumulativeCounters<String> counts = new CumulativeCounters<>();
  private final Map<String, RawCounter> previous = new HashMap<>();

  PdhCustomCounters(PdhLibrary lib, List<CustomCounter> custom, Logger log) {
    this.lib = lib;
    this.custom = List.copyOf(custom);
    this.log = log;
  }

  List<CustomCounter> counters() {
    return custom;
  }

  /** @param collectedByObject the collect of the query of a perf object */
  Map<CustomCounter, List<InstanceValue>> read(Function<String, Collected> collectedByObject) {
    if (custom.isEmpty()) {
      return Map.of();
    }
    Map<CustomCounter, List<InstanceValue>> out = new LinkedHashMap<>();
    Map<String, RawCounter> seen = new HashMap<>();
    Set<String> keys = new HashSet<>();
    for (CustomCounter cc : custom) {
      CounterPath path = cc.counterPath();
      Reading r = collectedByObject.apply(path.object()).get(cc.path());
      if (!r.ok()) {
        continue;
      }
      List<InstanceValue> values = new ArrayList<>();
      for (Map.Entry<String, RawCounter> e : r.items().entrySet()) {
        String instance = path.instance() == null ? "" : e.getKey();
        if (path.wildcard() && InstanceNames.isTotal(instance)) {
          continue;
        }
        String key = cc.path() + "|" + instance;
        RawCounter raw = e.getValue();
        Double value =
            cc.type() == CustomCounter.Type.COUNTER ? counterValue(r, key, raw, keys) : gaugeValue(r, key, raw, seen);
        if (value != null) {
          values.add(new InstanceValue(instance, value));
        }
      }
      out.put(cc, List.copyOf(values));
    }
    counts.retainOnly(keys);
    previous.clear();
    previous.putAll(seen);
    return Collections.unmodifiableMap(out);
  }

  private @Nullable Double counterValue(Reading r, String key, RawCounter raw, Set<String> keys) {
    int type = r.type();
    if (type == PerfCounterType.PERF_100NSEC_TIMER || type == PerfCounterType.PERF_PRECISION_100NS_TIMER) {
      return raw.firstValue() * 1e-7;
    }
    if (type == PerfCounterType.PERF_ELAPSED_TIME) {
      return r.timeBase() > 0 ? (raw.secondValue() - raw.firstValue()) / (double) r.timeBase() : null;
    }
    keys.add(key);
    return (double) counts.update(key, raw.firstValue(), type);
  }

  private @Nullable Double gaugeValue(Reading r, String key, RawCounter raw, Map<String, RawCounter> seen) {
    seen.put(key, raw);
    PdhCounter handle = r.handle();
    if (handle == null) {
      return null;
    }
    RawCounter older = null;
    if (PerfCounterType.isDelta(r.type())) {
      older = previous.get(key);
      if (older == null) {
        return null;
      }
    }
    try {
      FormattedValue v =
          lib.calculateFromRaw(handle, PdhLibrary.PDH_FMT_DOUBLE | PdhLibrary.PDH_FMT_NOCAP100, raw, older);
      return PdhStatus.isValidItemStatus(v.cStatus()) ? v.doubleValue() : null;
    } catch (PdhException e) {
      log.debug("event=pdh_calculate_failed path={} status={}", r.path(), e.statusName());
      return null;
    }
  }
}
