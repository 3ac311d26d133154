package io.winstats.exporter;

import io.winstats.exporter.compare.SummaryCompare;
import io.winstats.exporter.compare.SummaryCompare.Options;
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
 * {@code winstats-exporter compare}: the daemon's Summary against the node's kubelet's, figure by figure. A client of
 * both: it reads the running daemon over HTTP and needs none of the daemon's settings.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Compares the running daemon's /stats/summary with the same node's kubelet's, figure by figure.",
      "",
      "Node, system containers, pods (matched by uid), containers, interfaces and volumes (by name). The daemon is"
          + " read before and after the kubelet, and again until it has a reading at or after the kubelet's own"
          + " figure times (at most --wait), so that each counter is bracketed.",
      "",
      "Tolerances: capacities (capacityBytes, inodes, maxpid) exact; counters (usageCoreNanoSeconds, rx/txBytes,"
          + " rx/txErrors, pageFaults, majorPageFaults, PSI totals) between the daemon's last reading at or before the"
          + " kubelet's time and its first at or after it (one side only when the daemon has no reading on the"
          + " other); every other figure within 10% of the kubelet's value or an absolute floor, whichever is larger:"
          + " 16 MiB for bytes, 50 millicores for usageNanoCores, 5 for PSI averages, 100 for counts.",
      "",
      "Pods, containers, interfaces and figures one side has and the other lacks are listed; they do not change the"
          + " exit code (a pod may start or end between the readings)."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every figure both have is within its tolerance",
      "1:compare itself crashed",
      "2:a flag is invalid",
      "3:some figure differs beyond its tolerance",
      "4:a document could not be read, is not a Summary, or is of another node"
    })
public final class CompareCommand implements Callable<Integer> {
  @Spec
  @SuppressWarnings("NullAway.Init") // set by picocli before call()
  private CommandSpec spec;

  @Option(
      names = "--kubelet",
      required = true,
      paramLabel = "URL|FILE",
      description = "The kubelet's Summary: https://NODE:10250/stats/summary, through the API server"
          + " https://APISERVER/api/v1/nodes/NODE/proxy/stats/summary, or a file saved with"
          + " kubectl get --raw /api/v1/nodes/NODE/proxy/stats/summary (its counters can then be checked on one"
          + " side only).")
  @SuppressWarnings("NullAway.Init")
  private String kubelet;

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
  private SummaryCompare.Format output;

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
    Options options =
        new Options(
            kubelet,
            kubeletTokenFile,
            kubeletCaFile,
            kubeletInsecureTls,
            daemon,
            daemonTokenFile,
            daemonCaFile,
            wait,
            output,
            all);
    return SummaryCompare.run(options, spec.commandLine().getOut(), spec.commandLine().getErr());
  }
}
