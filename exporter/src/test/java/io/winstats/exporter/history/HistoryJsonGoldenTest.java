package io.winstats.exporter.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.SampleFixtures;
import io.winstats.summary.SummaryAssembler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The history's JSON, version 1, against golden files (docs/NODE-PAGE.md documents the same shape): a Linux and a
 * Windows node, each two node samples and two runtime rounds of the Summary's fixture pods (so that every rate has a
 * sample before it), and one pod's window with its labels, image and limits. Sample times are the fixtures' own.
 * {@code -Dgolden.update=true} rewrites the goldens for review.
 */
class HistoryJsonGoldenTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Instant T2 = SampleFixtures.T1.plusSeconds(10);

  static Stream<Arguments> bodies() {
    return Stream.of(
        Arguments.of("linux-node.json", (Function<Recorded, byte[]>) r -> HistoryJson.node(r.history())),
        Arguments.of("linux-pod.json",
            (Function<Recorded, byte[]>)
                r -> Objects.requireNonNull(HistoryJson.pod(r.history(), "uid-burner", r.runtime()))),
        Arguments.of("windows-node.json", (Function<Recorded, byte[]>) r -> HistoryJson.node(r.history())),
        Arguments.of("windows-pod.json",
            (Function<Recorded, byte[]>)
                r -> Objects.requireNonNull(HistoryJson.pod(r.history(), "uid-sleeper", r.runtime()))));
  }

  /** A history and the newest runtime round recorded into it. */
  record Recorded(NodeHistory history, RuntimeSample runtime) {}

  private static Recorded recorded(boolean windows) {
    NodePlatform platform = windows ? NodePlatform.WINDOWS : NodePlatform.LINUX;
    NodeSample n0 =
        windows
            ? SampleFixtures.windowsNode(SampleFixtures.T0, 0, 20_000_000_000L)
            : SampleFixtures.linuxNode(SampleFixtures.T0, 0, 20_000_000_000L);
    NodeSample n1 =
        windows
            ? SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L)
            : SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L);
    RuntimeSample r1 = windows ? SampleFixtures.windowsRuntime() : SampleFixtures.runtime();
    RuntimeSample r2 = later(r1);
    NodeHistory history = new NodeHistory(4, "node-a", platform, Duration.ofSeconds(10));
    HistoryRecorder recorder = new HistoryRecorder(history, new SummaryAssembler("node-a", platform));
    recorder.nodePublished(new Snapshot(1, n0, null, null, null));
    recorder.nodePublished(new Snapshot(2, n1, n0, null, null));
    recorder.runtimePublished(new Snapshot(3, n1, n0, r1, null));
    recorder.runtimePublished(new Snapshot(4, n1, n0, r2, null));
    return new Recorded(history, r2);
  }

  /** The round ten seconds on: each pod with a network has received 20,000 and sent 5,000 bytes more. */
  private static RuntimeSample later(RuntimeSample round) {
    List<PodSample> pods =
        round.pods().stream()
            .map(
                p ->
                    p.network() == null
                        ? p
                        : p.toBuilder()
                            .network(
                                new NetworkUsage(
                                    T2,
                                    p.network().interfaces().stream()
                                        .map(
                                            i ->
                                                InterfaceUsage.builder(i.name())
                                                    .rxBytes(i.rxBytes() == null ? null : i.rxBytes() + 20_000)
                                                    .txBytes(i.txBytes() == null ? null : i.txBytes() + 5_000)
                                                    .rxErrors(i.rxErrors())
                                                    .txErrors(i.txErrors())
                                                    .build())
                                        .toList()))
                            .build())
            .toList();
    return round.toBuilder().timestamp(T2).pods(pods).build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bodies")
  void matchesItsGolden(String name, Function<Recorded, byte[]> body) throws IOException {
    byte[] actual = body.apply(recorded(name.startsWith("windows")));
    Path golden = Path.of("src/test/resources/golden/history", name);
    if (Boolean.getBoolean("golden.update")) {
      Files.createDirectories(golden.getParent());
      Files.write(golden, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(MAPPER.readTree(actual)));
    }
    // Byte for byte, key order included: the golden, pretty-printed for review, re-written compactly.
    assertThat(new String(actual, java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(new String(MAPPER.writeValueAsBytes(MAPPER.readTree(Files.readAllBytes(golden))),
            java.nio.charset.StandardCharsets.UTF_8));
  }
}
