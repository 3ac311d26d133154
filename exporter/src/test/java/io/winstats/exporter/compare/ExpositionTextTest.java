package io.winstats.exporter.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.exporter.compare.ExpositionText.Document;
import io.winstats.exporter.compare.ExpositionText.Sample;
import io.winstats.exporter.compare.Figures.NotAFigureDocumentException;
import org.junit.jupiter.api.Test;

/**
 * The strict reader of the Prometheus text format 0.0.4, held to the format's description (prometheus/docs
 * content/docs/instrumenting/exposition_formats.md, "Text format details": escapes in label values, Go float values
 * with +Inf/-Inf/NaN, optional int64 millisecond timestamps) and to what it must refuse.
 */
class ExpositionTextTest {

  @Test
  void readsTypesLabelsEscapesValuesAndTimestamps() throws Exception {
    Document doc =
        ExpositionText.parse(
            "# HELP windows_cpu_time_total Time that processor spent\n"
                + "# TYPE windows_cpu_time_total counter\n"
                + "windows_cpu_time_total{mode=\"idle\",core=\"0,0\"} 80.5\n"
                + "\n"
                + "# a comment\n"
                + "odd{path=\"C:\\\\x \\\"q\\\"\\nnext\",} +Inf 1795248010250\r\n"
                + "nan_one NaN\n"
                + "spaced {a=\"b\"}\t-1.5e3\n",
            "doc");

    assertThat(doc.samples()).extracting(Sample::key)
        .containsExactly(
            "windows_cpu_time_total{core=\"0,0\",mode=\"idle\"}",
            "odd{path=\"C:\\\\x \\\"q\\\"\\nnext\"}",
            "nan_one",
            "spaced{a=\"b\"}");
    assertThat(doc.samples().get(0).value()).isEqualTo(80.5);
    assertThat(doc.samples().get(1).labels()).containsEntry("path", "C:\\x \"q\"\nnext");
    assertThat(doc.samples().get(1).value()).isInfinite();
    assertThat(doc.samples().get(1).timestampMillis()).isEqualTo(1795248010250L);
    assertThat(doc.samples().get(2).value()).isNaN();
    assertThat(doc.samples().get(3).value()).isEqualTo(-1500);
    assertThat(doc.typeOf("windows_cpu_time_total")).isEqualTo("counter");
    assertThat(doc.typeOf("odd")).isEqualTo("untyped");
  }

  @Test
  void aHistogramsPartsTakeItsType() throws Exception {
    Document doc =
        ExpositionText.parse(
            "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 3\nh_sum 1.5\nh_count 3\n# EOF\nignored after EOF\n", "doc");

    assertThat(doc.samples()).hasSize(3);
    assertThat(doc.typeOf("h_bucket")).isEqualTo("histogram");
    assertThat(doc.typeOf("h_count")).isEqualTo("histogram");
  }

  @Test
  void whatIsNotAnExpositionIsRefusedWithItsLine() {
    assertRefused("<html><body>login</body></html>\n", "doc line 1 is not a Prometheus text sample (no metric name)");
    assertRefused("{\"kind\":\"PodList\"}", "doc line 1 is not a Prometheus text sample (no metric name)");
    assertRefused("", "doc is not a Prometheus text exposition: it has no sample (it is empty)");
    assertRefused("# TYPE a counter\n", "it has no sample");
    assertRefused("a 1\nb{x=\"1\"} 2\na 3\n", "doc line 3: a second sample of a");
    assertRefused("a{x=\"1\",x=\"2\"} 1\n", "label x twice");
    assertRefused("a{x=\"\\t\"} 1\n", "unknown escape \\t");
    assertRefused("a{x=\"open} 1\n", "a label value without its closing quote");
    assertRefused("a 1d\n", "not a number: 1d");
    assertRefused("a 0x10\n", "not a number: 0x10");
    assertRefused("a 1 soon\n", "not a timestamp: soon");
    assertRefused("a 1 2 3\n", "more after the sample");
    assertRefused("a\n", "expected a space or { after the name");
    assertRefused("# TYPE a counter\n# TYPE a gauge\na 1\n", "doc line 2: a second # TYPE for a");
    assertRefused("# TYPE a sometimes\na 1\n", "doc line 1: not a # TYPE line");
  }

  private static void assertRefused(String text, String message) {
    assertThatThrownBy(() -> ExpositionText.parse(text, "doc"))
        .as(text)
        .isInstanceOf(NotAFigureDocumentException.class)
        .hasMessageContaining(message);
  }
}
