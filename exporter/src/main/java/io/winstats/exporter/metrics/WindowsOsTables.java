package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.gauge;

import io.prometheus.metrics.model.snapshots.Labels;
import io.winstats.perfcounters.HostName;
import io.winstats.perfcounters.WindowsVersion;
import java.util.List;

/**
 * windows_exporter v0.31.8's os collector ({@code internal/collector/os/os.go}): its two families with their names,
 * labels and help verbatim ({@code os.go:88-111@v0.31.8}), each 1 with its labels, as its {@code Collect} fills them
 * ({@code os.go:118-160}); and {@code windows_cs_hostname}, the same names under the cs collector's name and help
 * ({@code internal/collector/cs/cs.go:92-101,130-152@v0.30.0}), which 0.31 removed when it moved the host name to the
 * os collector. {@code windows_os_info}'s labels are constant labels upstream (NewDesc's fourth argument), the same on
 * the wire.
 * Served by {@link WindowsExporterCollector#OS} from the node sample's release and names; a part that could not be
 * read serves no point, as upstream serves no {@code hostname} point when a name cannot be read.
 */
final class WindowsOsTables {
  private WindowsOsTables() {}

  /** The help of {@code windows_os_info}; the two backslashes are upstream's, in a Go raw string (os.go:90). */
  static final String INFO_HELP =
      "Contains full product name & version in labels. Note that the \"major_version\" for Windows 11 is \\\"10\\\"; a"
          + " build number greater than 22000 represents Windows 11.";

  static final List<String> HOST_LABELS = List.of("hostname", "domain", "fqdn");

  static final SeriesTable<WindowsVersion> RELEASE =
      SeriesTable.<WindowsVersion>labelled(List.of())
          .write(
              gauge(
                  "windows_os_info",
                  INFO_HELP,
                  List.of("product", "version", "major_version", "minor_version", "build_number", "revision")),
              (f, family, v, l, at) ->
                  f.add(
                      family,
                      1.0,
                      Labels.of(
                          "product", v.product(),
                          "version", v.version(),
                          "major_version", Integer.toString(v.majorVersion()),
                          "minor_version", Integer.toString(v.minorVersion()),
                          "build_number", Integer.toString(v.buildNumber()),
                          "revision", Long.toString(v.revision())),
                      at))
          .build();

  static final SeriesTable<HostName> HOST =
      SeriesTable.<HostName>labelled(List.of())
          .write(
              gauge(
                  "windows_os_hostname",
                  "Labelled system hostname information as provided by ComputerSystem.DNSHostName and"
                      + " ComputerSystem.Domain",
                  HOST_LABELS),
              (f, family, h, l, at) -> f.add(family, 1.0, labels(h), at))
          .write(
              gauge("windows_cs_hostname", "Deprecated: Use windows_os_hostname instead", HOST_LABELS),
              (f, family, h, l, at) -> f.add(family, 1.0, labels(h), at))
          .build();

  private static Labels labels(HostName h) {
    return Labels.of("hostname", h.hostname(), "domain", h.domain(), "fqdn", h.fqdn());
  }
}
