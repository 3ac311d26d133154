package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import io.winstats.testing.Fences;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** One declaration per setting: the flag and the configuration file key set the same value, checked the same way. */
class SettingsTest {
  @TempDir static Path dir;

  /**
   * The examples of the settings whose file the test writes (an example must be a file that exists); every other
   * setting's example is declared beside it ({@code .withExample}, a switch's by its kind).
   */
  private static Map<String, String> examplesWrittenHere() throws IOException {
    Path web = dir.resolve("web.yml");
    Files.writeString(web, "basic_auth_users:\n  a: $2a$04$QZSPLYNCSlIOxYaleTfi7OjWu6SQxeWfsMJ9mIxpZh3G3OoEL0aTq\n");
    Path token = Files.writeString(dir.resolve("token"), "t0ken\n");
    return Map.of("web.config.file", web.toString(), "web.auth.bearer-token-file", token.toString());
  }

  /** A value other than the default for every setting the file may hold that has one, by name. */
  private static Map<String, String> examples() throws IOException {
    Map<String, String> examples = new HashMap<>(examplesWrittenHere());
    for (Setting<?> setting : Settings.inFile()) {
      if (setting.example() != null) {
        examples.put(setting.name(), setting.example());
      }
    }
    return examples;
  }

  static Stream<String> fileSettings() {
    return Settings.inFile().stream().map(Setting::name);
  }

  @Test
  void everySettingTheFileMayHoldHasAnExampleAndEveryOtherIsCommandLineOnly() throws IOException {
    Map<String, String> examples = examples();
    assertThat(fileSettings().filter(name -> !examples.containsKey(name)))
        .as("settings the file may hold without an example (.withExample beside the declaration)")
        .isEmpty();
    assertThat(Settings.ALL.stream().filter(s -> !s.inFile()).map(Setting::name))
        .containsExactlyInAnyOrder("config.file", "print-config");
  }

  @Test
  void aSettingWhoseExampleIsWrittenHereDeclaresNone() throws IOException {
    for (String name : examplesWrittenHere().keySet()) {
      assertThat(Objects.requireNonNull(Settings.byName(name)).example()).as(name).isNull();
    }
  }

  /**
   * Every setting declared as a constant, in any class of the package, is in a group's list and so in the catalogue:
   * one in none would have no flag, no key and no value.
   */
  @Test
  void everyDeclaredSettingIsInItsGroupsList() throws IllegalAccessException {
    List<String> unlisted = new ArrayList<>();
    int declared = 0;
    for (JavaClass type : Fences.mainClassesOf("io.winstats.exporter", Settings.class)) {
      for (JavaField field : type.getFields()) {
        if (!field.getModifiers().contains(JavaModifier.STATIC) || !field.getRawType().isEquivalentTo(Setting.class)) {
          continue;
        }
        Field constant = field.reflect();
        constant.setAccessible(true);
        Object setting = constant.get(null);
        declared++;
        if (Settings.ALL.stream().noneMatch(listed -> listed == setting)) {
          unlisted.add(type.getSimpleName() + "." + field.getName());
        }
      }
    }
    assertThat(declared).as("settings declared as constants").isGreaterThan(30);
    assertThat(unlisted).as("settings in no group's list (a group's ALL, which Settings.ALL joins)").isEmpty();
    assertThat(Settings.ALL).doesNotHaveDuplicates();
  }

  @ParameterizedTest
  @MethodSource("fileSettings")
  void aSettingGivenByFlagOrByTheFileGivesTheSameEffectiveValue(String name) throws IOException {
    String value = examples().get(name);
    assertThat(value).as("%s's example", name).isNotNull();
    // physical needs the pdh source whichever way it is given
    // and the push's interval needs the push
    List<String> context =
        name.equals("node.memory.working-set")
            ? List.of("--node.source=pdh")
            : name.equals("otlp.interval") ? List.of("--otlp.enabled") : List.of();
    Path file = Files.writeString(dir.resolve(name + ".yml"), name + ": '" + value.replace("'", "''") + "'\n");

    // A switch is given alone on the command line; its example is "true", or "false" for one on by default, which
    // --no-name turns off.
    Setting<?> setting = Objects.requireNonNull(Settings.byName(name));
    String flag =
        setting.isNegatable() ? "--no-" + name : setting.isSwitch() ? "--" + name : "--" + name + "=" + value;
    String byFlag = printConfig(context, flag);
    String byFile = printConfig(context, "--config.file=" + file);
    String byDefault = printConfig(context);

    assertThat(byFile).isEqualTo(byFlag);
    assertThat(byFlag).as("the example must differ from the default").isNotEqualTo(byDefault);
  }

  @Test
  void aBadValueIsRefusedTheSameWayFromEitherPlaceAndTheFileIsNamed() throws IOException {
    Path file = Files.writeString(dir.resolve("bad-interval.yml"), "sampling:\n  interval: 500ms\n");

    Run byFlag = run("--sampling.interval=500ms");
    Run byFile = run("--config.file=" + file);

    assertThat(byFlag.exit).isEqualTo(2);
    assertThat(byFile.exit).isEqualTo(2);
    assertThat(byFlag.err).contains("--sampling.interval: 500ms is shorter than the minimum 1s\n");
    assertThat(byFile.err)
        .contains("--sampling.interval: 500ms is shorter than the minimum 1s (sampling.interval in " + file + ")");
  }

  @Test
  void anUnknownKeyIsRefusedWithTheKnownKeys() throws IOException {
    Path file = Files.writeString(dir.resolve("typo.yml"), "sampling:\n  intervall: 5s\n");

    Run run = run("--config.file=" + file);

    assertThat(run.exit).isEqualTo(2);
    assertThat(run.err)
        .contains(file + ": unknown setting 'sampling.intervall'; known: ")
        .contains("sampling.interval, web.auth.bearer-token-file");
  }

  @Test
  void theConfigFileKeysAreTheSettingsNames() {
    assertThat(ConfigFile.KEYS).containsExactlyInAnyOrderElementsOf(fileSettings().toList());
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = ExporterCommand.commandLine(config -> 0);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString().replace(System.lineSeparator(), "\n"));
  }

  private static String printConfig(List<String> context, String... args) {
    List<String> all = new ArrayList<>(context);
    all.addAll(List.of(args));
    all.add("--print-config");
    Run run = run(all.toArray(String[]::new));
    assertThat(run.exit).as(run.err).isZero();
    return run.out;
  }
}
