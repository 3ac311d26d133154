package io.winstats.perfcounters.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.binding.MemoryBinding.MemoryCounter;
import io.winstats.perfcounters.counters.CounterPath;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogHeaderTest {

  @Test
  void indexesOnlyTheFirstHostCaseInsensitively() {
    LogHeader header =
        new LogHeader(
            Arrays.asList(
                null,
                new CounterPath("NODE-A", "Memory", null, "Available Bytes"),
                new CounterPath("node-a", "Memory", null, "Cache Bytes"),
                new CounterPath("NODE-B", "Memory", null, "Committed Bytes")));

    assertThat(header.host()).isEqualTo("NODE-A");
    assertThat(header.column("Memory", null, MemoryCounter.AVAILABLE_BYTES)).isEqualTo(1);
    assertThat(header.column("memory", null, MemoryCounter.CACHE_BYTES)).isEqualTo(2);
    assertThat(header.column("Memory", null, MemoryCounter.COMMITTED_BYTES)).isNull();
  }

  /** A {@link CounterLog} built in code may hold local paths ({@code \Memory\...}); they used to fail with an NPE. */
  @Test
  void indexesLocalPathsWhenTheFirstCounterColumnIsLocal() {
    LogHeader header =
        new LogHeader(
            List.of(
                new CounterPath("Memory", null, "Available Bytes"),
                new CounterPath("REMOTE", "Memory", null, "Cache Bytes"),
                new CounterPath("Network Interface", "eth0", "Bytes Received/sec")));

    assertThat(header.host()).isNull();
    assertThat(header.column("Memory", null, MemoryCounter.AVAILABLE_BYTES)).isEqualTo(0);
    assertThat(header.column("Memory", null, MemoryCounter.CACHE_BYTES)).isNull();
    assertThat(header.instances("Network Interface")).containsExactly("eth0");
  }
}
