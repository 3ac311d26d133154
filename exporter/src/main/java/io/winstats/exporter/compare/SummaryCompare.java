package io.winstats.exporter.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.winstats.exporter.compare.SummaryFigures.Figure;
import io.winstats.exporter.compare.SummaryFigures.NotASummaryException;
import io.winstats.exporter.compare.SummarySource.Access;
import io.winstats.exporter.compare.SummarySource.SourceException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The {@code compare} subcommand's work: read both sides, compare, print, and say the exit code. */
public final class SummaryCompare {
  /** The exit code when a document could not be read or compared. */
  public static final int UNREADABLE = 4;

  private static final Duration POLL = Duration.ofSeconds(1);

  private SummaryCompare() {}

  /** The output formats, spelled as the flag takes them. */
  public enum Format {
    text,
    json
  }

  /** What the command line gave. */
  public record Options(
      String kubelet,
      @Nullable Path kubeletTokenFile,
      @Nullable Path kubeletCaFile,
      boolean kubeletInsecureTls,
      String daemon,
      @Nullable Path daemonTokenFile,
      @Nullable Path daemonCaFile,
      Duration waitAtMost,
      Format output,
      boolean all) {}

  /** Reads, compares and prints; returns the exit code. */
  public static int run(Options options, PrintWriter out, PrintWriter err) {
    SummarySource kubelet =
        new SummarySource(
            options.kubelet(),
            new Access(
                options.kubeletTokenFile(),
                options.kubeletCaFile(),
                options.kubeletInsecureTls(),
                "the kubelet refused the token; its identity needs RBAC get on nodes/stats (the kubelet's own port)"
                    + " or nodes/proxy (through the API server), e.g. the system:kubelet-api-admin ClusterRole, and"
                    + " --kubelet-token-file must name its token"));
    SummarySource daemon =
        new SummarySource(
            options.daemon(),
            new Access(
                options.daemonTokenFile(),
                options.daemonCaFile(),
                false,
                "the daemon's web config asks for a token (--daemon-token-file) or another identity"));
    try {
      List<SummaryFigures> readings = new ArrayList<>();
      Map<String, String> names = new LinkedHashMap<>();
      JsonNode first = daemon.read();
      readings.add(parse(first, daemon, Instant.now(), names));
      String node = SummaryFigures.nodeName(first);
      JsonNode kubeletDoc = kubelet.read();
      SummaryFigures reference = parse(kubeletDoc, kubelet, kubelet.isUrl() ? Instant.now() : null, names);
      String referenceNode = SummaryFigures.nodeName(kubeletDoc);
      if (!referenceNode.equals(node)) {
        throw new SourceException(
            "the kubelet's Summary is of node " + referenceNode + ", the daemon's of node " + node
                + ": compare the daemon with its own node's kubelet");
      }
      readAfter(daemon, reference, readings, names, options.waitAtMost());
      SummaryComparison.Result result = SummaryComparison.compare(readings, reference);
      ComparisonReport report = new ComparisonReport(result, options.daemon(), "kubelet", names);
      out.print(options.output() == Format.json ? report.json() : report.text(options.all()));
      out.flush();
      return report.exitCode();
    } catch (SourceException | NotASummaryException e) {
      err.println("winstats-exporter compare: " + e.getMessage());
      err.flush();
      return UNREADABLE;
    }
  }

  /**
   * Reads the daemon once more, and again each second while its latest reading is older than the reference's newest
   * figure and {@code wait} allows, so that each counter has a daemon reading on both sides of it.
   */
  private static void readAfter(
      SummarySource daemon,
      SummaryFigures reference,
      List<SummaryFigures> readings,
      Map<String, String> names,
      Duration wait)
      throws SourceException, NotASummaryException {
    Instant newest = newest(reference);
    Instant deadline = Instant.now().plus(wait);
    while (true) {
      SummaryFigures after = parse(daemon.read(), daemon, Instant.now(), names);
      readings.add(after);
      Instant daemonNewest = newest(after);
      boolean covered = newest == null || (daemonNewest != null && !daemonNewest.isBefore(newest));
      if (covered || !Instant.now().plus(POLL).isBefore(deadline)) {
        return;
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static @Nullable Instant newest(SummaryFigures figures) {
    Instant newest = null;
    for (Figure f : figures.figures().values()) {
      Instant t = f.time();
      if (t != null && (newest == null || t.isAfter(newest))) {
        newest = t;
      }
    }
    return newest;
  }

  /** The figures of {@code doc}, its elements' names added to {@code names}; an error names the source. */
  private static SummaryFigures parse(
      JsonNode doc, SummarySource source, @Nullable Instant fetchedAt, Map<String, String> names)
      throws NotASummaryException {
    try {
      SummaryFigures figures = SummaryFigures.of(doc, fetchedAt);
      names.putAll(figures.entities());
      return figures;
    } catch (NotASummaryException e) {
      throw new NotASummaryException(source.location() + " is " + e.getMessage());
    }
  }
}
