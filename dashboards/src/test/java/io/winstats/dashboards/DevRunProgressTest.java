package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dev/run's first build says where it is: dev/maven-progress, fed a real Maven build of two modules, writes one line
 * per module (with its place in the reactor) and one per plugin goal, and keeps Maven's whole output in the log.
 */
class DevRunProgressTest {
  @Test
  @Requires(tools = {"mvn", "awk"})
  void aLinePerModuleAndPerBuildPhase(@TempDir Path dir) throws IOException {
    Path log = dir.resolve("mvn.log");
    Tools.Result r = Tools.run(Duration.ofMinutes(3), List.of("bash", "-c",
        "set -o pipefail; mvn -B -ntp -o -Dstyle.color=never -f ../pom.xml -pl summary-api,collector-perfcounters"
            + " validate 2>&1 | ../dev/maven-progress " + log));
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output().lines().toList()).as(r.output()).contains(
        "dev/run: [1/2] collector-perfcounters",
        "dev/run:   collector-perfcounters: enforcer:enforce",
        "dev/run: [2/2] summary-api",
        "dev/run:   summary-api: enforcer:enforce");
    assertThat(Files.readString(log)).contains("BUILD SUCCESS");
    assertThat(Files.readString(Path.of("..", "dev", "run"))).contains("| dev/maven-progress \"$log\"")
        .doesNotContain("mvn -B -q");
  }

  /** The jar plugin's "Building jar: PATH" is not a module: no stray "dev/run: jar:" line. */
  @Test
  @Requires(tools = "awk")
  void theJarPluginsBuildingLineIsNotAModule(@TempDir Path dir) throws IOException {
    Path input = dir.resolve("mvn.out");
    Files.writeString(input, "[INFO] Building collector-cri 0.1.0                [3/6]\n"
        + "[INFO] --- maven-jar-plugin:3.4.2:jar (default-jar) @ collector-cri ---\n"
        + "[INFO] Building jar: /w/collector-cri/target/collector-cri-0.1.0.jar\n");
    Tools.Result r = Tools.run(Duration.ofSeconds(30), List.of("bash", "-c",
        "../dev/maven-progress " + dir.resolve("log") + " < " + input + " 2>&1"));
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output().lines().toList()).as(r.output())
        .containsExactly("dev/run: [3/6] collector-cri", "dev/run:   collector-cri: jar:jar");
  }
}
