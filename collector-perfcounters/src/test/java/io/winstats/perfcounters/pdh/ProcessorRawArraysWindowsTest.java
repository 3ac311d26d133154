package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.binding.ProcessorBinding.ProcessorInformationCounter;
import io.winstats.perfcounters.pdh.PdhLibrary.PdhCounter;
import io.winstats.perfcounters.pdh.PdhLibrary.PdhQuery;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounterItem;
import io.winstats.perfcounters.pdh.jna.JnaPdhLibrary;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The bulk raw array of a wildcard processor counter against one-instance counters added to the same query: one collect
 * feeds both, so every instance's raw values must be identical. Formatted bulk arrays have been seen to read zeros for
 * some counters (DataDog/integrations-core#22298); this pins that the raw arrays the source reads are not affected.
 */
@EnabledOnOs(OS.WINDOWS)
class ProcessorRawArraysWindowsTest {

  @ParameterizedTest
  @EnumSource(
      value = ProcessorInformationCounter.class,
      names = {"USER_TIME", "PRIVILEGED_TIME", "IDLE_TIME", "INTERRUPT_TIME", "DPC_TIME"})
  void bulkArrayEqualsOneInstanceReads(ProcessorInformationCounter counter) {
    try (JnaPdhLibrary lib = new JnaPdhLibrary()) {
      PdhQuery query = lib.openQuery();
      try {
        PdhCounter wildcard = lib.addEnglishCounter(query, counter.path().toString());
        lib.collectQueryData(query);
        Map<String, PdhCounter> single = new LinkedHashMap<>();
        for (RawCounterItem item : lib.rawCounterArray(wildcard)) {
          String path = "\\" + ProcessorInformationCounter.OBJECT + "(" + item.instance() + ")\\" + counter.counter();
          single.put(item.instance(), lib.addEnglishCounter(query, path));
        }
        assertThat(single).isNotEmpty();

        lib.collectQueryData(query);
        Map<String, RawCounter> bulk = new LinkedHashMap<>();
        for (RawCounterItem item : lib.rawCounterArray(wildcard)) {
          bulk.put(item.instance(), item.value());
        }
        for (Map.Entry<String, PdhCounter> e : single.entrySet()) {
          List<RawCounterItem> one = lib.rawCounterArray(e.getValue());
          assertThat(one).as(e.getKey()).hasSize(1);
          RawCounter alone = one.get(0).value();
          RawCounter inBulk = bulk.get(e.getKey());
          assertThat(inBulk).as("instance %s in the bulk array", e.getKey()).isNotNull();
          assertThat(alone.cStatus()).as(e.getKey()).isEqualTo(inBulk.cStatus());
          assertThat(alone.firstValue()).as(e.getKey()).isEqualTo(inBulk.firstValue());
          assertThat(alone.secondValue()).as(e.getKey()).isEqualTo(inBulk.secondValue());
        }
        assertThat(bulk.values()).anyMatch(v -> v.firstValue() > 0);
      } finally {
        lib.closeQuery(query);
      }
    }
  }
}
