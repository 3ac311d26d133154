package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * picocli formats every help text with {@link String#format}: a bare {@code %} (as in "within 10% of") is refused, and
 * picocli then prints a warning to the operator's terminal and the text unformatted. Every text of every command must
 * format.
 */
class HelpTextTest {
  @Test
  void everyHelpTextOfEveryCommandFormats() {
    List<String> refused = new ArrayList<>();
    check(ExporterCommand.commandLine(config -> 0), refused);
    assertThat(refused).as("help texts String.format refuses (write %% for a percent sign)").isEmpty();
  }

  private static void check(CommandLine command, List<String> refused) {
    CommandSpec spec = command.getCommandSpec();
    UsageMessageSpec usage = spec.usageMessage();
    List<String> texts = new ArrayList<>();
    texts.addAll(List.of(usage.description()));
    texts.addAll(List.of(usage.header()));
    texts.addAll(List.of(usage.footer()));
    texts.addAll(usage.exitCodeList().values());
    texts.add(usage.exitCodeListHeading());
    for (OptionSpec option : spec.options()) {
      texts.addAll(List.of(option.description()));
    }
    for (String text : texts) {
      try {
        String.format(text);
      } catch (IllegalFormatException e) {
        refused.add(spec.qualifiedName() + ": " + e.getMessage() + ": " + text);
      }
    }
    for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
      check(sub.getValue(), refused);
    }
  }
}
