package io.winstats.perfcounters.counters;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.binding.LogicalDiskBinding.LogicalDiskCounter;
import io.winstats.perfcounters.binding.MemoryBinding.MemoryCounter;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding.NetworkInterfaceCounter;
import io.winstats.perfcounters.binding.PhysicalDiskBinding.PhysicalDiskCounter;
import io.winstats.perfcounters.binding.ProcessorBinding.ProcessorInformationCounter;
import io.winstats.perfcounters.binding.SystemBinding.SystemCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class PerfCounterTest {

  /** Every declared counter: an English path that parses back to itself, once, in the object its enum names. */
  @Test
  void declaredCounterSetsAreWellFormedAndDistinct() {
    List<PerfCounter> all = new ArrayList<>();
    Stream.of(
            ProcessorInformationCounter.values(),
            MemoryCounter.values(),
            ProcessCounter.values(),
            NetworkInterfaceCounter.values(),
            LogicalDiskCounter.values(),
            PhysicalDiskCounter.values(),
            SystemCounter.values())
        .forEach(values -> all.addAll(List.of(values)));

    assertThat(all).extracting(d -> d.path().toString()).doesNotHaveDuplicates();
    for (PerfCounter d : all) {
      assertThat(CounterPath.parse(d.path().toString())).isEqualTo(d.path());
      assertThat(d.path().instance()).isEqualTo(d.instances().pathPart());
      assertThat(d.object()).isEqualTo(d.spec().object()).isNotEqualTo("Processor");
    }
    assertThat(LogicalDiskCounter.DISK_READ_TIME.path().toString()).isEqualTo("\\LogicalDisk(*)\\% Disk Read Time");
    assertThat(ProcessCounter.WORKING_SET_PRIVATE.path().toString()).isEqualTo("\\Process(_Total)\\Working Set - Private");
  }

  @Test
  void onlyIntervalPercentagesMeansAndPerSecondValuesAreRates() {
    assertThat(Stream.of(FormattedUnit.values()).filter(FormattedUnit::isRate))
        .containsExactly(FormattedUnit.PERCENT_OF_INTERVAL, FormattedUnit.MEAN_OVER_INTERVAL, FormattedUnit.PER_SECOND);
    assertThat(LogicalDiskCounter.AVG_DISK_READ_QUEUE_LENGTH.formatted().isRate()).isTrue();
    assertThat(ProcessorInformationCounter.USER_TIME.formatted().isRate()).isTrue();
    assertThat(LogicalDiskCounter.PERCENT_FREE_SPACE.formatted().isRate()).isFalse();
    assertThat(NetworkInterfaceCounter.PACKETS_RECEIVED_ERRORS.formatted().isRate()).isFalse();
  }
}
