package io.winstats.perfcounters.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class NodeCounterSourcesTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-21T00:00:00Z"), ZoneOffset.UTC);
  private static final String LOG =
      """
      "(PDH-CSV 4.0) (","\\\\H\\System\\Processes"
      "01/01/2026 00:00:00.000","5"
      "01/01/2026 00:00:01.000","6"
      """;

  /** procfs and replay do not depend on the host; pdh and auto are asked about a host that is not Windows. */
  private static final boolean NOT_WINDOWS = false;

  @TempDir Path dir;

  private static NodeSourceSpec spec(String text) {
    return NodeSourceSpec.parse(text, NOT_WINDOWS);
  }

  @Test
  void pdhIsRefusedOffWindows() {
    assertThatThrownBy(() -> NodeCounterSources.open(spec("pdh"), CLOCK, NOT_WINDOWS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pdh source is only available on Windows");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void autoIsProcfsOnLinux() {
    try (NodeCounterSource source = NodeCounterSources.open(spec("auto"), CLOCK, NOT_WINDOWS)) {
      assertThat(source.name()).isEqualTo("procfs");
      assertThat(source.platform()).isEqualTo(NodePlatform.LINUX);
    }
  }

  @Test
  void procfsWithARootReadsThatTree() throws URISyntaxException {
    Path root = Path.of(getClass().getResource("/fixtures/procfs/vm-debian12-2cpu").toURI());

    try (NodeCounterSource source = NodeCounterSources.open(spec("procfs:" + root), CLOCK, NOT_WINDOWS)) {
      NodeSample sample = source.sample();
      assertThat(source.name()).isEqualTo("procfs");
      assertThat(sample.cpu().usageCoreNanos()).isEqualTo(158_070_000_000L);
      assertThat(sample.timestamp()).isEqualTo(CLOCK.instant());
    }
  }

  @Test
  void procfsWithARootfsReadsTheHostMountTableUnderIt() throws URISyntaxException {
    Path tree = Path.of(getClass().getResource("/fixtures/procfs/container-host-view").toURI());

    try (NodeCounterSource source =
        NodeCounterSources.open(spec("procfs:" + tree.resolve("proc") + ",rootfs=" + tree.resolve("root")), CLOCK, NOT_WINDOWS)) {
      assertThat(source.name()).isEqualTo("procfs");
      assertThat(source.sample().filesystems()).extracting(FilesystemUsage::mountpoint).containsExactly("/", "/data");
    }
  }

  @Test
  void replayTakesSpeedAndBiasOptionsAfterTheFileName() throws IOException {
    Path file = Files.writeString(dir.resolve("a,b.csv"), LOG);

    try (NodeCounterSource source =
        NodeCounterSources.open(spec("replay:" + file + ",speed=max,bias=-480,time=recorded"), CLOCK, NOT_WINDOWS)) {
      assertThat(source.name()).isEqualTo("replay");
      assertThat(source.platform()).as("a counter log describes a Windows node").isEqualTo(NodePlatform.WINDOWS);
      assertThat(source.sample().timestamp()).isEqualTo(Instant.parse("2025-12-31T16:00:00Z"));
      assertThat(source.sample().system().processes()).as("speed=max: one row per call").isEqualTo(6);
    }
    try (NodeCounterSource source = NodeCounterSources.open(spec("replay:" + file + ",time=recorded"), CLOCK, NOT_WINDOWS)) {
      assertThat(source.sample().timestamp()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
      assertThat(source.sample().system().processes()).as("recorded pace, fixed clock: row 0 again").isEqualTo(5);
    }
    try (NodeCounterSource source = NodeCounterSources.open(spec("replay:" + file), CLOCK, NOT_WINDOWS)) {
      assertThat(source.sample().timestamp()).as("the default replay timeline stamps replay time").isEqualTo(CLOCK.instant());
    }
  }

  @Test
  void anAbsentLogIsASourceFailureNotABadChoice() {
    assertThatThrownBy(() -> NodeCounterSources.open(spec("replay:" + dir.resolve("absent.csv")), CLOCK, NOT_WINDOWS))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.NOT_FOUND));
  }
}
