package io.winstats.exporter.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.exporter.history.NodeHistory.ContainerRow;
import io.winstats.exporter.history.NodeHistory.PodRow;
import io.winstats.perfcounters.NodePlatform;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeHistoryTest {
  private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
  private static final long A = Series.ABSENT;
  private static final ObjectMapper JSON = new ObjectMapper();

  private static NodeHistory history(int samples) {
    return new NodeHistory(samples, "node-a", NodePlatform.LINUX, Duration.ofSeconds(10));
  }

  private static JsonNode node(NodeHistory h) throws IOException {
    return JSON.readTree(HistoryJson.node(h));
  }

  private static JsonNode pod(NodeHistory h, String uid) throws IOException {
    byte[] body = HistoryJson.pod(h, uid, null);
    assertThat(body).as("pod " + uid).isNotNull();
    return JSON.readTree(body);
  }

  /** cpu, working set, commit, rx, tx, fs used, fs capacity. */
  private static long[] node(long cpu, long rx) {
    return new long[] {cpu, 1_000, A, rx, A, 50, 100};
  }

  private static PodRow pod(String uid, long cpu, long rx, ContainerRow... containers) {
    return new PodRow("ns", "pod-" + uid, uid, new long[] {cpu, 2_000, rx, A, 7}, List.of(containers));
  }

  private static ContainerRow container(String name, long cpu) {
    return new ContainerRow(name, new long[] {cpu, 1_500, A});
  }

  @Test
  void keepsTheLastSamplesOnlyOldestFirst() throws IOException {
    NodeHistory h = history(3);
    for (int i = 0; i < 5; i++) {
      h.recordNode(T0.plusSeconds(10L * i), node(i, 0));
    }

    JsonNode json = node(h);
    assertThat(json.get("times")).extracting(JsonNode::asLong).containsExactly(
        T0.plusSeconds(20).toEpochMilli(), T0.plusSeconds(30).toEpochMilli(), T0.plusSeconds(40).toEpochMilli());
    assertThat(json.at("/series/cpuUsageNanoCores")).extracting(JsonNode::asLong).containsExactly(2L, 3L, 4L);
    assertThat(json.get("samples").asInt()).isEqualTo(3);
  }

  @Test
  void anAbsentFigureIsNullNeverZero() throws IOException {
    NodeHistory h = history(3);
    h.recordNode(T0, node(A, 0));

    JsonNode json = node(h);
    assertThat(json.at("/series/cpuUsageNanoCores/0").isNull()).isTrue();
    assertThat(json.at("/series/memoryCommitBytes/0").isNull()).as("commit off Windows").isTrue();
    assertThat(json.at("/series/networkTxBytesPerSecond/0").isNull()).isTrue();
    assertThat(json.at("/series/fsUsedBytes/0").asLong()).isEqualTo(50);
  }

  @Test
  void aCumulativeFigureIsARatePerSecondWithNoneAtTheFirstSampleOrAcrossAReset() throws IOException {
    NodeHistory h = history(4);
    h.recordNode(T0, node(1, 1_000));
    h.recordNode(T0.plusSeconds(10), node(1, 6_000));
    h.recordNode(T0.plusSeconds(20), node(1, 500));
    h.recordNode(T0.plusSeconds(25), node(1, 1_500));

    JsonNode rx = node(h).at("/series/networkRxBytesPerSecond");
    assertThat(rx.get(0).isNull()).isTrue();
    assertThat(rx.get(1).asDouble()).isEqualTo(500.0);
    assertThat(rx.get(2).isNull()).as("a decrease is a reset").isTrue();
    assertThat(rx.get(3).asDouble()).isEqualTo(200.0);
  }

  @Test
  void theTableListsThePodsOfTheNewestRuntimeSampleByCpuAndAGonePodLeavesItAtOnce() throws IOException {
    NodeHistory h = history(3);
    h.recordPods(T0, List.of(pod("a", 10, 0), pod("b", 30, 0), pod("c", A, 0)));
    assertThat(node(h).get("pods")).extracting(p -> p.get("uid").asText()).containsExactly("b", "a", "c");

    h.recordPods(T0.plusSeconds(10), List.of(pod("a", 50, 100), pod("c", 1, 0)));
    JsonNode json = node(h);
    assertThat(json.get("pods")).extracting(p -> p.get("uid").asText()).containsExactly("a", "c");
    assertThat(json.at("/pods/0/networkRxBytesPerSecond").asDouble()).isEqualTo(10.0);
    assertThat(json.get("podsTime").asLong()).isEqualTo(T0.plusSeconds(10).toEpochMilli());
  }

  @Test
  void aPodKeepsItsWindowWithGapsUntilItsLastSampleLeavesIt() throws IOException {
    NodeHistory h = history(3);
    h.recordPods(T0, List.of(pod("a", 10, 0, container("app", 9))));
    h.recordPods(T0.plusSeconds(10), List.of());
    h.recordPods(T0.plusSeconds(20), List.of(pod("a", 30, 0, container("app", 29))));

    JsonNode a = pod(h, "a");
    assertThat(a.at("/pod/present").asBoolean()).isTrue();
    assertThat(a.at("/series/cpuUsageNanoCores").toString()).isEqualTo("[10,null,30]");
    assertThat(a.at("/containers/0/series/cpuUsageNanoCores").toString()).isEqualTo("[9,null,29]");

    long withPod = h.bytes();
    h.recordPods(T0.plusSeconds(30), List.of());
    assertThat(pod(h, "a").at("/pod/present").asBoolean()).isFalse();
    h.recordPods(T0.plusSeconds(40), List.of());
    h.recordPods(T0.plusSeconds(50), List.of());
    assertThat(HistoryJson.pod(h, "a", null)).as("no sample of a in the window").isNull();
    assertThat(h.bytes()).isLessThan(withPod).isEqualTo(history(3).bytes());
  }

  @Test
  void aContainerGoneFromItsPodIsForgottenWhenItsLastSampleLeavesTheWindow() throws IOException {
    NodeHistory h = history(2);
    h.recordPods(T0, List.of(pod("a", 1, 0, container("init", 1), container("app", 1))));
    h.recordPods(T0.plusSeconds(10), List.of(pod("a", 1, 0, container("app", 1))));
    assertThat(pod(h, "a").get("containers")).extracting(c -> c.get("name").asText()).containsExactly("app", "init");

    h.recordPods(T0.plusSeconds(20), List.of(pod("a", 1, 0, container("app", 1))));
    assertThat(pod(h, "a").get("containers")).extracting(c -> c.get("name").asText()).containsExactly("app");
  }

  /**
   * The limit is the node's figures plus {@link NodeHistory#POD_SERIES_LIMIT} pods and {@link
   * NodeHistory#CONTAINER_SERIES_LIMIT} containers with Kubernetes' longest names: exactly that many fit, the next pod
   * and its containers are left out and counted, and the bytes never pass the limit.
   */
  @Test
  void theByteLimitHoldsThePodsAndContainersItIsComputedForAndNoMore() {
    NodeHistory h = history(60);
    assertThat(h.limitBytes()).isEqualTo(NodeHistory.limitBytes(60));
    // 60 samples: the node 4,392 bytes, a pod 3,392 with the longest names, a container 1,718: 2,739,112 bytes.
    assertThat(h.limitBytes()).isEqualTo(2_739_112L);

    List<PodRow> rows = new ArrayList<>();
    for (int p = 0; p <= NodeHistory.POD_SERIES_LIMIT; p++) {
      String uid = String.format("%036d", p);
      List<ContainerRow> containers = new ArrayList<>();
      for (int c = 0; c < 3; c++) {
        containers.add(new ContainerRow(c + "c".repeat(62), new long[] {1, 1, 1}));
      }
      rows.add(new PodRow("n".repeat(63), "p".repeat(253), uid, new long[] {1, 1, 1, 1, 1}, containers));
    }
    h.recordPods(T0, rows);

    assertThat(h.bytes()).isEqualTo(h.limitBytes());
    assertThat(h.droppedSeries()).isEqualTo(4);
  }

  @Test
  void aHistoryNeedsTwoSamplesForARate() {
    assertThatThrownBy(() -> history(1)).isInstanceOf(IllegalArgumentException.class);
  }
}
