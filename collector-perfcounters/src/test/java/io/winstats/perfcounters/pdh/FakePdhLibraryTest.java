package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.binding.MemoryBinding.MemoryCounter;
import io.winstats.perfcounters.binding.SystemBinding.SystemCounter;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.pdh.PdhLibrary.PdhQuery;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fake PDH says which counter a fixture lacks, and which line to add, rather than failing on a null. */
class FakePdhLibraryTest {
  private static final String FIXTURE = "fixtures/pdh/synthetic-4cpu/sample-1.tsv";
  private static final String ABSENT = "\\Memory\\Pool Nonpaged Bytes (not in the fixture)";

  private final FakePdhLibrary fake = new FakePdhLibrary().load(FIXTURE);

  @Test
  void updatingACounterTheFixtureLacksNamesItTheFixtureAndTheLine() {
    assertThatThrownBy(() -> fake.update(ABSENT, (i, v) -> v))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(FIXTURE)
        .hasMessageContaining("has no counter " + ABSENT)
        .hasMessageContaining("`item\t" + ABSENT);
  }

  @Test
  void settingAnItemOfACounterTheFixtureLacksNamesIt() {
    assertThatThrownBy(() -> fake.setItem(ABSENT, "_Total", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no counter " + ABSENT);
  }

  /**
   * Every gauge and count the PDH source declares on an object without instances is on the synthetic host without a
   * fixture line: its documented type, and a count gains its value each second as a fixture's count does.
   */
  @Test
  void aHostWithoutFixtureLinesHasEveryGaugeAndCountOfAnObjectWithoutInstances() {
    FakePdhLibrary bare = new FakePdhLibrary().load("fixtures/pdh/no-counters/sample-1.tsv");
    List<PerfCounter> madeUp = new ArrayList<>();
    PdhQuery query = bare.openQuery();
    for (PerfCounter c : PdhNodeSource.counters(WorkingSetDefinition.KUBELET)) {
      boolean gaugeOrCount = switch (c.raw()) {
        case RAW, RAW_LARGE, COUNT, BULK_COUNT -> true;
        default -> false;
      };
      if (!gaugeOrCount || c.instances() != InstanceFilter.NONE) {
        continue;
      }
      madeUp.add(c);
      String path = c.path().toString();
      RawCounter before = bare.item(path, "");
      assertThat(bare.counterInfo(bare.addEnglishCounter(query, path)).type())
          .as(path)
          .isEqualTo(PerfCounterType.documented(c.raw()));
      assertThat(before.firstValue()).as(path).isPositive();
    }
    assertThat(madeUp).contains(MemoryCounter.PAGE_FAULTS, SystemCounter.CONTEXT_SWITCHES, SystemCounter.THREADS);

    String count = SystemCounter.CONTEXT_SWITCHES.path().toString();
    long perSecond = bare.item(count, "").firstValue();
    bare.advance(3);
    assertThat(bare.item(count, "").firstValue()).isEqualTo(perSecond * 4);
    String gauge = SystemCounter.THREADS.path().toString();
    long threads = bare.item(gauge, "").firstValue();
    bare.advance(3);
    assertThat(bare.item(gauge, "").firstValue()).isEqualTo(threads);
  }

  @Test
  void aTimerOrACounterOfAnObjectWithInstancesStillNeedsItsFixtureLine() {
    FakePdhLibrary bare = new FakePdhLibrary().load("fixtures/pdh/no-counters/sample-1.tsv");
    String upTime = SystemCounter.SYSTEM_UP_TIME.path().toString();
    assertThatThrownBy(() -> bare.item(upTime, "")).hasMessageContaining("has no counter " + upTime);
  }
}
