package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PdhStatusTest {

  /** Values from mingw-w64 10.0.0 {@code mingw-w64-headers/include/pdhmsg.h} and jna-platform 5.18.1 PdhMsg. */
  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "PDH_CSTATUS_VALID_DATA, 00000000",
    "PDH_CSTATUS_NEW_DATA, 00000001",
    "PDH_CSTATUS_NO_MACHINE, 800007D0",
    "PDH_CSTATUS_NO_INSTANCE, 800007D1",
    "PDH_MORE_DATA, 800007D2",
    "PDH_CSTATUS_ITEM_NOT_VALIDATED, 800007D3",
    "PDH_NO_DATA, 800007D5",
    "PDH_CALC_NEGATIVE_DENOMINATOR, 800007D6",
    "PDH_CALC_NEGATIVE_VALUE, 800007D8",
    "PDH_CSTATUS_NO_OBJECT, C0000BB8",
    "PDH_CSTATUS_NO_COUNTER, C0000BB9",
    "PDH_CSTATUS_INVALID_DATA, C0000BBA",
    "PDH_INVALID_HANDLE, C0000BBC",
    "PDH_INVALID_ARGUMENT, C0000BBD",
    "PDH_CSTATUS_BAD_COUNTERNAME, C0000BC0",
    "PDH_INVALID_PATH, C0000BC4",
    "PDH_INVALID_DATA, C0000BC6",
    "PDH_ACCESS_DENIED, C0000BDB",
  })
  void valuesMatchPdhMsg(PdhStatus status, String hex) {
    assertThat(status.code()).isEqualTo(Integer.parseUnsignedInt(hex, 16));
    assertThat(status.hex()).isEqualTo("0x" + hex);
    if (status != PdhStatus.PDH_CSTATUS_VALID_DATA) {
      assertThat(PdhStatus.fromCode(status.code())).contains(status);
    }
  }

  @Test
  void jnaDeclaresErrorsAsNegativeInts() {
    assertThat(PdhStatus.PDH_INVALID_DATA.code()).isEqualTo(-1073738810);
  }

  @Test
  void zeroIsSuccessAndValidItemData() {
    assertThat(PdhStatus.fromCode(0)).contains(PdhStatus.ERROR_SUCCESS);
    assertThat(PdhStatus.isValidItemStatus(0)).isTrue();
    assertThat(PdhStatus.isValidItemStatus(1)).isTrue();
    assertThat(PdhStatus.isValidItemStatus(PdhStatus.PDH_CSTATUS_NO_INSTANCE.code())).isFalse();
  }

  @Test
  void unknownCodesArePreservedAsHex() {
    int code = 0xC0000BF6;
    assertThat(PdhStatus.fromCode(code)).isEmpty();
    assertThat(PdhStatus.describe(code)).isEqualTo("0xC0000BF6");
    PdhException e = new PdhException(code, "PdhAddEnglishCounterW", "\\X\\Y");
    assertThat(e.code()).isEqualTo(code);
    assertThat(e.statusName()).isEqualTo("0xC0000BF6");
    assertThat(e.status()).isEmpty();
    assertThat(e.getMessage()).contains("PdhAddEnglishCounterW", "0xC0000BF6", "\\X\\Y");
  }

  @Test
  void codesAreUniqueApartFromTheSharedZero() {
    long distinct = java.util.Arrays.stream(PdhStatus.values()).mapToInt(PdhStatus::code).distinct().count();
    assertThat(distinct).isEqualTo(PdhStatus.values().length - 1);
  }
}
