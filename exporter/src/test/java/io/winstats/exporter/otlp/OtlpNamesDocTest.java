package io.winstats.exporter.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** docs/OTLP.md's name table and {@link OtlpNames#ROWS} are the same rows in the same order. */
class OtlpNamesDocTest {
  private static final Path DOC = Path.of("..", "docs", "OTLP.md");

  @Test
  void theDocsTableIsTheCodeTable() throws Exception {
    String doc = Files.readString(DOC);
    String table =
        doc.substring(doc.indexOf("<!-- otlp-names:begin -->"), doc.indexOf("<!-- otlp-names:end -->"));
    List<String> documented =
        table.lines().filter(l -> l.startsWith("| `")).map(OtlpNamesDocTest::normalised).toList();
    List<String> declared = OtlpNames.ROWS.stream().map(OtlpNamesDocTest::row).toList();
    assertThat(documented).as("docs/OTLP.md's table against OtlpNames.ROWS").isEqualTo(declared);
  }

  /** A table line's cells, back-quotes and padding dropped. */
  private static String normalised(String line) {
    return String.join("|", Arrays.stream(line.split("\\|")).skip(1).map(c -> c.strip().replace("`", "")).toList());
  }

  private static String row(OtlpNames.Row r) {
    return String.join(
        "|",
        r.prometheus(),
        dash(r.container()),
        dash(r.pod()),
        dash(r.node()),
        r.unit(),
        r.instrument().name().toLowerCase(Locale.ROOT),
        dash(r.direction()));
  }

  private static String dash(String value) {
    return value == null ? "–" : value;
  }
}
