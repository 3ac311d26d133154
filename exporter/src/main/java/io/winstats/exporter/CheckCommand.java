package io.winstats.exporter;

import io.winstats.exporter.logging.LogLines;
import io.winstats.exporter.parts.PartsReport;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code winstats-exporter check}: probes every part the daemon depends on, with the daemon's own flags and config
 * file, prints one row per part and exits with a code that says the worst state found.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    abbreviateSynopsis = true,
    description = {
      "Probes every part the daemon depends on, the way the daemon would with the same flags and config file: the"
          + " node source, the runtime endpoint and its stats calls, the Windows task source and HNS, the cgroups,"
          + " the web configuration and the listen address. One row per part: ok, degraded (with the cause), failed"
          + " (with the cause and a fix) or not_applicable. Run it in the daemon's pod to see that node."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every part is ok or not applicable",
      "1:check itself crashed",
      "2:a flag or the config file is invalid (nothing was probed)",
      "3:a part is degraded, none failed: figures are served, some missing or from a fallback",
      "4:a part failed: the figures it gives are missing"
    })
public final class CheckCommand implements Callable<Integer> {
  private @Nullable CommandSpec spec;

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      description = "text (rows for a person) or json (for a tool; the running daemon's /status has the same shape)."
          + " Default: ${DEFAULT-VALUE}.",
      defaultValue = "text")
  @SuppressWarnings("NullAway.Init") // set by picocli before call()
  private Format output;

  @Option(
      names = "--redact",
      description = "Replace the node name, the runtime endpoint, the listen address and every IP address, so that"
          + " the output can be pasted in public.")
  private boolean redact;

  /** The output formats, spelled as the flag takes them. */
  enum Format {
    text,
    json
  }

  /** The subcommand with every daemon setting as a flag too. */
  static CommandSpec spec() {
    CheckCommand command = new CheckCommand();
    CommandSpec spec = CommandSpec.forAnnotatedObject(command);
    ExporterCommand.addSettings(spec);
    command.spec = spec;
    return spec;
  }

  @Override
  public Integer call() {
    if (spec == null) {
      throw new IllegalStateException("run through ExporterCommand.commandLine");
    }
    CommandLine cli = spec.commandLine();
    ExporterConfig config = ExporterCommand.toConfig(cli);
    // The readers' own lines go to stderr as the daemon's do; below warn they would bury the rows.
    LogLines.setLevel(config.settings().value(LogSettings.LEVEL).equals("debug") ? "debug" : "warn");
    LogLines.setFormat(config.settings().value(LogSettings.FORMAT));
    PartsReport report = SelfCheck.run(config, Clock.systemUTC());
    if (redact) {
      report = report.redacted(redactions(config));
    }
    cli.getOut().print(output == Format.json ? report.json() : report.text());
    cli.getOut().flush();
    return report.exitCode();
  }

  /** The names a report may carry and the placeholder each is replaced by. */
  static Map<String, String> redactions(ExporterConfig config) {
    Map<String, String> names = new LinkedHashMap<>();
    names.put(config.nodeName(), "<node>");
    names.put(config.settings().value(CriSettings.ENDPOINT).toString(), "<runtime-endpoint>");
    names.put(config.settings().value(WebSettings.LISTEN_ADDRESS).toString(), "<listen-address>");
    return names;
  }
}
