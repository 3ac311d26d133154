package io.winstats.exporter;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.StatsCall;
import io.winstats.cri.WindowsStatsSource;
import io.winstats.exporter.http.ListenAddress;
import io.winstats.exporter.http.ServerSettings;
import io.winstats.exporter.logging.LogLines;
import io.winstats.exporter.metrics.EnabledCollectors;
import io.winstats.exporter.metrics.FamilyFilter;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.sources.NodeSourceSpec;
import io.winstats.perfcounters.win32.ServiceFilter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The daemon's effective settings, validated.
 *
 * @param listenAddress where to serve HTTP
 * @param criEndpoint the runtime's CRI endpoint
 * @param criTimeout the deadline of every CRI call
 * @param criStatsCall the CRI call each round reads pods with
 * @param criWindowsStats where a Windows node's pod and container figures come from
 * @param samplingInterval how often each source is sampled
 * @param nodeSource the node counter source to open ({@code auto} already resolved by the host)
 * @param nodeWorkingSet which figure is the Windows node's memory working set
 * @param kubeletRootDir the kubelet's root directory, whose volume is the Windows node filesystem (pdh source)
 * @param nodeServices which Windows services are read and served (pdh source)
 * @param nodeName the node name the Summary API reports
 * @param logLevel {@code debug}, {@code info}, {@code warn} or {@code error}
 * @param logFormat how log lines are written: logfmt or JSON
 * @param recordFile where to record node samples as a PDH-CSV counter log, or {@code null}
 * @param customCounters custom PDH counters exported as series of their own (PDH source only)
 * @param server HTTP limits, and the web configuration (TLS, authentication) and bearer token file if any
 * @param exporterMetrics whether /metrics carries the daemon's own process_* and jvm_* series
 * @param families which metric families the Prometheus endpoint serves
 * @param collectors which collectors run
 * @param otlpEnabled whether the figures are also pushed over OTLP
 * @param otlpInterval how often to push, or null for the OpenTelemetry SDK's setting
 * @param nodePage whether the node page and its history are served (and the history kept)
 */
public record ExporterConfig(
    ListenAddress listenAddress,
    CriEndpoint criEndpoint,
    Duration criTimeout,
    StatsCall criStatsCall,
    WindowsStatsSource criWindowsStats,
    Duration samplingInterval,
    NodeSourceSpec nodeSource,
    WorkingSetDefinition nodeWorkingSet,
    Path kubeletRootDir,
    ServiceFilter nodeServices,
    String nodeName,
    String logLevel,
    LogLines.Format logFormat,
    @Nullable Path recordFile,
    List<CustomCounter> customCounters,
    ServerSettings server,
    boolean exporterMetrics,
    FamilyFilter families,
    EnabledCollectors collectors,
    boolean otlpEnabled,
    @Nullable Duration otlpInterval,
    boolean nodePage) {
  public ExporterConfig {
    Objects.requireNonNull(listenAddress, "listenAddress");
    Objects.requireNonNull(criEndpoint, "criEndpoint");
    Objects.requireNonNull(criTimeout, "criTimeout");
    Objects.requireNonNull(criStatsCall, "criStatsCall");
    Objects.requireNonNull(criWindowsStats, "criWindowsStats");
    Objects.requireNonNull(samplingInterval, "samplingInterval");
    Objects.requireNonNull(nodeSource, "nodeSource");
    Objects.requireNonNull(nodeWorkingSet, "nodeWorkingSet");
    Objects.requireNonNull(kubeletRootDir, "kubeletRootDir");
    Objects.requireNonNull(nodeServices, "nodeServices");
    Objects.requireNonNull(nodeName, "nodeName");
    Objects.requireNonNull(logLevel, "logLevel");
    Objects.requireNonNull(logFormat, "logFormat");
    customCounters = List.copyOf(customCounters);
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(families, "families");
    Objects.requireNonNull(collectors, "collectors");
  }
}
