package io.winstats.exporter.compare;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.winstats.exporter.compare.DocumentSource.Access;
import io.winstats.exporter.compare.DocumentSource.Body;
import io.winstats.exporter.compare.DocumentSource.SourceException;
import io.winstats.exporter.compare.ExpositionFigures.Families;
import io.winstats.exporter.compare.Figures.NotAFigureDocumentException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The {@code compare} subcommand's work: for each reference given (the kubelet's Summary, its /metrics/resource,
 * windows_exporter's /metrics), read the daemon's matching document before and after it, compare, print, and say the
 * exit code.
 */
public final class Comparisons {
  /** The exit code when a document could not be read or compared. */
  public static final int UNREADABLE = 4;

  private static final Duration POLL = Duration.ofSeconds(1);

  private static final String KUBELET_FORBIDDEN =
      "the kubelet refused the token; its identity needs RBAC get on nodes/stats (the kubelet's own port)"
          + " or nodes/proxy (through the API server), e.g. the system:kubelet-api-admin ClusterRole, and"
          + " --kubelet-token-file must name its token";

  private Comparisons() {}

  /** The output formats, spelled as the flag takes them. */
  public enum Format {
    text,
    json
  }

  /** What the command line gave; at least one of {@code kubelet}, {@code kubeletResource}, {@code windowsExporter}. */
  public record Options(
      @Nullable String kubelet,
      @Nullable String kubeletResource,
      @Nullable String windowsExporter,
      @Nullable Path kubeletTokenFile,
      @Nullable Path kubeletCaFile,
      boolean kubeletInsecureTls,
      String daemon,
      @Nullable String daemonMetrics,
      @Nullable String daemonResource,
      @Nullable Path daemonTokenFile,
      @Nullable Path daemonCaFile,
      Duration waitAtMost,
      Format output,
      boolean all) {}

  /** One read of a side, as figures. */
  private interface Reader {
    Figures read() throws SourceException, NotAFigureDocumentException;
  }

  /** Reads, compares and prints; returns the exit code. */
  public static int run(Options options, PrintWriter out, PrintWriter err) {
    List<ComparisonReport> reports = new ArrayList<>();
    try {
      String kubelet = options.kubelet();
      if (kubelet != null) {
        reports.add(summaries(options, kubelet));
      }
      String resource = options.kubeletResource();
      if (resource != null) {
        DocumentSource reference = source(resource, kubeletAccess(options));
        String daemon = daemonUrl(options, options.daemonResource(), "/metrics/resource", "--daemon-resource");
        reports.add(expositions(options, daemon, reference, Families.RESOURCE, "kubelet resource"));
      }
      String windowsExporter = options.windowsExporter();
      if (windowsExporter != null) {
        DocumentSource reference =
            source(
                windowsExporter,
                new Access(null, null, false, "windows_exporter's web config asks for credentials compare does not"
                    + " send: give the URL of a listener without them, or a file saved with curl"));
        String daemon = daemonUrl(options, options.daemonMetrics(), "/metrics", "--daemon-metrics");
        reports.add(expositions(options, daemon, reference, Families.WINDOWS_EXPORTER, "windows_exporter"));
      }
    } catch (SourceException | NotAFigureDocumentException e) {
      err.println("winstats-exporter compare: " + e.getMessage());
      err.flush();
      return UNREADABLE;
    }
    out.print(options.output() == Format.json ? json(reports) : text(reports, options.all()));
    out.flush();
    return reports.stream().mapToInt(ComparisonReport::exitCode).max().orElse(ComparisonReport.SAME);
  }

  private static ComparisonReport summaries(Options options, String kubeletLocation)
      throws SourceException, NotAFigureDocumentException {
    DocumentSource kubelet = new DocumentSource(kubeletLocation, kubeletAccess(options), DocumentSource.JSON_TYPE);
    DocumentSource daemon = new DocumentSource(options.daemon(), daemonAccess(options), DocumentSource.JSON_TYPE);
    AtomicReference<@Nullable String> daemonNode = new AtomicReference<>();
    Reader daemonReader =
        () -> {
          JsonNode doc = daemon.read();
          Figures figures = summary(doc, daemon, Instant.now());
          daemonNode.compareAndSet(null, SummaryFigures.nodeName(doc));
          return figures;
        };
    Reader kubeletReader =
        () -> {
          JsonNode doc = kubelet.read();
          Figures figures = summary(doc, kubelet, kubelet.isUrl() ? Instant.now() : null);
          String node = SummaryFigures.nodeName(doc);
          if (!node.equals(daemonNode.get())) {
            throw new SourceException(
                "the kubelet's Summary is of node " + node + ", the daemon's of node " + daemonNode.get()
                    + ": compare the daemon with its own node's kubelet");
          }
          return figures;
        };
    Map<String, String> names = new LinkedHashMap<>();
    FigureComparison.Result result = around(daemonReader, kubeletReader, options.waitAtMost(), names);
    return new ComparisonReport(result, options.daemon(), "kubelet", names, "figures");
  }

  private static ComparisonReport expositions(
      Options options, String daemonLocation, DocumentSource reference, Families families, String referenceName)
      throws SourceException, NotAFigureDocumentException {
    DocumentSource daemon = new DocumentSource(daemonLocation, daemonAccess(options), DocumentSource.TEXT_TYPE);
    Reader daemonReader = () -> exposition(daemon, families, true);
    Reader referenceReader = () -> exposition(reference, families, false);
    Map<String, String> names = new LinkedHashMap<>();
    FigureComparison.Result result = around(daemonReader, referenceReader, options.waitAtMost(), names);
    return new ComparisonReport(result, daemonLocation, referenceName, names, "series");
  }

  private static Figures exposition(DocumentSource source, Families families, boolean daemon)
      throws SourceException, NotAFigureDocumentException {
    Body body = source.body();
    return ExpositionFigures.of(ExpositionText.parse(body.text(), source.location()), families, body, daemon);
  }

  /**
   * Reads the daemon, the reference, the daemon once more, and again each second while the daemon's latest reading
   * is older than the reference's newest figure and {@code wait} allows, so that each counter has a daemon reading on
   * both sides of it. Each reading's element names go to {@code names}.
   */
  private static FigureComparison.Result around(
      Reader daemon, Reader reference, Duration wait, Map<String, String> names)
      throws SourceException, NotAFigureDocumentException {
    List<Figures> readings = new ArrayList<>();
    readings.add(named(daemon.read(), names));
    Figures ref = named(reference.read(), names);
    Instant newest = ref.newest();
    Instant deadline = Instant.now().plus(wait);
    while (true) {
      Figures after = named(daemon.read(), names);
      readings.add(after);
      Instant daemonNewest = after.newest();
      boolean covered = newest == null || (daemonNewest != null && !daemonNewest.isBefore(newest));
      if (covered || !Instant.now().plus(POLL).isBefore(deadline)) {
        return FigureComparison.compare(readings, ref);
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return FigureComparison.compare(readings, ref);
      }
    }
  }

  private static Figures named(Figures figures, Map<String, String> names) {
    names.putAll(figures.entities());
    return figures;
  }

  /** The figures of the Summary {@code doc}; an error names the source. */
  private static Figures summary(JsonNode doc, DocumentSource source, @Nullable Instant fetchedAt)
      throws NotAFigureDocumentException {
    try {
      return SummaryFigures.of(doc, fetchedAt);
    } catch (NotAFigureDocumentException e) {
      throw new NotAFigureDocumentException(source.location() + " is " + e.getMessage());
    }
  }

  private static DocumentSource source(String location, Access access) {
    return new DocumentSource(location, access, DocumentSource.TEXT_TYPE);
  }

  private static Access kubeletAccess(Options options) {
    return new Access(
        options.kubeletTokenFile(), options.kubeletCaFile(), options.kubeletInsecureTls(), KUBELET_FORBIDDEN);
  }

  private static Access daemonAccess(Options options) {
    return new Access(
        options.daemonTokenFile(),
        options.daemonCaFile(),
        false,
        "the daemon's web config asks for a token (--daemon-token-file) or another identity");
  }

  /** The daemon's URL for {@code path}: the flag's, else {@code --daemon}'s with that path. */
  private static String daemonUrl(Options options, @Nullable String given, String path, String flag)
      throws SourceException {
    if (given != null) {
      return given;
    }
    String daemon = options.daemon();
    if (!daemon.startsWith("http://") && !daemon.startsWith("https://")) {
      throw new SourceException("--daemon is not a URL (" + daemon + "): give the daemon's " + path + " with " + flag);
    }
    try {
      return URI.create(daemon).resolve(path).toString();
    } catch (IllegalArgumentException e) {
      throw new SourceException("not a URL: " + daemon + " (" + e.getMessage() + ")");
    }
  }

  private static String text(List<ComparisonReport> reports, boolean all) {
    StringBuilder out = new StringBuilder();
    for (ComparisonReport report : reports) {
      if (out.length() > 0) {
        out.append(System.lineSeparator());
      }
      out.append(report.text(all));
    }
    return out.toString();
  }

  /** {@code {"comparisons": [...]}}, one object per reference, in the order of the flags' help. */
  private static String json(List<ComparisonReport> reports) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("comparisons", reports.stream().map(ComparisonReport::document).toList());
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc)
          + System.lineSeparator();
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
