package io.winstats.exporter;

import io.winstats.cri.StatsCall;
import io.winstats.exporter.http.HttpLimits;
import io.winstats.exporter.http.ListenAddress;
import io.winstats.exporter.http.ServerSettings;
import io.winstats.exporter.http.WebConfig;
import io.winstats.perfcounters.WorkingSetDefinition;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The command line. Its options are built from {@link Settings}, the one declaration of every setting, which the
 * configuration file ({@link ConfigFile}) reads too.
 */
@Command(
    name = "winstats-exporter",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Node, pod and container metrics for Kubernetes nodes: the kubelet Summary API (/stats/summary),",
      "cAdvisor-compatible Prometheus series (/metrics) and kubelet resource metrics (/metrics/resource)."
    })
public final class ExporterCommand implements Callable<Integer> {

  private final DaemonLauncher launcher;
  private @Nullable CommandSpec spec;

  /** What runs the daemon once the flags are valid; a seam for tests of the command line alone. */
  @FunctionalInterface
  public interface DaemonLauncher {
    int run(ExporterConfig config) throws Exception;
  }

  public ExporterCommand(DaemonLauncher launcher) {
    this.launcher = launcher;
  }

  @Override
  public Integer call() throws Exception {
    CommandLine cli = commandLine();
    ExporterConfig config = toConfig(cli);
    if (cli.getParseResult() != null && cli.getParseResult().hasMatchedOption(Settings.PRINT_CONFIG.flag())) {
      cli.getOut().print(ConfigFile.toYaml(config));
      cli.getOut().flush();
      return 0;
    }
    return launcher.run(config);
  }

  private CommandLine commandLine() {
    if (spec == null) {
      throw new IllegalStateException("run through ExporterCommand.commandLine");
    }
    return spec.commandLine();
  }

  /** Validates every setting, from the flags and the config file, collecting all problems into one usage error. */
  private ExporterConfig toConfig(CommandLine cli) {
    List<String> problems = new ArrayList<>();
    ParseResult flags = cli.getParseResult();
    Path configFile = new Values(flags, ConfigFile.empty(), problems).get(Settings.CONFIG_FILE);
    ConfigFile file = configFile == null ? ConfigFile.empty() : ConfigFile.read(configFile, problems);
    Values values = new Values(flags, file, problems);

    ListenAddress address = values.get(Settings.WEB_LISTEN_ADDRESS);
    String endpoint = values.get(Settings.CRI_ENDPOINT);
    Duration timeout = values.get(Settings.CRI_TIMEOUT);
    StatsCall statsCall = values.get(Settings.CRI_STATS_CALL);
    Duration interval = values.get(Settings.SAMPLING_INTERVAL);
    String nodeSource = values.get(Settings.NODE_SOURCE);
    WorkingSetDefinition workingSet = values.get(Settings.NODE_MEMORY_WORKING_SET);
    Path kubeletRootDir = values.get(Settings.NODE_KUBELET_ROOT_DIR);
    String nodeName = values.get(Settings.NODE_NAME);
    Path recordFile = values.get(Settings.RECORD);
    String level = values.get(Settings.LOG_LEVEL);
    WebConfig web = values.get(Settings.WEB_CONFIG_FILE);
    Path bearer = values.get(Settings.WEB_BEARER_TOKEN_FILE);
    Long headerBytes = values.get(Settings.WEB_MAX_HEADER_BYTES);
    Long bodyBytes = values.get(Settings.WEB_MAX_BODY_BYTES);
    Duration request = values.get(Settings.WEB_REQUEST_TIMEOUT);
    Duration idle = values.get(Settings.WEB_IDLE_TIMEOUT);
    Integer connections = values.get(Settings.WEB_MAX_CONNECTIONS);

    String source = nodeSource == null ? values.text(Settings.NODE_SOURCE) : nodeSource;
    boolean pdh = "pdh".equals(nodeSource) || ("auto".equals(nodeSource) && HostOs.current().isWindows());
    if (workingSet != null && workingSet != WorkingSetDefinition.KUBELET && !pdh) {
      problems.add(
          Settings.NODE_MEMORY_WORKING_SET.flag() + ": " + workingSet.flagValue() + " needs the pdh node source"
              + " (Windows); --node.source is " + source);
    }
    if (!file.customCounters().isEmpty() && !pdh) {
      problems.add(
          "perfcounters: custom performance counters need the pdh node source (Windows); --node.source is " + source);
    }
    if (!problems.isEmpty()) {
      throw new ParameterException(cli, String.join(System.lineSeparator(), problems));
    }
    return new ExporterConfig(
        address,
        endpoint,
        timeout,
        statsCall,
        interval,
        nodeSource,
        workingSet,
        kubeletRootDir,
        resolveNodeName(nodeName, System.getenv("NODE_NAME"), ExporterCommand::localHostName),
        level,
        recordFile,
        file.customCounters(),
        new ServerSettings(
            new HttpLimits(Math.toIntExact(headerBytes), bodyBytes, request, idle, connections), web, bearer));
  }

  /**
   * The settings' values: a flag given on the command line wins over the config file, which wins over the setting's
   * default. Each value is checked by its setting; a bad one is null and its problem is added to {@code problems}.
   */
  private static final class Values {
    private final @Nullable ParseResult flags;
    private final ConfigFile file;
    private final List<String> problems;

    Values(@Nullable ParseResult flags, ConfigFile file, List<String> problems) {
      this.flags = flags;
      this.file = file;
      this.problems = problems;
    }

    @Nullable String text(Setting<?> setting) {
      if (flags != null && flags.hasMatchedOption(setting.flag())) {
        return setting.isSwitch() ? "true" : flags.matchedOptionValue(setting.flag(), "");
      }
      String fromFile = setting.inFile() ? file.value(setting.name()) : null;
      return fromFile != null ? fromFile : setting.defaultValue();
    }

    /** The value, or null when the setting has none or a bad one (then its problem is added). */
    <T> @Nullable T get(Setting<T> setting) {
      String text = text(setting);
      if (text == null) {
        return null;
      }
      try {
        return setting.parser().parse(text);
      } catch (Setting.Invalid e) {
        problems.addAll(e.problems());
      } catch (IllegalArgumentException e) {
        problems.add(setting.flag() + ": " + e.getMessage() + origin(setting));
      }
      return null;
    }

    /** Where a bad value came from, when it was not the command line. */
    private String origin(Setting<?> setting) {
      boolean flagGiven = flags != null && flags.hasMatchedOption(setting.flag());
      if (!flagGiven && setting.inFile() && file.value(setting.name()) != null) {
        return " (" + setting.name() + " in " + file.path() + ")";
      }
      return "";
    }
  }

  /**
   * The flag, else {@code NODE_NAME}, else the host name trimmed and lower-cased as the kubelet's node name is
   * (kubernetes {@code pkg/util/node.GetHostname}); Windows host names are upper case.
   */
  static String resolveNodeName(@Nullable String nodeName, @Nullable String fromEnv, Supplier<String> hostName) {
    if (nodeName != null && !nodeName.isBlank()) {
      return nodeName;
    }
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv;
    }
    return hostName.get().trim().toLowerCase(Locale.ROOT);
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  /** The option {@code setting} declares: {@code --name=LABEL}, its help with the default, or a switch. */
  static OptionSpec option(Setting<?> setting) {
    OptionSpec.Builder option = OptionSpec.builder(setting.flag()).description(setting.help());
    if (setting.isSwitch()) {
      return option.arity("0").type(boolean.class).build();
    }
    option.paramLabel(setting.paramLabel()).arity("1").type(String.class);
    if (setting.defaultValue() != null) {
      option.defaultValue(setting.defaultValue()).description(setting.help() + " Default: ${DEFAULT-VALUE}.");
    }
    return option.build();
  }

  /** A command line that prints problems and usage to stderr and exits 2 on bad input, as exporters do. */
  public static CommandLine commandLine(DaemonLauncher launcher) {
    ExporterCommand command = new ExporterCommand(launcher);
    CommandSpec spec = CommandSpec.forAnnotatedObject(command);
    Settings.ALL.forEach(setting -> spec.addOption(option(setting)));
    command.spec = spec;
    CommandLine cli = new CommandLine(spec);
    cli.setParameterExceptionHandler(
        (problem, args) -> {
          CommandLine failed = problem.getCommandLine();
          PrintWriter err = failed.getErr();
          err.println("winstats-exporter: " + problem.getMessage());
          CommandLine.UnmatchedArgumentException.printSuggestions(problem, err);
          failed.usage(err);
          return CommandLine.ExitCode.USAGE;
        });
    return cli;
  }
}
