package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.counters.CounterHealth;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.counters.InstanceValue;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PerfCounterSeriesTest {
  @Test
  void customCountersAndCounterHealthAsTheOperatorNamedThem() throws IOException {
    CustomCounter utility =
        new CustomCounter(
            "\\Processor Information(*)\\% Processor Utility",
            "windows_custom_processor_utility",
            CustomCounter.Type.COUNTER,
            Map.of("source", "pdh"),
            "core");
    CustomCounter pool =
        new CustomCounter(
            "\\Memory\\Pool Paged Bytes", "windows_custom_pool_paged_bytes", CustomCounter.Type.GAUGE, Map.of(), null);
    PerfCounterSeries series =
        new PerfCounterSeries(
            () ->
                Map.of(
                    utility, List.of(new InstanceValue("0,0", 12.5), new InstanceValue("0,1", 7.25)),
                    pool, List.of(new InstanceValue("", 123_456_789))),
            () ->
                List.of(
                    new CounterHealth("\\Memory\\Available Bytes", true, "ERROR_SUCCESS", "", Instant.EPOCH, 0),
                    new CounterHealth(
                        "\\LogicalDisk(*)\\% Free Space",
                        false,
                        "PDH_CSTATUS_NO_OBJECT",
                        "PdhAddEnglishCounterW",
                        Instant.EPOCH,
                        0)));
    String text = ExpositionGoldenTest.text(series.collect());
    assertThat(text)
        .contains("windows_custom_processor_utility_total{core=\"0,0\",source=\"pdh\"} 12.5")
        .contains("windows_custom_processor_utility_total{core=\"0,1\",source=\"pdh\"} 7.25")
        .contains("# TYPE windows_custom_pool_paged_bytes gauge")
        .contains("windows_custom_pool_paged_bytes 1.23456789E8")
        .contains(
            "winstats_exporter_perfcounter_ok{path=\"\\\\LogicalDisk(*)\\\\% Free Space\",status=\"PDH_CSTATUS_NO_OBJECT\"} 0.0")
        .contains("winstats_exporter_perfcounter_ok{path=\"\\\\Memory\\\\Available Bytes\",status=\"ERROR_SUCCESS\"} 1.0");
  }
}
