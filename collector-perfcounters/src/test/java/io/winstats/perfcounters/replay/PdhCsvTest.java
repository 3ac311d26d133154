package io.winstats.perfcounters.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.counters.CounterPath;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PdhCsvTest {
  /**
   * Found by fuzzing the counter log (issue 44): a banner bias beyond an int threw NumberFormatException, and one
   * beyond any UTC offset a DateTimeException when the replay built its offset; both are now a MALFORMED log.
   */
  @ParameterizedTest
  @CsvSource({"-2150000003", "99999999999999", "1081", "-1081"})
  void aBannerBiasThatIsNoUtcOffsetIsMalformed(String bias) {
    String log = "\"(PDH-CSV 4.0) (Zone)(" + bias + ")\",\"\\\\H\\Memory\\Available Bytes\"\r\n"
        + "\"01/02/2024 00:00:00.000\",\"1\"\r\n";
    assertThatThrownBy(() -> PdhCsv.parse(log.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.MALFORMED))
        .hasMessageContaining("bias (" + bias + ")");
  }

  @Test
  void theWidestUtcOffsetsAreBiases() {
    assertThat(PdhCsv.parse("\"(PDH-CSV 4.0) (Z)(-1080)\"\r\n".getBytes(StandardCharsets.UTF_8)).biasMinutes())
        .isEqualTo(-1080);
    assertThat(PdhCsv.parse("\"(PDH-CSV 4.0) (Z)(1080)\"\r\n".getBytes(StandardCharsets.UTF_8)).biasMinutes())
        .isEqualTo(1080);
  }


  @Test
  void splitsRfc4180Records() {
    String text = "\"a\",\"b,c\",\"say \"\"hi\"\"\"\r\nplain,,\"two\nlines\"\n\n\"last\"";

    assertThat(PdhCsv.records(text))
        .containsExactly(List.of("a", "b,c", "say \"hi\""), List.of("plain", "", "two\nlines"), List.of("last"));
  }

  @Test
  void readsTheBannerBiasAndTheRows() {
    String text =
        """
        "(PDH-CSV 4.0) (Pacific Daylight Time)(420)","\\\\H\\Memory\\Available Bytes","\\\\H\\Processor(_Total)\\% Processor Time"
        "10/09/2022 18:35:29.039","1000"," "
        "10/09/2022 18:35:30.5","2000","1.5e-005"
        "10/09/2022 18:35:31.000","3000"
        "not a time","4000","1"
        """;

    CounterLog log = PdhCsv.parse(text, StandardCharsets.UTF_8);

    assertThat(log.banner()).isEqualTo("(PDH-CSV 4.0) (Pacific Daylight Time)(420)");
    assertThat(log.biasMinutes()).isEqualTo(420);
    assertThat(log.columns())
        .containsExactly(
            new CounterPath("H", "Memory", null, "Available Bytes"),
            new CounterPath("H", "Processor", "_Total", "% Processor Time"));
    assertThat(log.rows()).hasSize(2);
    assertThat(log.droppedRows()).isEqualTo(2);
    assertThat(log.rows().get(0).localTime()).isEqualTo(LocalDateTime.parse("2022-10-09T18:35:29.039"));
    assertThat(log.rows().get(0).value(1)).isEmpty();
    assertThat(log.rows().get(1).localTime()).isEqualTo(LocalDateTime.parse("2022-10-09T18:35:30.500"));
    assertThat(log.rows().get(1).value(1)).hasValue(1.5e-5);
  }

  @Test
  void aLocalizedBannerHasNoBias() {
    CounterLog log = PdhCsv.parse("\"(PDH-CSV 4.0) (\",\"\\\\H\\System\\Processes\"\n", StandardCharsets.UTF_8);

    assertThat(log.biasMinutes()).isNull();
    assertThat(log.rows()).isEmpty();
  }

  @Test
  void refusesTextThatIsNotAPdhCsvLog() {
    assertThatThrownBy(() -> PdhCsv.parse("\"Time\",\"cpu\"\n", StandardCharsets.UTF_8))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.MALFORMED));
    assertThatThrownBy(() -> PdhCsv.parse("", StandardCharsets.UTF_8)).isInstanceOf(NodeSourceException.class);
  }

  @Test
  void decodesByByteOrderMarkElseUtf8ElseIso88591() {
    String text = "\"(PDH-CSV 4.0) (\",\"\\\\H\\Process(caf\u00e9)\\ID Process\"\r\n\"01/02/2023 03:04:05.006\",\"7\"\r\n";
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    byte[] bom = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8);
    byte[] utf16 = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, text.getBytes(StandardCharsets.UTF_16LE));
    // "\u65e5\u672c" in CP932 is 0x93 0xFA 0x96 0x7B: not valid UTF-8
    byte[] cp932 = text.replace("caf\u00e9", "\u65e5\u672c").getBytes(Charset.forName("windows-31j"));

    assertThat(instance(PdhCsv.parse(utf8))).isEqualTo("caf\u00e9");
    assertThat(PdhCsv.parse(bom).charset()).isEqualTo(StandardCharsets.UTF_8);
    assertThat(instance(PdhCsv.parse(bom))).isEqualTo("caf\u00e9");
    assertThat(PdhCsv.parse(utf16).charset()).isEqualTo(StandardCharsets.UTF_16LE);
    assertThat(instance(PdhCsv.parse(utf16))).isEqualTo("caf\u00e9");
    CounterLog legacy = PdhCsv.parse(cp932);
    assertThat(legacy.charset()).isEqualTo(StandardCharsets.ISO_8859_1);
    assertThat(legacy.columns().get(0).counter()).isEqualTo("ID Process");
    assertThat(legacy.rows().get(0).value(0)).hasValue(7);
  }

  @ParameterizedTest
  @CsvSource({"0, 0", "12.5, 12.5", "1.0E-5, 0.00001", "4294967295, 4294967295", "1.0E20, 100000000000000000000"})
  void writesPlainDecimals(double value, String text) {
    assertThat(PdhCsv.decimal(value)).isEqualTo(text);
    assertThat(Double.parseDouble(text)).isEqualTo(value);
  }

  private static String instance(CounterLog log) {
    return log.columns().get(0).instance();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
