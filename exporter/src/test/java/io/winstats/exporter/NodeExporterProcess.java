package io.winstats.exporter;

import io.winstats.exporter.testing.ChildProcess;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.testing.RequiresExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Debian's {@code prometheus-node-exporter} run as a child process on a free loopback port, with only the collectors
 * the accuracy comparison needs, its log kept in a file.
 */
final class NodeExporterProcess implements AutoCloseable {
  static final String BINARY = "prometheus-node-exporter";

  private final ChildProcess process;
  private final int port;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private NodeExporterProcess(ChildProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  /** The binary on {@code PATH}; the calling test carries {@code @Requires(tools = BINARY)}. */
  static Path find() {
    return RequiresExtension.onPath(BINARY).orElseThrow(() -> new IllegalStateException(BINARY + " is not on the PATH"));
  }

  /**
   * Starts the binary with the cpu, meminfo, netdev, filesystem, diskstats, loadavg and stat collectors only. Debian's
   * build excludes {@code lo} from netdev by default ({@code --collector.netdev.device-exclude="^lo$"}); the empty
   * exclude restores upstream's default so that loopback can be compared. Debian's 1.5.0 still counts {@code zram}
   * devices, which upstream's current diskstats default (and so the daemon, {@code DiskStats.IGNORED_DEVICES}) leaves
   * out: that pattern is given here.
   */
  static NodeExporterProcess start(Path binary, Path log) throws IOException {
    int port = DaemonProcess.freePort();
    List<String> command =
        new ArrayList<>(
            List.of(
                binary.toString(),
                "--web.listen-address=127.0.0.1:" + port,
                "--collector.disable-defaults",
                "--collector.cpu",
                "--collector.meminfo",
                "--collector.netdev",
                "--collector.netdev.device-exclude=",
                "--collector.filesystem",
                "--collector.diskstats",
                "--collector.diskstats.device-exclude=^(z?ram|loop|fd|(h|s|v|xv)d[a-z]|nvme\\d+n\\d+p)\\d+$",
                "--collector.loadavg",
                "--collector.stat"));
    return new NodeExporterProcess(ChildProcess.start(command, log), port);
  }

  /** GET {@code /metrics}; status -1 and the exception text when the connection fails. */
  DaemonProcess.Response scrape() {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                  .timeout(Duration.ofSeconds(5))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return new DaemonProcess.Response(r.statusCode(), r.body());
    } catch (IOException e) {
      return new DaemonProcess.Response(-1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String log() {
    return process.log();
  }

  @Override
  public void close() throws InterruptedException {
    process.close();
  }
}
