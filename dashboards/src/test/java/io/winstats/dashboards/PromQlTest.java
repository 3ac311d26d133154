package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PromQlTest {
  @Test
  void findsSelectorsAndBareNamesButNotFunctionsLabelsOrKeywords() {
    assertThat(
            PromQl.metricNames(
                "sum by (instance, mode) (rate(node_cpu_seconds_total{job=~\"$job\", mode!=\"idle\"}[$__rate_interval]))"
                    + " / on (instance) group_left () count by (instance) (machine_cpu_cores) > bool 0.5 unless up"))
        .containsExactly("machine_cpu_cores", "node_cpu_seconds_total", "up");
  }

  @Test
  void readsTheSelectorOfALabelValuesQuery() {
    assertThat(PromQl.metricNames("label_values(winstats_exporter_build_info{cluster=~\"$cluster\"}, instance)"))
        .containsExactly("winstats_exporter_build_info");
  }

  @Test
  void ignoresNumbersDurationsOffsetsAndStrings() {
    assertThat(PromQl.metricNames("time() - foo_seconds offset 5m > 1e9 or vector(0) * 1.5 + bar{a=\"b{c}\"}[1h:1m]"))
        .containsExactly("bar", "foo_seconds");
  }

  @Test
  void recordingRuleNamesAreMetricNames() {
    assertThat(PromQl.metricNames("instance:winstats_node_cpu_utilisation:ratio_rate5m > 0.9"))
        .containsExactly("instance:winstats_node_cpu_utilisation:ratio_rate5m");
  }

  @Test
  void stripsTheTrailingThreshold() {
    assertThat(PromQl.withoutThreshold("(a / on (x) group_left () b)\n> 0.9\n")).isEqualTo("(a / on (x) group_left () b)");
    assertThat(PromQl.withoutThreshold("up{job=\"x\"} == 0")).isEqualTo("up{job=\"x\"}");
    assertThatThrownBy(() -> PromQl.withoutThreshold("rate(x[5m])")).isInstanceOf(IllegalArgumentException.class);
  }
}
