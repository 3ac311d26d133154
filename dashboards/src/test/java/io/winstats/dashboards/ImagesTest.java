package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.winstats.exporter.testing.DaemonProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The images as deploy/images defines them (no container engine runs here to build them): the Linux image built for
 * amd64 and arm64 by the build script and the release workflow, so the chart selects Linux nodes by OS alone; every
 * base pinned (a digest, or a release's exact tag), none floating; the Windows and Linux runtimes linked from the same
 * Temurin release.
 */
class ImagesTest {
  private static final Path IMAGES = Path.of("..", "deploy", "images");
  private static final Pattern FROM = Pattern.compile("(?m)^FROM (?:--platform=\\S+ )?(\\S+)");
  private static final Pattern TEMURIN = Pattern.compile("(?m)^ARG TEMURIN_VERSION=(\\S+)$");

  private static String temurin(String dockerfile) throws IOException {
    Matcher m = TEMURIN.matcher(Files.readString(IMAGES.resolve(dockerfile)));
    assertThat(m.find()).as("%s names its Temurin release", dockerfile).isTrue();
    return m.group(1);
  }

  @Test
  void bothRuntimesComeFromOneTemurinReleaseAndNoBaseFloats() throws IOException {
    assertThat(temurin("Dockerfile.linux")).as("Linux and Windows JDK builds named alike")
        .isEqualTo(temurin("Dockerfile.windows")).matches("17\\.\\d+\\.\\d+(\\.\\d+)?_\\d+");
    for (String dockerfile : List.of("Dockerfile.linux", "Dockerfile.windows")) {
      Matcher from = FROM.matcher(Files.readString(IMAGES.resolve(dockerfile)));
      int bases = 0;
      while (from.find()) {
        String image = from.group(1);
        bases++;
        assertThat(image).as("%s: %s", dockerfile, image).satisfiesAnyOf(
            i -> assertThat(i).matches("[\\w./-]+:[\\w.-]+@sha256:[0-9a-f]{64}"),
            i -> assertThat(i).matches("eclipse-temurin:\\$\\{TEMURIN_VERSION\\}-jdk-jammy"),
            i -> assertThat(i).matches("mcr\\.microsoft\\.com/[\\w./-]+:v\\d+\\.\\d+\\.\\d+"));
      }
      assertThat(bases).as(dockerfile).isGreaterThanOrEqualTo(2);
    }
  }

  /**
   * The Windows workflow's tests run on the JDK the Windows image ships: the jdk17 action downloads the very archive
   * Dockerfile.windows links its runtime from, pinned by the same SHA-256.
   */
  @Test
  void theWindowsWorkflowBuildsWithTheImagesTemurinRelease() throws IOException {
    String dockerfile = Files.readString(IMAGES.resolve("Dockerfile.windows"));
    Matcher add = Pattern.compile("--checksum=sha256:([0-9a-f]{64}) \\\\\\s+(https://\\S+\\.zip)").matcher(dockerfile);
    assertThat(add.find()).as("Dockerfile.windows pins its Windows JDK archive").isTrue();
    JsonNode download = Rules.YAML.readTree(Path.of("..", ".github", "actions", "jdk17", "action.yml").toFile())
        .at("/runs/steps/0");
    assertThat(download.at("/env/TEMURIN_SHA256").asText()).isEqualTo(add.group(1));
    assertThat(download.at("/run").asText()).contains("'" + add.group(2) + "'");
    assertThat(add.group(2)).contains(temurin("Dockerfile.windows").replace('_', '+').replace("+", "%2B"));
  }

  /** deploy/daemon.env is the daemon's environment on Linux: the image sets each of its variables, dev/run reads it. */
  @Test
  void theLinuxImageAndDevRunGiveTheDaemonTheEnvironmentOfDaemonEnv() throws IOException {
    // The file as the tests' daemons read it (DaemonProcess), one NAME=value a variable.
    List<String> variables =
        DaemonProcess.deployedEnvironment().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    assertThat(variables).as("deploy/daemon.env sets something").isNotEmpty().allMatch(v -> v.matches("[A-Z_]+=\\S+"));
    List<String> imageEnv =
        Files.readAllLines(IMAGES.resolve("Dockerfile.linux")).stream()
            .filter(line -> line.startsWith("ENV "))
            .map(line -> line.substring(4).strip())
            .toList();
    assertThat(imageEnv).as("Dockerfile.linux's ENV lines").containsExactlyInAnyOrderElementsOf(variables);
    assertThat(Files.readString(Path.of("..", "dev", "run"))).contains(". deploy/daemon.env");
  }

  @Test
  void theLinuxImageIsBuiltForAmd64AndArm64SoTheChartSelectsByOsAlone() throws IOException {
    assertThat(Files.readString(IMAGES.resolve("build")))
        .contains("--platform linux/amd64,linux/arm64 -f deploy/images/Dockerfile.linux");
    String release = Files.readString(Path.of("..", ".github", "workflows", "release.yml"));
    assertThat(release).contains("docker/setup-qemu-action").contains("platforms: arm64")
        .contains("deploy/images/build \"$IMAGE\" \"$VERSION\" --push");
    JsonNode values = Rules.YAML.readTree(HelmChart.DIR.resolve("values.yaml").toFile());
    assertThat(values.at("/linux/nodeSelector/kubernetes.io~1arch").isMissingNode())
        .as("no arch selector: the image runs on both").isTrue();
    assertThat(values.at("/linux/affinity").isMissingNode()).isTrue();
  }
}
