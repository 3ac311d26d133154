package io.winstats.exporter;

import io.winstats.exporter.compare.Comparisons;
import io.winstats.exporter.compare.Comparisons.Options;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code winstats-exporter compare}: the daemon's Summary against the node's kubelet's, its /metrics/resource against
 * the kubelet's, and its windows_* series against windows_exporter's, figure by figure. A client of each: it reads
 * the running daemon over HTTP and needs none of the daemon's settings.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Compares the running daemon's figures with the same node's kubelet and windows_exporter, figure by figure.",
      "",
      "Its /stats/summary with the kubelet's (--kubelet), its /metrics/resource with the kubelet's"
          + " (--kubelet-resource), its /metrics with windows_exporter's (--windows-exporter). Give one or more.",
      "",
      "Summary: node, system containers, pods (matched by uid), containers, interfaces and volumes (by name)."
          + " Expositions: each series by its name and label set; for windows_exporter the windows_* node families"
          + " and the windows_container_* series (not windows_exporter_*), for /metrics/resource every family."
          + " The daemon is read before and after each reference, and again until it has a reading at or after the"
          + " reference's own times (at most --wait), so that each counter is bracketed. A series without a"
          + " timestamp was read during its request; the daemon's windows_* series are as old as their source's"
          + " sample (winstats_exporter_sample_age_seconds).",
      "",
      "Tolerances: capacities (capacityBytes, inodes, maxpid) exact; counters (usageCoreNanoSeconds, rx/txBytes,"
          + " rx/txErrors, pageFaults, majorPageFaults, PSI totals) between the daemon's last reading at or before the"
          + " kubelet's time and its first at or after it (one side only when the daemon has no reading on the"
          + " other); every other figure within 10%% of the kubelet's value or an absolute floor, whichever is larger:"
          + " 16 MiB for bytes, 50 millicores for usageNanoCores, 5 for PSI averages, 100 for counts.",
      "",
      "Series tolerances (by family): capacities and identity series exact (windows_cs_physical_memory_bytes,"
          + " windows_cs_logical_processors, windows_cpu_logical_processor, windows_memory_physical_total_bytes,"
          + " windows_os_visible_memory_bytes, windows_logical_disk_size_bytes, windows_container_available,"
          + " scrape_error, resource_scrape_error, every _info); moments (_timestamp, _timestamp_seconds,"
          + " _start_time_seconds) within 1 s; counters (the reference's # TYPE is counter, or an untyped _total)"
          + " bracketed as above; every other family a gauge within 10%% or 16 MiB for _bytes, 100 for the rest.",
      "",
      "Pods, containers, interfaces, figures, families and label sets one side has and the other lacks are listed;"
          + " they do not change the exit code (a pod may start or end between the readings)."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every figure both have is within its tolerance",
      "1:compare itself crashed",
      "2:a flag is invalid",
      "3:some figure differs beyond its tolerance",
      "4:a document could not be read, is not a Summary or an exposition, or is of another node"
    })
public final class CompareCommand implements Callable<Integer> {
  @Spec
  @SuppressWarnings("NullAway.Init") // set by picocli before call()
  private CommandSpec spec;

  @Option(
      names = "--kubelet",
      paramLabel = "URL|FILE",
      description = "The kubelet's Summary: https://NODE:10250/stats/summary, through the API server"
          + " https://APISERVER/api/v1/nodes/NODE/proxy/stats/summary, or a file saved with"
          + " kubectl get --raw /api/v1/nodes/NODE/proxy/stats/summary (its counters can then be checked on one"
          + " side only).")
  private @Nullable String kubelet;

  @Option(
      names = "--kubelet-resource",
      paramLabel = "URL|FILE",
      description = "The kubelet's /metrics/resource: https://NODE:10250/metrics/resource, through the API server"
          + " https://APISERVER/api/v1/nodes/NODE/proxy/metrics/resource, or a file saved with kubectl get --raw;"
          + " read with the --kubelet-* token and CA.")
  private @Nullable String kubeletResource;

  @Option(
      names = "--windows-exporter",
      paramLabel = "URL|FILE",
      description = "windows_exporter's /metrics on the same node, e.g. http://127.0.0.1:9182/metrics, or a file"
          + " saved with curl (its counters can then be checked on one side only).")
  private @Nullable String windowsExporter;

  @Option(
      names = "--kubelet-token-file",
      paramLabel = "FILE",
      description = "Bearer token for the kubelet URL, e.g."
          + " /var/run/secrets/kubernetes.io/serviceaccount/token; its identity needs get on nodes/stats (the"
          + " kubelet's port) or nodes/proxy (through the API server).")
  private @Nullable Path kubeletTokenFile;

  @Option(names = "--kubelet-ca-file", paramLabel = "FILE", description = "PEM CA certificates for the kubelet URL.")
  private @Nullable Path kubeletCaFile;

  @Option(
      names = "--kubelet-insecure-tls",
      description = "Do not verify the kubelet's serving certificate (most kubelets' are self-signed).")
  private boolean kubeletInsecureTls;

  @Option(
      names = "--daemon",
      paramLabel = "URL",
      defaultValue = "http://127.0.0.1:" + WebSettings.DEFAULT_PORT + "/stats/summary",
      description = "The daemon's Summary. Default: ${DEFAULT-VALUE}.")
  @SuppressWarnings("NullAway.Init")
  private String daemon;

  @Option(
      names = "--daemon-metrics",
      paramLabel = "URL",
      description = "The daemon's /metrics, for --windows-exporter. Default: --daemon's URL with the path /metrics.")
  private @Nullable String daemonMetrics;

  @Option(
      names = "--daemon-resource",
      paramLabel = "URL",
      description = "The daemon's /metrics/resource, for --kubelet-resource. Default: --daemon's URL with the path"
          + " /metrics/resource.")
  private @Nullable String daemonResource;

  @Option(
      names = "--daemon-token-file",
      paramLabel = "FILE",
      description = "Bearer token for the daemon, when its web config asks for one.")
  private @Nullable Path daemonTokenFile;

  @Option(names = "--daemon-ca-file", paramLabel = "FILE", description = "PEM CA certificates for the daemon URL.")
  private @Nullable Path daemonCaFile;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      defaultValue = "30s",
      converter = WaitConverter.class,
      description = "How long to read the daemon again for a reading at or after the kubelet's. Default:"
          + " ${DEFAULT-VALUE}.")
  @SuppressWarnings("NullAway.Init")
  private Duration wait;

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "text (the figures that differ, for a person) or json (every figure, for a tool). Default:"
          + " ${DEFAULT-VALUE}.")
  @SuppressWarnings("NullAway.Init")
  private Comparisons.Format output;

  @Option(names = "--all", description = "In text output, every figure, not only those that differ.")
  private boolean all;

  /** {@code --wait} as the daemon's durations are written. */
  static final class WaitConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return DurationFlag.parse(value);
    }
  }

  @Override
  public Integer call() {
    if (kubelet == null && kubeletResource == null && windowsExporter == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Give at least one of --kubelet, --kubelet-resource, --windows-exporter");
    }
    Options options =
        new Options(
            kubelet,
            kubeletResource,
            windowsExporter,
            kubeletTokenFile,
            kubeletCaFile,
            kubeletInsecureTls,
            daemon,
            daemonMetrics,
            daemonResource,
            daemonTokenFile,
            daemonCaFile,
            wait,
            output,
            all);
    return Comparisons.run(options, spec.commandLine().getOut(), spec.commandLine().getErr());
  }
}
