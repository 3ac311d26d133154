package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
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
  void aRequestForAnOlderVersionComputesNothingAndKeepsTheNewest() {
    compute(5, "text");
    assertThat(cache.get(4, "text", k -> k + "@4#" + computed.incrementAndGet())).isNull();
    assertThat(computed.get()).isEqualTo(1);
    assertThat(cache.getIfPresent(5, "text")).isEqualTo("text@5#1");
    assertThat(cache.getIfPresent(4, "text")).isNull();
  }

  /** N requests over K versions compute one value per version and key asked for, whatever N. */
  @Test
  void computationsCountOnePerVersionAndKeyAskedFor() {
    for (int i = 0; i < 10; i++) {
      compute(1, "text");
    }
    compute(1, "gzip");
    // Versions 2 and 3 published but never asked for: nothing computed for them.
    for (int i = 0; i < 7; i++) {
      compute(4, "text");
    }
    assertThat(cache.computations()).isEqualTo(3);
    assertThat(computed.get()).isEqualTo(3);
  }

  @Test
  void aNewerVersionHandsEveryOlderValueToEvictedOnceAndHoldsNoneOfThem() {
    List<String> evicted = new ArrayList<>();
    LatestVersionCache<String, String> evicting = new LatestVersionCache<>(evicted::add);
    evicting.get(1, "text", k -> "text@1");
    evicting.get(1, "gzip", k -> "gzip@1");
    assertThat(evicting.held()).containsExactlyInAnyOrder("text@1", "gzip@1");
    evicting.get(2, "text", k -> "text@2");
    assertThat(evicted).containsExactlyInAnyOrder("text@1", "gzip@1");
    assertThat(evicting.held()).containsExactly("text@2");
    evicting.get(3, "text", k -> "text@3");
    assertThat(evicted).containsExactlyInAnyOrder("text@1", "gzip@1", "text@2");
  }

  /** A value superseded while it was being computed is handed to evicted when its computation ends. */
  @Test
  void aValueSupersededDuringItsComputationIsEvictedWhenItEnds() {
    List<String> evicted = new ArrayList<>();
    LatestVersionCache<String, String> evicting = new LatestVersionCache<>(evicted::add);
    String first =
        evicting.get(
            1,
            "text",
            k -> {
              evicting.get(2, "text", k2 -> "text@2");
              assertThat(evicted).isEmpty();
              return "text@1";
            });
    assertThat(first).isEqualTo("text@1");
    assertThat(evicted).containsExactly("text@1");
    assertThat(evicting.held()).containsExactly("text@2");
  }

  @Test
  void aFailedComputationIsNotCached() {
    assertThatThrownBy(() -> cache.get(1, "text", k -> {
      throw new IllegalStateException("boom");
    })).isInstanceOf(IllegalStateException.class);
    assertThat(compute(1, "text")).isEqualTo("text@1#1");
  }
}
