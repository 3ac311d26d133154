package io.winstats.exporter.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class CostCurveTest {
  private static final CostCurve.Point NONE = new CostCurve.Point(0, 2.0, 0.0, 60.0);
  private static final CostCurve.Point FULL = new CostCurve.Point(110, 13.0, 4.0, 82.0);
  private static final CostCurve.Point MORE = new CostCurve.Point(250, 27.0, 9.0, 110.0);

  @Test
  void marginalCostIsTheSlopeFromTheSmallestCount() {
    assertThat(CostCurve.marginal(NONE, FULL, CostCurve.Point::daemonMcpu)).isCloseTo(0.1, within(1e-12));
    assertThat(CostCurve.marginal(NONE, MORE, CostCurve.Point::billMcpu)).isCloseTo(34.0 / 250, within(1e-12));
    assertThat(CostCurve.marginal(NONE, MORE, CostCurve.Point::rssAvgMiB)).isCloseTo(50.0 / 250, within(1e-12));
  }

  @Test
  void tableHasOneRowPerCountAboveTheSmallestInAnyInputOrder() {
    String table = new CostCurve(List.of(MORE, NONE, FULL)).marginalTable();
    assertThat(table).contains("against 0 pods").contains("| 110 | 0.1000 | 0.1364 | 0.2000 |")
        .contains("| 250 | 0.1000 | 0.1360 | 0.2000 |").doesNotContain("| 0 |");
    assertThat(new CostCurve(List.of(FULL)).marginalTable()).isEmpty();
  }

  @Test
  void svgDrawsEachFigureThroughEveryCount() {
    String svg = new CostCurve(List.of(NONE, FULL, MORE)).svg("bench/node <run>");
    assertThat(svg).startsWith("<svg").endsWith("</svg>\n").contains("bench/node &lt;run&gt;");
    // Three lines (daemon, bill, RSS), each through three points.
    assertThat(svg.split("<polyline", -1)).hasSize(4);
    assertThat(svg.split("<circle", -1)).hasSize(10);
    // The largest count sits at the panel's right edge: x = 60 + 320 for CPU.
    assertThat(svg).contains("<circle cx=\"380.0\"");
  }

  @Test
  void gridStepsAreOneTwoOrFiveTimesAPowerOfTen() {
    assertThat(CostCurve.niceStep(27)).isEqualTo(10);
    assertThat(CostCurve.niceStep(110)).isEqualTo(50);
    assertThat(CostCurve.niceStep(0.7)).isCloseTo(0.2, within(1e-12));
    assertThat(CostCurve.niceStep(0)).isEqualTo(1);
  }
}
