package io.winstats.exporter;

import io.winstats.exporter.http.HttpLimits;
import io.winstats.exporter.http.ServerSettings;
import io.winstats.exporter.metrics.FamilyFilter;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.sources.NodeSourceSpec;
import io.winstats.perfcounters.win32.ServiceFilter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
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
    // Every flag is listed below; a synopsis of all of them wrapped in the middle of names ("--web.\n
    // disable-exporter-metrics"), since picocli breaks long words at the dot.
    abbreviateSynopsis = true,
    description = {
      "Node, pod and container metrics for Kubernetes nodes: the kubelet Summary API (/stats/summary),"
          + " cAdvisor-compatible Prometheus series (/metrics) and kubelet resource metrics (/metrics/resource)."
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

  /**
   * Validates every setting, from the flags and the config file, collecting all problems into one usage error; {@code
   * cli} is this command or its {@code check}, which take the same settings.
   */
  static ExporterConfig toConfig(CommandLine cli) {
    List<String> problems = new ArrayList<>();
    ParseResult flags = cli.getParseResult();
    // A first pass for the file's path only; its problems (and every other flag's) are reported by the second.
    Path configFile = new Values(flags, ConfigFile.empty(), new ArrayList<>()).optional(Settings.CONFIG_FILE);
    ConfigFile file = configFile == null ? ConfigFile.empty() : ConfigFile.read(configFile, problems);
    Values values = new Values(flags, file, problems);

    // Settings that only the pdh source reads; the source as given names it in the message, "auto" included.
    boolean pdh = values.optional(NodeSettings.SOURCE) instanceof NodeSourceSpec.Pdh;
    String source = values.text(NodeSettings.SOURCE);
    WorkingSetDefinition workingSet = values.optional(NodeSettings.MEMORY_WORKING_SET);
    if (workingSet != null && workingSet != WorkingSetDefinition.KUBELET && !pdh) {
      problems.add(
          NodeSettings.MEMORY_WORKING_SET.flag() + ": " + workingSet.flagValue() + " needs the pdh node source"
              + " (Windows); --node.source is " + source);
    }
    if (!file.customCounters().isEmpty() && !pdh) {
      problems.add(
          "perfcounters: custom performance counters need the pdh node source (Windows); --node.source is " + source);
    }
    Boolean otlp = values.optional(OtlpSettings.ENABLED);
    if (values.optional(OtlpSettings.INTERVAL) != null && !Boolean.TRUE.equals(otlp)) {
      problems.add(OtlpSettings.INTERVAL.flag() + " needs " + OtlpSettings.ENABLED.flag() + " (the push is off)");
    }
    if (!problems.isEmpty()) {
      // When every problem is the file's, the fix is there: pointing to --help would send the operator to the flags.
      boolean allInFile = configFile != null && problems.stream().allMatch(p -> p.contains(configFile.toString()));
      throw new Refused(
          cli,
          String.join(System.lineSeparator(), problems),
          allInFile ? "winstats-exporter: the fix is in " + configFile + " (--help lists every setting)" : SEE_HELP);
    }
    HttpLimits limits =
        new HttpLimits(
            Math.toIntExact(values.required(WebSettings.MAX_HEADER_BYTES)),
            values.required(WebSettings.MAX_BODY_BYTES),
            values.required(WebSettings.REQUEST_TIMEOUT),
            values.required(WebSettings.IDLE_TIMEOUT),
            values.required(WebSettings.MAX_CONNECTIONS));
    // Each setting is read by name (config.settings()); only what several settings or places make is built here.
    return ExporterConfigBuilder.builder()
        .settings(values.settled())
        .nodeServices(
            new ServiceFilter(
                values.required(NodeSettings.SERVICE_INCLUDE), values.required(NodeSettings.SERVICE_EXCLUDE)))
        .nodeName(
            resolveNodeName(
                values.optional(NodeSettings.NAME), System.getenv("NODE_NAME"), ExporterCommand::localHostName))
        .customCounters(file.customCounters())
        .server(
            new ServerSettings(
                limits,
                values.optional(WebSettings.CONFIG_FILE),
                values.optional(WebSettings.BEARER_TOKEN_FILE),
                values.required(WebSettings.TELEMETRY_PATH),
                "version " + BuildInfo.version() + ", revision " + BuildInfo.revision() + ", built "
                    + BuildInfo.buildDate()))
        .families(new FamilyFilter(values.required(MetricsSettings.INCLUDE), values.required(MetricsSettings.EXCLUDE)))
        .collectors(CollectorSettings.enabled(values::required))
        .build();
  }

  /**
   * The settings' values: a flag given on the command line wins over the config file, which wins over the setting's
   * default. Each value is checked by its setting once; a bad one has no value and its problem is added to {@code
   * problems}.
   */
  private static final class Values {
    private final @Nullable ParseResult flags;
    private final ConfigFile file;
    private final Map<Setting<?>, Object> checked = new HashMap<>();

    Values(@Nullable ParseResult flags, ConfigFile file, List<String> problems) {
      this.flags = flags;
      this.file = file;
      for (Setting<?> setting : Settings.ALL) {
        String text = text(setting);
        if (text == null) {
          continue;
        }
        try {
          Object value = setting.parser().parse(text);
          if (value != null) {
            checked.put(setting, value);
          }
        } catch (Setting.Invalid e) {
          problems.addAll(e.problems());
        } catch (IllegalArgumentException e) {
          problems.add(setting.flag() + ": " + e.getMessage() + origin(setting));
        }
      }
    }

    @Nullable String text(Setting<?> setting) {
      if (flags != null && flags.hasMatchedOption(setting.flag())) {
        if (setting.isNegatable()) {
          // picocli gives the negatable option true for --name, false for --no-name
          return String.valueOf(flags.matchedOptionValue(setting.flag(), Boolean.TRUE));
        }
        return setting.isSwitch() ? "true" : flags.matchedOptionValue(setting.flag(), "");
      }
      String fromFile = setting.inFile() ? file.value(setting.name()) : null;
      return fromFile != null ? fromFile : setting.defaultValue();
    }

    /** The value, or null when the setting has none or a bad one. */
    @SuppressWarnings("unchecked") // put by the setting's own parser
    <T> @Nullable T optional(Setting<T> setting) {
      return (T) checked.get(setting);
    }

    /** The value of a setting with a default, once every problem has been reported. */
    <T> T required(Setting<T> setting) {
      T value = optional(setting);
      if (value == null) {
        throw new IllegalStateException(setting.flag() + " has no value although it has a default");
      }
      return value;
    }

    /** Every setting's value, once every problem has been reported. */
    SettingValues settled() {
      return new SettingValues(checked);
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
      return option.arity("0").type(boolean.class).negatable(setting.isNegatable()).build();
    }
    option.paramLabel(setting.paramLabel()).arity("1").type(String.class);
    String defaultValue = setting.defaultValue();
    if (defaultValue != null) {
      option.defaultValue(defaultValue);
      // An empty default (--metrics.exclude) is "nothing", not a value: "Default: ." read as "exclude everything".
      // A help that states its own default (one per platform) is not given this host's as a second one.
      if (!defaultValue.isEmpty() && !setting.help().contains("Default: ")) {
        option.description(setting.help() + " Default: ${DEFAULT-VALUE}.");
      }
    }
    return option.build();
  }

  /** Every setting as an option of {@code spec}, with {@code --no-} for the negatable ones. */
  static void addSettings(CommandSpec spec) {
    // picocli negates --name to --no-name only for names of word characters and dashes; ours have dots.
    spec.negatableOptionTransformer(
        new CommandLine.RegexTransformer.Builder(CommandLine.RegexTransformer.createDefault())
            .addPattern("^--no-(\\w[\\w.-]*)$", "--$1", "--[no-]$1")
            .addPattern("^--(\\w[\\w.-]*)$", "--no-$1", "--[no-]$1")
            .build());
    Settings.ALL.forEach(setting -> spec.addOption(option(setting)));
  }

  /** Where a problem that is not an unknown flag points instead of printing the usage. */
  static final String SEE_HELP = "winstats-exporter: run with --help for every flag";

  /** Settings refused, with the line that says where the fix is. */
  static final class Refused extends ParameterException {
    private static final long serialVersionUID = 1L;
    private final String whereToFix;

    Refused(CommandLine cli, String problems, String whereToFix) {
      super(cli, problems);
      this.whereToFix = whereToFix;
    }
  }

  /**
   * A command line that exits 2 on bad input, as exporters do: each problem on a line of its own, then the usage
   * for an unknown flag, or one line pointing to {@code --help} for anything else, so that the problem is what
   * {@code kubectl logs --tail} shows.
   */
  public static CommandLine commandLine(DaemonLauncher launcher) {
    ExporterCommand command = new ExporterCommand(launcher);
    CommandSpec spec = CommandSpec.forAnnotatedObject(command);
    addSettings(spec);
    command.spec = spec;
    CommandLine cli = new CommandLine(spec);
    cli.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, new OptionListRenderer());
    // Before the handler below, which is set on the subcommands there are when it is set.
    cli.addSubcommand("compare", new CommandLine(new CompareCommand()));
    cli.addSubcommand("check", new CommandLine(CheckCommand.spec()));
    cli.setParameterExceptionHandler(
        (problem, args) -> {
          CommandLine failed = problem.getCommandLine();
          PrintWriter err = failed.getErr();
          String message = problem.getMessage() == null ? problem.toString() : problem.getMessage();
          message.lines().forEach(line -> err.println("winstats-exporter: " + line));
          if (problem instanceof CommandLine.UnmatchedArgumentException) {
            CommandLine.UnmatchedArgumentException.printSuggestions(problem, err);
            failed.usage(err);
          } else {
            err.println(problem instanceof Refused refused ? refused.whereToFix : SEE_HELP);
          }
          return CommandLine.ExitCode.USAGE;
        });
    return cli;
  }
}
