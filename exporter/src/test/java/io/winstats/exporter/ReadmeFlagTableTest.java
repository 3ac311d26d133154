package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * README's flag table against {@link Settings}, the one declaration the picocli options and the configuration file's
 * keys are built from: a setting added, renamed or given a new default there and not in the README fails here.
 */
class ReadmeFlagTableTest {
  private static final Path README = Path.of("..", "README.md");
  /**
   * {@code | `--name=LABEL` | default | help |}, {@code | `--name` | ...} for a switch, {@code | `--name`,
   * `--no-name` | ...} for one on by default.
   */
  private static final Pattern ROW = Pattern.compile("^\\| `(--[a-z._-]+)(?:=([A-Z:]+))?`(?:, `--[a-z._-]+`)? \\|([^|]*)\\|");
  /** Flags the file cannot set: they pick the file, or act once and exit. */
  private static final Set<String> COMMAND_LINE_ONLY = Set.of("config.file", "print-config", "help", "version");

  private final CommandLine cli = ExporterCommand.commandLine(config -> 0);

  @Test
  void theReadmeTableListsExactlyTheDeclaredFlagsWithTheirLabels() throws IOException {
    Map<String, String> labels = new LinkedHashMap<>();
    for (OptionSpec option : cli.getCommandSpec().options()) {
      labels.put(option.longestName(), option.arity().max() == 0 ? "" : option.paramLabel());
    }

    Map<String, String> documented = new LinkedHashMap<>();
    for (String line : flagTable()) {
      Matcher row = ROW.matcher(line);
      if (row.find()) {
        documented.put(row.group(1), row.group(2) == null ? "" : row.group(2));
      }
    }
    // "`--help`, `--version`" is one row for two switches
    if (documented.containsKey("--help")) {
      documented.put("--version", "");
    }

    assertThat(documented).as("README.md's flag table against the options built from Settings").isEqualTo(labels);
  }

  @Test
  void aSimpleReadmeDefaultIsThePicocliDefault() throws IOException {
    Map<String, String> readmeDefaults = new LinkedHashMap<>();
    for (String line : flagTable()) {
      Matcher row = ROW.matcher(line);
      Matcher single = row.find() ? Pattern.compile("^ *`([^`]+)` *$").matcher(row.group(3)) : null;
      if (single != null && single.matches()) {
        readmeDefaults.put(row.group(1), single.group(1));
      }
    }
    assertThat(readmeDefaults).hasSizeGreaterThan(10);
    readmeDefaults.forEach(
        (flag, shown) ->
            assertThat(cli.getCommandSpec().findOption(flag).defaultValue()).as("default of " + flag).isEqualTo(shown));
  }

  @Test
  void everyFlagButTheCommandLineOnesIsAConfigurationFileKey() {
    Set<String> settable = new TreeSet<>();
    for (OptionSpec option : cli.getCommandSpec().options()) {
      String key = option.longestName().substring(2);
      if (!COMMAND_LINE_ONLY.contains(key)) {
        settable.add(key);
      }
    }

    assertThat(new TreeSet<>(ConfigFile.KEYS)).isEqualTo(settable);
  }

  /** The rows of the table under {@code ## Flags}, up to the first line that is not a table row. */
  private static List<String> flagTable() throws IOException {
    List<String> lines = Files.readAllLines(README);
    int start = lines.indexOf("## Flags");
    assertThat(start).as("README.md has a '## Flags' section").isNotNegative();
    List<String> rows = new ArrayList<>();
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("|")) {
        rows.add(line);
      } else if (!rows.isEmpty()) {
        break;
      }
    }
    return rows;
  }
}
