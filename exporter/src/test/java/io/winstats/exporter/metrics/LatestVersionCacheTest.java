package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LatestVersionCacheTest {
  private final LatestVersionCache<String, String> cache = new LatestVersionCache<>();
  private final AtomicInteger computed = new AtomicInteger();

  private String compute(long version, String key) {
    return cache.get(version, key, k -> k + "@" + version + "#" + computed.incrementAndGet());
  }

  @Test
  void aValueIsComputedOncePerVersionAndKey() {
    assertThat(compute(1, "text")).isEqualTo("text@1#1");
    assertThat(compute(1, "text")).isEqualTo("text@1#1");
    assertThat(compute(1, "gzip")).isEqualTo("gzip@1#2");
    assertThat(cache.getIfPresent(1, "gzip")).isEqualTo("gzip@1#2");
  }

  @Test
  void aNewerVersionDropsEveryValueOfTheOlderOnes() {
    compute(1, "text");
    compute(1, "gzip");
    compute(2, "text");
    assertThat(cache.getIfPresent(1, "text")).isNull();
    assertThat(cache.getIfPresent(1, "gzip")).isNull();
    assertThat(cache.getIfPresent(2, "gzip")).isNull();
    assertThat(cache.getIfPresent(2, "text")).isEqualTo("text@2#3");
  }

  @Test
  void aRequestForAnOlderVersionIsComputedButNeverReplacesTheNewest() {
    compute(5, "text");
    assertThat(compute(4, "text")).isEqualTo("text@4#2");
    assertThat(cache.getIfPresent(5, "text")).isEqualTo("text@5#1");
    assertThat(cache.getIfPresent(4, "text")).isNull();
  }
}
