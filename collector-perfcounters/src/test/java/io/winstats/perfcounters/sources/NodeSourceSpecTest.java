package io.winstats.perfcounters.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.replay.ReplayNodeSource.Timeline;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every {@code --node.source} form, parsed once into the source it names. */
class NodeSourceSpecTest {
  private static final boolean WINDOWS = true;
  private static final boolean LINUX = false;

  @Test
  void autoIsTheHostsSource() {
    assertThat(NodeSourceSpec.parse("auto", WINDOWS)).isEqualTo(new NodeSourceSpec.Pdh());
    assertThat(NodeSourceSpec.parse("auto", LINUX)).isEqualTo(new NodeSourceSpec.Procfs(Path.of("/proc"), null));
  }

  @Test
  void procfsForms() {
    assertThat(NodeSourceSpec.parse("procfs", LINUX)).isEqualTo(new NodeSourceSpec.Procfs(Path.of("/proc"), null));
    assertThat(NodeSourceSpec.parse("procfs:/host/proc", LINUX))
        .isEqualTo(new NodeSourceSpec.Procfs(Path.of("/host/proc"), null));
    assertThat(NodeSourceSpec.parse("procfs:/host/proc,rootfs=/host/root", LINUX))
        .isEqualTo(new NodeSourceSpec.Procfs(Path.of("/host/proc"), Path.of("/host/root")));
  }

  @Test
  void pdhParsesOnEveryHost() {
    assertThat(NodeSourceSpec.parse("pdh", LINUX)).isEqualTo(new NodeSourceSpec.Pdh());
  }

  @Test
  void replayTakesItsOptionsAfterTheFileNameWhichMayHoldCommas() {
    assertThat(NodeSourceSpec.parse("replay:/logs/a,b.csv,speed=max,bias=-480,time=recorded", LINUX))
        .isEqualTo(new NodeSourceSpec.Replay(Path.of("/logs/a,b.csv"), Double.POSITIVE_INFINITY, -480, Timeline.RECORDED));
    assertThat(NodeSourceSpec.parse("replay:/logs/a.csv", LINUX))
        .isEqualTo(new NodeSourceSpec.Replay(Path.of("/logs/a.csv"), 1, null, Timeline.REPLAY));
    assertThat(NodeSourceSpec.parse("replay:/logs/a.csv,speed=2.5,time=replay", LINUX))
        .isEqualTo(new NodeSourceSpec.Replay(Path.of("/logs/a.csv"), 2.5, null, Timeline.REPLAY));
  }

  /** What {@code --print-config} writes parses back to the same spec. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "procfs",
        "procfs:/host/proc",
        "procfs:/host/proc,rootfs=/host/root",
        "pdh",
        "replay:/logs/a.csv",
        "replay:/logs/a,b.csv,speed=max,bias=-480,time=recorded",
        "replay:/logs/a.csv,speed=0.5"
      })
  void theTextFormIsTheFlagValue(String text) {
    NodeSourceSpec spec = NodeSourceSpec.parse(text, LINUX);
    assertThat(spec.toString()).isEqualTo(text);
    assertThat(NodeSourceSpec.parse(spec.toString(), LINUX)).isEqualTo(spec);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "wmi", "proc", "procfs:", "replay:", "PDH", "auto:x"})
  void anUnsupportedChoiceListsTheAcceptedForms(String text) {
    assertThatThrownBy(() -> NodeSourceSpec.parse(text, LINUX))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'" + text + "' is not one of " + NodeSourceSpec.ACCEPTED);
  }

  @Test
  void replayWithoutAFileIsRefused() {
    assertThatThrownBy(() -> NodeSourceSpec.parse("replay:,speed=2", LINUX))
        .hasMessageStartingWith("replay needs a file; accepted: auto, procfs, procfs:PROC[,rootfs=DIR], pdh, replay:FILE");
  }

  @ParameterizedTest
  @ValueSource(strings = {"procfs:,rootfs=/host/root", "procfs:/host/proc,rootfs="})
  void procfsWithAnEmptyRootOrRootfsIsRefused(String text) {
    assertThatThrownBy(() -> NodeSourceSpec.parse(text, LINUX))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("procfs needs a proc root and a rootfs directory");
  }

  @ParameterizedTest
  @ValueSource(strings = {",speed=0", ",speed=-1", ",speed=fast", ",speed=Infinity", ",bias=x", ",bias=9999"})
  void badReplayOptionsAreRefused(String options) {
    assertThatThrownBy(() -> NodeSourceSpec.parse("replay:/logs/a.csv" + options, LINUX))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("replay ");
  }
}
