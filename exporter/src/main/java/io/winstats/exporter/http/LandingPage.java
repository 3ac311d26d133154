package io.winstats.exporter.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code /} answers, as the Prometheus exporter toolkit's landing page has it: the name, the build, and a link
 * to each endpoint with what it serves; HTML for a browser, text lines for {@code Accept: text/plain} (curl and
 * scripts that ask for it). Made once: nothing on it changes while the daemon runs.
 */
final class LandingPage {
  private record Link(String path, String what) {}

  /** The project's home, as the chart's {@code home} names it. */
  private static final String DOCS = "https://github.com/winstats/winstats-exporter";

  private final byte[] html;
  private final byte[] text;

  /**
   * @param nodePage whether the node page and its JSON are served, and linked first
   */
  LandingPage(String build, String telemetryPath, boolean nodePage) {
    List<Link> links = new ArrayList<>();
    if (nodePage) {
      links.add(new Link("/node", "the node page: the node, its pods and containers over the last minutes"));
      links.add(new Link(HistoryRoutes.NODE_PATH, "the node page's JSON: the node's history and the newest pods"));
    }
    links.addAll(
        List.of(
            new Link(
                telemetryPath,
                "Prometheus: cAdvisor-compatible container_* and machine_* series, node series, the daemon's own"
                    + " winstats_exporter_* series, JVM and process metrics"),
            new Link("/metrics/cadvisor", "the kubelet's cAdvisor path: container_* and machine_* series alone"),
            new Link("/metrics/resource", "the kubelet's resource metrics, as metrics-server reads them"),
            new Link("/stats/summary", "the kubelet Summary API (stats/v1alpha1 JSON)"),
            new Link("/stats/summary?only_cpu_and_memory=true", "the Summary's CPU and memory only"),
            new Link("/healthz", "200 once the first node sample exists"),
            new Link("/status", "each part the daemon depends on: ok, degraded, failed or not applicable, with its last"
                + " success, last error and error count (JSON, as the check subcommand prints it)")));
    StringBuilder h = new StringBuilder(1500)
        .append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>winstats-exporter</title>\n")
        .append("<style>body{font-family:sans-serif;margin:2em;max-width:60em}code{font-size:1.05em}")
        .append("li{margin:.3em 0}footer{margin-top:2em;color:#555}</style>\n</head>\n<body>\n")
        .append("<h1>winstats-exporter</h1>\n<p>Node, pod and container metrics for Kubernetes nodes.</p>\n")
        .append("<p>").append(escape(build)).append("</p>\n<ul>\n");
    StringBuilder t = new StringBuilder("winstats-exporter\n").append(build).append('\n');
    for (Link l : links) {
      h.append("<li><a href=\"").append(escape(l.path())).append("\"><code>").append(escape(l.path()))
          .append("</code></a>: ").append(escape(l.what())).append("</li>\n");
      t.append(l.path()).append('\n');
    }
    // The daemon is a jar run by java (the images' command), so that is the command the page names.
    h.append("</ul>\n<footer>Flags: <code>java -jar winstats-exporter.jar --help</code>. Documentation: <a href=\""
        + DOCS + "#readme\">README</a>, <a href=\"" + DOCS + "/tree/main/docs\">docs/</a>, and <a href=\"" + DOCS
        + "/blob/main/docs/TROUBLESHOOTING.md\">TROUBLESHOOTING.md</a> for problems.</footer>\n</body>\n</html>\n");
    this.html = h.toString().getBytes(StandardCharsets.UTF_8);
    this.text = t.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** HTML unless the client asks for text/plain and not for HTML. */
  static boolean wantsText(String accept) {
    return accept.contains("text/plain") && !accept.contains("text/html");
  }

  byte[] html() {
    return html;
  }

  byte[] text() {
    return text;
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
