package io.winstats.exporter.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PageCostTest {
  @Test
  void ratiosAreAgainstTheUnviewedWindowOfTheSameRoundAndPods() {
    PageCost.Row unviewed0 = new PageCost.Row(110, 0, 0, 0, 20, 100, 110);
    PageCost.Row viewed0 = new PageCost.Row(110, 0, 1, 6, 30, 105, 120);
    PageCost.Row unviewed1 = new PageCost.Row(110, 1, 0, 0, 40, 200, 210);
    PageCost.Row viewed1 = new PageCost.Row(110, 1, 1, 6, 50, 210, 220);
    PageCost.Row otherPods = new PageCost.Row(250, 1, 0, 0, 1, 1, 1);
    List<PageCost.Row> rows = List.of(otherPods, unviewed0, viewed0, viewed1, unviewed1);
    assertThat(PageCost.ratio(rows, viewed0, true)).isEqualTo(1.5);
    assertThat(PageCost.ratio(rows, viewed0, false)).isEqualTo(1.05);
    assertThat(PageCost.ratio(rows, viewed1, true)).isEqualTo(1.25);
    assertThat(PageCost.ratio(rows, unviewed1, false)).isEqualTo(1.0);
    assertThatThrownBy(() -> PageCost.ratio(List.of(viewed0), viewed0, true))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theViewerReadsItsPaceFromTheHistoryAsNodeJsDoes() {
    assertThat(PageViewer.intervalMillis("{\"version\":1,\"intervalMillis\": 10000,\"samples\":60}")).isEqualTo(10000);
    assertThatThrownBy(() -> PageViewer.intervalMillis("{\"samples\":60}"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(PageViewer.PAGE).contains("/node", "/node/node.js", "/node/uPlot.iife.min.js");
  }
}
