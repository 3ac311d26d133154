package io.winstats.summary;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.winstats.summary.SummaryTypes.ContainerStats;
import io.winstats.summary.SummaryTypes.CpuStats;
import io.winstats.summary.SummaryTypes.FsStats;
import io.winstats.summary.SummaryTypes.InterfaceStats;
import io.winstats.summary.SummaryTypes.IoStats;
import io.winstats.summary.SummaryTypes.MemoryStats;
import io.winstats.summary.SummaryTypes.NetworkStats;
import io.winstats.summary.SummaryTypes.NodeStats;
import io.winstats.summary.SummaryTypes.PodStats;
import io.winstats.summary.SummaryTypes.ProcessStats;
import io.winstats.summary.SummaryTypes.PsiData;
import io.winstats.summary.SummaryTypes.PsiStats;
import io.winstats.summary.SummaryTypes.RlimitStats;
import io.winstats.summary.SummaryTypes.RuntimeStats;
import io.winstats.summary.SummaryTypes.Summary;
import io.winstats.summary.SummaryTypes.SwapStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Writes a {@link Summary} as the kubelet does: compact JSON, times as RFC 3339 in UTC with second precision, with
 * jackson-core's streaming generator, field by field in the order of the records (the order of the kubelet's Go
 * structs). Go's {@code *T omitempty} fields, {@code @Nullable} here, are left out when null; plain Go fields are
 * always written, {@code containers} even when empty. No data binding: nothing is introspected or reflected, and no
 * intermediate tree is built.
 */
public final class SummaryJson {

  private static final DateTimeFormatter RFC3339_SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  private static final JsonFactory JSON = JsonFactory.builder().build();

  /** Where a summary's size starts: ~2 KB per pod at 110 pods (379 KB), so most writes grow a few times at most. */
  private static final int INITIAL_BYTES = 64 * 1024;

  private final JsonGenerator out;
  // Most times of one summary are the same few instants (one per sample): formatted once each.
  private @Nullable Instant lastTime;
  private String lastText = "";

  private SummaryJson(JsonGenerator out) {
    this.out = out;
  }

  /** The JSON bytes (UTF-8) of {@code summary}. Thread-safe. */
  public static byte[] write(Summary summary) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(INITIAL_BYTES);
    try (JsonGenerator g = JSON.createGenerator(bytes)) {
      new SummaryJson(g).summary(summary);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize summary", e);
    }
    return bytes.toByteArray();
  }

  /** {@code metav1.Time} drops fractions of a second. */
  static String formatTime(Instant time) {
    return RFC3339_SECONDS.format(time.truncatedTo(ChronoUnit.SECONDS));
  }

  private void summary(Summary s) throws IOException {
    out.writeStartObject();
    out.writeFieldName("node");
    node(s.node());
    out.writeArrayFieldStart("pods");
    for (PodStats p : s.pods()) {
      pod(p);
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  private void node(NodeStats n) throws IOException {
    out.writeStartObject();
    out.writeStringField("nodeName", n.nodeName());
    List<ContainerStats> system = n.systemContainers();
    if (system != null) {
      out.writeArrayFieldStart("systemContainers");
      for (ContainerStats c : system) {
        container(c);
      }
      out.writeEndArray();
    }
    time("startTime", n.startTime());
    cpu(n.cpu());
    memory(n.memory());
    network(n.network());
    fs("fs", n.fs());
    runtime(n.runtime());
    rlimit(n.rlimit());
    io(n.io());
    swap(n.swap());
    out.writeEndObject();
  }

  private void pod(PodStats p) throws IOException {
    out.writeStartObject();
    out.writeObjectFieldStart("podRef");
    out.writeStringField("name", p.podRef().name());
    out.writeStringField("namespace", p.podRef().namespace());
    out.writeStringField("uid", p.podRef().uid());
    out.writeEndObject();
    time("startTime", p.startTime());
    out.writeArrayFieldStart("containers");
    for (ContainerStats c : p.containers()) {
      container(c);
    }
    out.writeEndArray();
    cpu(p.cpu());
    memory(p.memory());
    network(p.network());
    fs("ephemeral-storage", p.ephemeralStorage());
    ProcessStats processes = p.processStats();
    if (processes != null) {
      out.writeObjectFieldStart("process_stats");
      number("process_count", processes.processCount());
      out.writeEndObject();
    }
    io(p.io());
    swap(p.swap());
    out.writeEndObject();
  }

  private void container(ContainerStats c) throws IOException {
    out.writeStartObject();
    out.writeStringField("name", c.name());
    time("startTime", c.startTime());
    cpu(c.cpu());
    memory(c.memory());
    fs("rootfs", c.rootfs());
    fs("logs", c.logs());
    io(c.io());
    swap(c.swap());
    out.writeEndObject();
  }

  private void cpu(@Nullable CpuStats c) throws IOException {
    if (c == null) {
      return;
    }
    out.writeObjectFieldStart("cpu");
    time("time", c.time());
    number("usageNanoCores", c.usageNanoCores());
    number("usageCoreNanoSeconds", c.usageCoreNanoSeconds());
    psi(c.psi());
    out.writeEndObject();
  }

  private void memory(@Nullable MemoryStats m) throws IOException {
    if (m == null) {
      return;
    }
    out.writeObjectFieldStart("memory");
    time("time", m.time());
    number("availableBytes", m.availableBytes());
    number("usageBytes", m.usageBytes());
    number("workingSetBytes", m.workingSetBytes());
    number("rssBytes", m.rssBytes());
    number("pageFaults", m.pageFaults());
    number("majorPageFaults", m.majorPageFaults());
    psi(m.psi());
    out.writeEndObject();
  }

  /** {@code NetworkStats}: the default interface's fields inlined after the time, as Go's embedded struct is. */
  private void network(@Nullable NetworkStats n) throws IOException {
    if (n == null) {
      return;
    }
    out.writeObjectFieldStart("network");
    time("time", n.time());
    interfaceFields(n.defaultInterface());
    List<InterfaceStats> interfaces = n.interfaces();
    if (interfaces != null) {
      out.writeArrayFieldStart("interfaces");
      for (InterfaceStats i : interfaces) {
        out.writeStartObject();
        interfaceFields(i);
        out.writeEndObject();
      }
      out.writeEndArray();
    }
    out.writeEndObject();
  }

  private void interfaceFields(InterfaceStats i) throws IOException {
    out.writeStringField("name", i.name());
    number("rxBytes", i.rxBytes());
    number("rxErrors", i.rxErrors());
    number("txBytes", i.txBytes());
    number("txErrors", i.txErrors());
  }

  private void fs(String name, @Nullable FsStats f) throws IOException {
    if (f == null) {
      return;
    }
    out.writeObjectFieldStart(name);
    time("time", f.time());
    number("availableBytes", f.availableBytes());
    number("capacityBytes", f.capacityBytes());
    number("usedBytes", f.usedBytes());
    number("inodesFree", f.inodesFree());
    number("inodes", f.inodes());
    number("inodesUsed", f.inodesUsed());
    out.writeEndObject();
  }

  private void runtime(@Nullable RuntimeStats r) throws IOException {
    if (r == null) {
      return;
    }
    out.writeObjectFieldStart("runtime");
    fs("imageFs", r.imageFs());
    fs("containerFs", r.containerFs());
    out.writeEndObject();
  }

  private void rlimit(@Nullable RlimitStats r) throws IOException {
    if (r == null) {
      return;
    }
    out.writeObjectFieldStart("rlimit");
    time("time", r.time());
    number("maxpid", r.maxPid());
    number("curproc", r.numOfRunningProcesses());
    out.writeEndObject();
  }

  private void io(@Nullable IoStats i) throws IOException {
    if (i == null) {
      return;
    }
    out.writeObjectFieldStart("io");
    time("time", i.time());
    psi(i.psi());
    out.writeEndObject();
  }

  private void swap(@Nullable SwapStats s) throws IOException {
    if (s == null) {
      return;
    }
    out.writeObjectFieldStart("swap");
    time("time", s.time());
    number("swapAvailableBytes", s.swapAvailableBytes());
    number("swapUsageBytes", s.swapUsageBytes());
    out.writeEndObject();
  }

  /** {@code PSIStats}: both lines always, as the kubelet's non-pointer {@code PSIData} fields are. */
  private void psi(@Nullable PsiStats p) throws IOException {
    if (p == null) {
      return;
    }
    out.writeObjectFieldStart("psi");
    psiData("full", p.full());
    psiData("some", p.some());
    out.writeEndObject();
  }

  private void psiData(String name, PsiData d) throws IOException {
    out.writeObjectFieldStart(name);
    out.writeNumberField("total", d.total());
    out.writeNumberField("avg10", d.avg10());
    out.writeNumberField("avg60", d.avg60());
    out.writeNumberField("avg300", d.avg300());
    out.writeEndObject();
  }

  /** A Go {@code *uint64 omitempty}: left out when null. */
  private void number(String name, @Nullable Long value) throws IOException {
    if (value != null) {
      out.writeNumberField(name, value.longValue());
    }
  }

  private void time(String name, Instant time) throws IOException {
    if (!time.equals(lastTime)) {
      lastTime = time;
      lastText = formatTime(time);
    }
    out.writeStringField(name, lastText);
  }
}
