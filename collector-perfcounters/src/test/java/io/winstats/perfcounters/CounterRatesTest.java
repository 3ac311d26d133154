package io.winstats.perfcounters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CounterRatesTest {

  private static final long SECOND = 1_000_000_000L;

  /** An empty {@code previousValue} cell stands for "no previous sample"; an empty expectation for "no value". */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "none",
      value = {
        "first sample                  | none       | 0           | 100        | 1000000000 | BITS_64 | none       | none",
        "steady increase               | 100        | 0           | 300        | 2000000000 | BITS_64 | 200        | 100.0",
        "no change                     | 300        | 0           | 300        | 1000000000 | BITS_64 | 0          | 0.0",
        "sub-second interval           | 0          | 0           | 5          | 250000000  | BITS_64 | 5          | 20.0",
        "64-bit decrease is a reset    | 500        | 0           | 10         | 1000000000 | BITS_64 | none       | none",
        "32-bit decrease wraps         | 4294967290 | 0           | 4          | 1000000000 | BITS_32 | 10         | 10.0",
        "32-bit wrap to zero           | 4294967295 | 0           | 0          | 1000000000 | BITS_32 | 1          | 1.0",
        "32-bit steady                 | 10         | 0           | 20         | 1000000000 | BITS_32 | 10         | 10.0",
        "zero interval                 | 10         | 1000000000  | 20         | 1000000000 | BITS_64 | 10         | none",
        "negative interval             | 10         | 2000000000  | 20         | 1000000000 | BITS_64 | 10         | none",
        "monotonic clock near overflow | 0          | 9223372036854775807 | 3  | -9223372036854775808 | BITS_64 | 3 | 3000000000.0",
        "large 64-bit counter          | 9000000000000000000 | 0 | 9000000001000000000 | 1000000000 | BITS_64 | 1000000000 | 1.0E9",
      })
  void deltaAndRate(
      String name,
      Long previousValue,
      long previousNanos,
      long currentValue,
      long currentNanos,
      CounterWidth width,
      Long expectedDelta,
      Double expectedRate) {
    CounterReading previous = previousValue == null ? null : new CounterReading(previousValue, previousNanos);
    CounterReading current = new CounterReading(currentValue, currentNanos);

    assertThat(CounterRates.delta(previous, current, width))
        .isEqualTo(expectedDelta == null ? OptionalLong.empty() : OptionalLong.of(expectedDelta));
    OptionalDouble rate = CounterRates.rate(previous, current, width);
    if (expectedRate == null) {
      assertThat(rate).isEmpty();
    } else {
      assertThat(rate.getAsDouble()).isCloseTo(expectedRate, org.assertj.core.data.Offset.offset(1e-9));
    }
  }

  @ParameterizedTest
  @CsvSource({"4294967296, 0", "0, 4294967296"})
  void a32BitCounterRejectsValuesOf2To32AndMore(long previous, long current) {
    assertThatThrownBy(
            () ->
                CounterRates.delta(
                    new CounterReading(previous, 0), new CounterReading(current, SECOND), CounterWidth.BITS_32))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("32-bit");
  }

  @ParameterizedTest
  @CsvSource({"-1"})
  void aReadingIsNeverNegative(long value) {
    assertThatThrownBy(() -> new CounterReading(value, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
