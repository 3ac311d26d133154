package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.counters.CounterHealth;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.pdh.jna.JnaPdhLibrary;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The real PDH on a live Windows host (the Windows CI job): invariants only, since values depend on the host. Parts a
 * CI image may lack (network adapters, volumes) are checked only when present.
 */
@EnabledOnOs(OS.WINDOWS)
class PdhNodeSourceWindowsTest {

  @Test
  void liveSamplesSatisfyTheInvariants() throws Exception {
    Clock clock = Clock.systemUTC();
    CustomCounter utilization =
        new CustomCounter(
            "\\Processor Information(_Total)\\% Processor Time", "cpu_pct", CustomCounter.Type.GAUGE, Map.of(), null);
    CustomCounter bogus =
        new CustomCounter("\\No Such Object\\No Such Counter", "bogus", CustomCounter.Type.GAUGE, Map.of(), null);
    try (PdhNodeSource source =
        PdhNodeSource.open(
            new JnaPdhLibrary(),
            clock,
            List.of(utilization, bogus),
            WorkingSetDefinition.KUBELET,
            PdhNodeSource.DEFAULT_KUBELET_ROOT_DIRECTORY)) {
      NodeSample first = source.sample();
      Thread.sleep(1_100);
      NodeSample second = source.sample();

      assertThat(first.missing()).doesNotContainKeys(
          io.winstats.perfcounters.NodePart.CPU, io.winstats.perfcounters.NodePart.MEMORY,
          io.winstats.perfcounters.NodePart.SYSTEM);
      // Stamped with the clock at the collect.
      assertThat(Duration.between(second.timestamp(), clock.instant()).abs()).isLessThan(Duration.ofMinutes(5));
      assertThat(second.timestamp()).isAfterOrEqualTo(first.timestamp());

      assertThat(second.cpu().cores()).isNotEmpty().allMatch(c -> c.core().matches("\\d+,\\d+"));
      assertThat(second.cpu().cores().size()).isLessThanOrEqualTo(second.cpu().logicalCores());
      assertThat(second.cpu().usageCoreNanos()).isPositive().isGreaterThanOrEqualTo(first.cpu().usageCoreNanos());

      assertThat(second.memory().totalBytes()).isPositive();
      assertThat(second.memory().workingSetBytes()).isPositive();
      assertThat(second.memory().committedBytes()).isNotNull().isLessThanOrEqualTo(second.memory().commitLimitBytes());
      assertThat(second.memory().availableBytes()).isNotNull().isLessThanOrEqualTo(second.memory().totalBytes());

      assertThat(second.system().processes()).isPositive();
      assertThat(second.system().bootTime()).isNotNull().isBefore(Instant.now());

      String systemDrive = System.getenv().getOrDefault("SystemDrive", "C:");
      assertThat(second.filesystems()).anySatisfy(f -> {
        assertThat(f.device()).isEqualToIgnoringCase(systemDrive);
        assertThat(f.capacityBytes()).isGreaterThanOrEqualTo(f.availableBytes());
      });

      assertThat(source.customValues().get(utilization))
          .singleElement()
          .satisfies(v -> assertThat(v.value()).isBetween(0.0, 100.0));
      assertThat(source.health())
          .filteredOn(h -> h.path().equals(bogus.path()))
          .singleElement()
          .satisfies(h -> assertThat(h.ok()).isFalse());
      assertThat(source.health())
          .filteredOn(h -> h.path().startsWith("\\Processor Information"))
          .allMatch(CounterHealth::ok);
    }
  }

  @Test
  void theJnaLayerReadsTypesTimeBasesAndArrays() {
    try (JnaPdhLibrary lib = new JnaPdhLibrary()) {
      PdhLibrary.PdhQuery q = lib.openQuery();
      try {
        PdhLibrary.PdhCounter user = lib.addEnglishCounter(q, "\\Processor Information(*)\\% User Time");
        PdhLibrary.PdhCounter upTime = lib.addEnglishCounter(q, "\\System\\System Up Time");
        assertThat(lib.counterInfo(user).type()).isEqualTo(PerfCounterType.PERF_100NSEC_TIMER);
        assertThat(lib.counterInfo(upTime).type()).isEqualTo(PerfCounterType.PERF_ELAPSED_TIME);
        assertThat(lib.counterTimeBase(upTime)).isPositive();
        lib.collectQueryData(q);
        lib.collectQueryData(q);
        List<PdhLibrary.RawCounterItem> items = lib.rawCounterArray(user);
        assertThat(items).extracting(PdhLibrary.RawCounterItem::instance).contains("_Total");
        assertThat(items).allMatch(i -> i.value().firstValue() >= 0);
        assertThat(lib.formattedCounterArray(user, PdhLibrary.PDH_FMT_DOUBLE)).isNotEmpty();
        assertThat(lib.globalMemoryStatus().totalPhysBytes()).isPositive();
        assertThat(lib.activeProcessorCount()).isPositive();
      } finally {
        lib.closeQuery(q);
      }
    }
  }
}
