package io.winstats.exporter;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.winstats.exporter.http.ServerSettings;
import io.winstats.exporter.metrics.EnabledCollectors;
import io.winstats.exporter.metrics.FamilyFilter;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.win32.ServiceFilter;
import java.util.List;
import java.util.Objects;

/**
 * The daemon's effective settings, validated: every setting's value, read by the setting ({@code
 * config.settings().value(WebSettings.X)}), and the few values composed of several settings or of more than one
 * place, typed.
 *
 * @param settings every setting's effective value, by the setting
 * @param nodeServices which Windows services are read and served (pdh source)
 * @param nodeName the node name the Summary API reports: the flag, else {@code NODE_NAME}, else the host name
 * @param customCounters custom PDH counters exported as series of their own (PDH source only)
 * @param server HTTP limits, and the web configuration (TLS, authentication) and bearer token file if any
 * @param families which metric families the Prometheus endpoint serves
 * @param collectors which collectors run
 */
@RecordBuilder
public record ExporterConfig(
    SettingValues settings,
    ServiceFilter nodeServices,
    String nodeName,
    List<CustomCounter> customCounters,
    ServerSettings server,
    FamilyFilter families,
    EnabledCollectors collectors) {
  public ExporterConfig {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(nodeServices, "nodeServices");
    Objects.requireNonNull(nodeName, "nodeName");
    customCounters = List.copyOf(customCounters);
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(families, "families");
    Objects.requireNonNull(collectors, "collectors");
  }
}
