package io.winstats.exporter.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.winstats.exporter.compare.FigureComparison.Result;
import io.winstats.exporter.compare.FigureComparison.Row;
import io.winstats.exporter.compare.FigureComparison.Verdict;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Figure-by-figure comparison against kubelet-shaped Summaries. The fixture compare/kubelet-linux-summary.json is
 * written to the kubelet's stats types (kubernetes pkg/kubelet/apis/stats/v1alpha1/types.go: NodeStats, PodStats,
 * ContainerStats, CPUStats, MemoryStats, NetworkStats with its interfaces, FsStats, RuntimeStats, RlimitStats,
 * VolumeStats, ProcessStats), each object with the kubelet's JSON field names and metav1.Time stamps.
 */
class SummaryComparisonTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String WEB = "11111111-aaaa-4aaa-8aaa-111111111111";
  private static final String DB = "22222222-bbbb-4bbb-8bbb-222222222222";

  static ObjectNode kubeletDocument() throws Exception {
    try (InputStream in = SummaryComparisonTest.class.getResourceAsStream("/compare/kubelet-linux-summary.json")) {
      return (ObjectNode) JSON.readTree(in);
    }
  }

  private static Figures figures(JsonNode doc) throws Exception {
    return SummaryFigures.of(doc, null);
  }

  private static Map<String, Verdict> verdicts(Result result) {
    return result.rows().stream()
        .filter(r -> r.verdict() != Verdict.OK)
        .collect(java.util.stream.Collectors.toMap(Row::key, Row::verdict));
  }

  @Test
  void theSameDocumentAgreesInEveryFigure() throws Exception {
    Figures doc = figures(kubeletDocument());

    Result result = FigureComparison.compare(List.of(doc, doc), doc);

    assertThat(result.rows()).hasSize(doc.figures().size());
    assertThat(result.count(Verdict.OK)).isEqualTo(doc.figures().size());
    assertThat(result.onlyReference()).isEmpty();
    assertThat(result.onlyDaemon()).isEmpty();
    assertThat(result.figuresOnlyReference()).isEmpty();
    assertThat(result.figuresOnlyDaemon()).isEmpty();
  }

  @Test
  void keysNameWhereEachFigureIs() throws Exception {
    Map<String, Figures.Figure> f = figures(kubeletDocument()).figures();

    assertThat(f).containsKeys(
        "node.memory.workingSetBytes",
        "node.systemContainers[pods].memory.availableBytes",
        "node.network.interfaces[cni0].txBytes",
        "node.runtime.imageFs.capacityBytes",
        "pods[" + WEB + "].containers[app].cpu.usageCoreNanoSeconds",
        "pods[" + WEB + "].volume[config].usedBytes",
        "pods[" + WEB + "].ephemeral-storage.usedBytes",
        "pods[" + WEB + "].process_stats.process_count");
    assertThat(f.get("pods[" + WEB + "].containers[app].cpu.usageCoreNanoSeconds").time())
        .isEqualTo(Instant.parse("2026-11-28T10:00:08Z"));
    assertThat(f.get("node.network.interfaces[eth0].rxBytes").time())
        .as("an interface has no time of its own: its network's")
        .isEqualTo(Instant.parse("2026-11-28T10:00:10Z"));
  }

  /** Each perturbed figure, and only it, is reported, with the daemon's value less the kubelet's. */
  @Test
  void exactlyThePerturbedFiguresDiffer() throws Exception {
    ObjectNode daemon = kubeletDocument();
    ObjectNode kubelet = kubeletDocument();
    // A gauge 100 MB off a 250 MB working set: beyond 10% (25 MB) and the 16 MiB floor.
    ((ObjectNode) kubelet.at("/pods/0/containers/0/memory")).put("workingSetBytes", 350_000_000L);
    // A capacity one block off.
    ((ObjectNode) kubelet.at("/node/fs")).put("capacityBytes", 100_000_004_096L);
    // A counter above the daemon's reading at the same time.
    ((ObjectNode) kubelet.at("/node/network/interfaces/1")).put("txBytes", 6_500);
    // A gauge inside its tolerance: 1 MB off a 60 MB working set (floor 16 MiB).
    ((ObjectNode) kubelet.at("/node/systemContainers/0/memory")).put("workingSetBytes", 61_000_000L);

    Result result = FigureComparison.compare(List.of(figures(daemon)), figures(kubelet));

    assertThat(verdicts(result))
        .containsOnlyKeys(
            "pods[" + WEB + "].containers[app].memory.workingSetBytes",
            "node.fs.capacityBytes",
            "node.network.interfaces[cni0].txBytes");
    Row ws = row(result, "pods[" + WEB + "].containers[app].memory.workingSetBytes");
    assertThat(ws.difference()).isEqualTo(-100_000_000);
    assertThat(ws.tolerance()).isEqualTo(35_000_000);
    assertThat(row(result, "node.network.interfaces[cni0].txBytes").difference()).isEqualTo(-500);
    assertThat(row(result, "node.systemContainers[kubelet].memory.workingSetBytes").verdict()).isEqualTo(Verdict.OK);
  }

  /**
   * A counter is held between the daemon's last reading at or before the kubelet's time and its first at or after
   * it; with readings on one side only, on that side only.
   */
  @Test
  void aCounterLiesBetweenTheDaemonsReadingsAroundIt() throws Exception {
    String key = "pods[" + WEB + "].containers[app].cpu.usageCoreNanoSeconds";
    Figures before = figures(withAppCpu("2026-11-28T10:00:00Z", 100));
    Figures after = figures(withAppCpu("2026-11-28T10:00:20Z", 300));

    assertThat(row(compare(before, after, withAppCpu("2026-11-28T10:00:10Z", 200)), key).verdict())
        .isEqualTo(Verdict.OK);
    Row above = row(compare(before, after, withAppCpu("2026-11-28T10:00:10Z", 350)), key);
    assertThat(above.verdict()).isEqualTo(Verdict.DIFFERS);
    assertThat(above.difference()).isEqualTo(-50);
    assertThat(above.daemonLow()).isEqualTo(100);
    assertThat(above.daemonHigh()).isEqualTo(300);
    Row below = row(compare(before, after, withAppCpu("2026-11-28T10:00:10Z", 90)), key);
    assertThat(below.verdict()).isEqualTo(Verdict.DIFFERS);
    assertThat(below.difference()).isEqualTo(10);
    // Earlier than every reading of the daemon: at most its first.
    Row early = row(compare(before, after, withAppCpu("2026-11-28T09:59:50Z", 90)), key);
    assertThat(early.verdict()).isEqualTo(Verdict.OK);
    assertThat(early.daemonLow()).isNull();
    assertThat(row(compare(before, after, withAppCpu("2026-11-28T09:59:50Z", 101)), key).verdict())
        .isEqualTo(Verdict.DIFFERS);
  }

  /** A counter whose object carries no time, from a file, cannot be placed: unbracketed, not a difference. */
  @Test
  void aCounterWithoutATimeIsUnbracketed() throws Exception {
    ObjectNode kubelet = kubeletDocument();
    ((ObjectNode) kubelet.at("/pods/0/containers/0/cpu")).remove("time");
    ((ObjectNode) kubelet.at("/pods/0/containers/0/cpu")).put("usageCoreNanoSeconds", 1);

    Result result = FigureComparison.compare(List.of(figures(kubeletDocument())), figures(kubelet));

    assertThat(verdicts(result))
        .containsExactly(Map.entry("pods[" + WEB + "].containers[app].cpu.usageCoreNanoSeconds", Verdict.UNBRACKETED));
  }

  /** Pods are matched by uid, not by place; each side's own pods are listed once, not figure by figure. */
  @Test
  void podsAreMatchedByUidAndThoseOfOneSideListed() throws Exception {
    ObjectNode daemon = kubeletDocument();
    ObjectNode kubelet = kubeletDocument();
    ArrayNode pods = (ArrayNode) kubelet.get("pods");
    pods.insert(0, pods.remove(1));
    ObjectNode extra = pods.get(1).deepCopy();
    ((ObjectNode) extra.get("podRef")).put("uid", "33333333-cccc-4ccc-8ccc-333333333333").put("name", "job-1");
    pods.add(extra);
    ((ArrayNode) daemon.get("pods")).remove(1);
    ((ObjectNode) kubelet.at("/node/systemContainers/1/memory")).remove("rssBytes");

    Result result = FigureComparison.compare(List.of(figures(daemon)), figures(kubelet));

    assertThat(verdicts(result)).isEmpty();
    assertThat(result.onlyReference())
        .containsOnlyKeys("pods[" + DB + "]", "pods[33333333-cccc-4ccc-8ccc-333333333333]")
        .containsEntry("pods[" + DB + "]", "pod shop/db-0");
    assertThat(result.onlyDaemon()).isEmpty();
    assertThat(result.figuresOnlyDaemon()).containsExactly("node.systemContainers[pods].memory.rssBytes");
    assertThat(result.figuresOnlyReference()).isEmpty();
  }

  @Test
  void aDocumentWithoutANodeIsNotASummary() {
    assertThatThrownBy(() -> SummaryFigures.of(JSON.readTree("{\"items\":[]}"), null))
        .isInstanceOf(Figures.NotAFigureDocumentException.class)
        .hasMessageContaining("no node.nodeName");
  }

  private static ObjectNode withAppCpu(String time, long nanos) throws Exception {
    ObjectNode doc = kubeletDocument();
    ((ObjectNode) doc.at("/pods/0/containers/0/cpu")).put("time", time).put("usageCoreNanoSeconds", nanos);
    return doc;
  }

  private static Result compare(Figures before, Figures after, JsonNode reference) throws Exception {
    return FigureComparison.compare(List.of(before, after), figures(reference));
  }

  private static Row row(Result result, String key) {
    return result.rows().stream()
        .filter(r -> r.key().equals(key))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row " + key));
  }
}
