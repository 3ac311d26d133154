package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.exporter.metrics.Collector;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** One declaration per setting: the flag and the configuration file key set the same value, checked the same way. */
class SettingsTest {
  @TempDir static Path dir;

  /** A value other than the default for every setting the file may hold; a new setting needs a row here. */
  private static Map<String, String> examples() throws IOException {
    Path web = dir.resolve("web.yml");
    Files.writeString(web, "basic_auth_users:\n  a: $2a$04$QZSPLYNCSlIOxYaleTfi7OjWu6SQxeWfsMJ9mIxpZh3G3OoEL0aTq\n");
    Path token = Files.writeString(dir.resolve("token"), "t0ken\n");
    Map<String, String> examples = new HashMap<>();
    // Each collector row's switch, turned from its default.
    for (Collector collector : Collector.values()) {
      examples.put("collector." + collector.flagName(), String.valueOf(!collector.onByDefault()));
    }
    examples.putAll(
        Map.ofEntries(
            Map.entry("web.listen-address", "127.0.0.1:19002"),
            Map.entry("web.config.file", web.toString()),
            Map.entry("web.auth.bearer-token-file", token.toString()),
            Map.entry("web.max-header-bytes", "32KiB"),
            Map.entry("web.max-body-bytes", "1MiB"),
            Map.entry("web.request-timeout", "3s"),
            Map.entry("web.idle-timeout", "2m"),
            Map.entry("web.max-connections", "12"),
            Map.entry("web.telemetry-path", "/prom"),
            Map.entry("web.disable-exporter-metrics", "true"),
            Map.entry("web.node-page", "false"),
            Map.entry("metrics.include", "(container|machine)_.*"),
            Map.entry("metrics.exclude", "container_network_.*"),
            Map.entry("cri.endpoint", "tcp://127.0.0.1:7777"),
            Map.entry("cri.timeout", "750ms"),
            Map.entry("cri.stats-call", HostOs.current().isWindows() ? "ListContainerStats" : "ListPodSandboxStats"),
            Map.entry("cri.windows-stats", "cri"),
            Map.entry("sampling.interval", "30s"),
            Map.entry("node.source", "pdh"),
            Map.entry("node.memory.working-set", "physical"),
            Map.entry("node.kubelet-root-dir", "D:\\kubelet"),
            Map.entry("node.service.include", ".+"),
            Map.entry("node.service.exclude", "WSearch|Spooler"),
            Map.entry("node.name", "node-from-test"),
            Map.entry("record", dir.resolve("rec.csv").toString()),
            Map.entry("otlp.enabled", "true"),
            Map.entry("otlp.interval", "30s"),
            Map.entry("log.level", "warn"),
            Map.entry("log.format", "json")));
    return examples;
  }

  static Stream<String> fileSettings() {
    return Settings.inFile().stream().map(Setting::name);
  }

  @Test
  void everySettingTheFileMayHoldHasAnExampleAndEveryOtherIsCommandLineOnly() throws IOException {
    assertThat(examples().keySet()).containsExactlyInAnyOrderElementsOf(fileSettings().toList());
    assertThat(Settings.ALL.stream().filter(s -> !s.inFile()).map(Setting::name))
        .containsExactlyInAnyOrder("config.file", "print-config");
  }

  @ParameterizedTest
  @MethodSource("fileSettings")
  void aSettingGivenByFlagOrByTheFileGivesTheSameEffectiveValue(String name) throws IOException {
    String value = examples().get(name);
    // physical needs the pdh source whichever way it is given
    // and the push's interval needs the push
    List<String> context =
        name.equals("node.memory.working-set")
            ? List.of("--node.source=pdh")
            : name.equals("otlp.interval") ? List.of("--otlp.enabled") : List.of();
    Path file = Files.writeString(dir.resolve(name + ".yml"), name + ": '" + value.replace("'", "''") + "'\n");

    // A switch is given alone on the command line; its example is "true", or "false" for one on by default, which
    // --no-name turns off.
    Setting<?> setting = java.util.Objects.requireNonNull(Settings.byName(name));
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
