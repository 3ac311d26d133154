package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.dashboards.WindowsWorkflowTest.Script;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A rule of the Windows workflow beside {@link WindowsWorkflowTest} (kept apart for its length): the cost job, which
 * runs windows_exporter, runs {@code compare} against it while both it and the daemon run, and prints the result
 * (issue 42). No PowerShell runs here; the rule reads the scripts, and is run against each shape it forbids.
 */
class WindowsWorkflowCompareTest {
  private static final Path SCRIPTS = Path.of("..").resolve(".github/scripts");
  private static final Pattern EXPORTER_PORT =
      Pattern.compile("Start-Logged -FilePath \\$WindowsExporter[^\\n]*-Port (\\d+)");
  private static final Pattern EXPORTER_URL =
      Pattern.compile("\\$exporterMetrics = 'http://127\\.0\\.0\\.1:(\\d+)/metrics'");

  /** What keeps {@code cost} from comparing the daemon with its windows_exporter and printing it, or an empty list. */
  static List<String> compareProblems(Script cost, Script daemon) {
    List<String> problems = new ArrayList<>();
    String code = cost.code();
    int call = code.indexOf("Invoke-Compare");
    if (call < 0) {
      problems.add(cost.name() + " does not run compare (Invoke-Compare)");
    } else {
      String args = code.substring(call, Math.min(code.length(), code.indexOf('\n', code.indexOf('\n', call) + 1)));
      if (!args.contains("--windows-exporter=$exporterMetrics")) {
        problems.add(cost.name() + ": compare is not given windows_exporter's /metrics ($exporterMetrics)");
      }
      int started = code.indexOf("Start-Logged -FilePath $WindowsExporter");
      int stopped = code.indexOf("} finally {");
      if (started < 0 || call < started || stopped < 0 || call > stopped) {
        problems.add(cost.name() + ": compare does not run while windows_exporter runs (after it starts, before the"
            + " finally that stops it)");
      }
    }
    Matcher port = EXPORTER_PORT.matcher(code);
    Matcher url = EXPORTER_URL.matcher(code);
    if (!port.find() || !url.find() || !port.group(1).equals(url.group(1))) {
      problems.add(cost.name() + ": $exporterMetrics is not the port windows_exporter is started on");
    }
    String function = daemon.code();
    int defined = function.indexOf("function Invoke-Compare");
    String body = defined < 0 ? "" : function.substring(defined, function.indexOf("\n}\n", defined));
    if (!body.contains("winstats-exporter.jar compare")) {
      problems.add(daemon.name() + ": Invoke-Compare does not run the jar's compare");
    }
    if (!body.contains("Write-Host") || !body.contains("GITHUB_STEP_SUMMARY")) {
      problems.add(daemon.name() + ": Invoke-Compare does not print its output to the log and the step summary");
    }
    return problems;
  }

  private static Script read(String name) throws IOException {
    return new Script(name, Files.readString(SCRIPTS.resolve(name)));
  }

  @Test
  void theCostJobComparesTheDaemonWithItsWindowsExporterAndPrintsIt() throws IOException {
    assertThat(compareProblems(read("cost.ps1"), read("daemon.ps1"))).isEmpty();
    assertThat(Files.readString(Path.of("..").resolve(".github/workflows/windows.yml")))
        .contains("./.github/scripts/cost.ps1 -Pods $env:PODS -WindowsExporter");
  }

  @Test
  void eachShapeTheRuleForbidsIsCaught() throws IOException {
    Script cost = read("cost.ps1");
    Script daemon = read("daemon.ps1");
    String text = cost.text();

    Script without =
        new Script("cost.ps1", text.replaceAll("(?m)^.*(Invoke-Compare|\"--daemon=\\$summaryUrl\").*$", ""));
    assertThat(compareProblems(without, daemon)).containsExactly("cost.ps1 does not run compare (Invoke-Compare)");

    Script againstItself =
        new Script(
            "cost.ps1",
            text.replace("\"--windows-exporter=$exporterMetrics\"", "\"--windows-exporter=$daemonMetrics\""));
    assertThat(compareProblems(againstItself, daemon))
        .containsExactly("cost.ps1: compare is not given windows_exporter's /metrics ($exporterMetrics)");

    Script otherPort =
        new Script("cost.ps1", text.replace("'http://127.0.0.1:9183/metrics'", "'http://127.0.0.1:9184/metrics'"));
    assertThat(compareProblems(otherPort, daemon))
        .containsExactly("cost.ps1: $exporterMetrics is not the port windows_exporter is started on");

    int call = text.indexOf("  # Both still run");
    int end = text.indexOf("  $passed = $true");
    String moved =
        text.substring(0, call) + text.substring(end).replace("exit 0", text.substring(call, end) + "exit 0");
    assertThat(compareProblems(new Script("cost.ps1", moved), daemon))
        .singleElement().asString().contains("compare does not run while windows_exporter runs");

    String d = daemon.text();
    int f = d.indexOf("function Invoke-Compare");
    int g = d.indexOf("\n}\n", f);
    Script silent =
        new Script(
            "daemon.ps1",
            d.substring(0, f) + d.substring(f, g).replace("GITHUB_STEP_SUMMARY", "NO_SUMMARY") + d.substring(g));
    assertThat(compareProblems(cost, silent)).singleElement().asString().contains("does not print its output");
  }
}
