package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The options every deployment starts the daemon with ({@code deploy/jvm.options}), as the JVM itself reads them. */
class JvmOptionsTest {
  private static final Path OPTIONS = Path.of("..", "deploy", "jvm.options").toAbsolutePath().normalize();

  @Test
  void anOutOfMemoryErrorEndsTheProcessSoThatTheKubeletRestartsIt() throws Exception {
    Process java =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + OPTIONS, "-XX:+PrintFlagsFinal", "-version")
            .redirectErrorStream(true)
            .start();
    String flags = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(java.exitValue()).as(flags).isZero();
    assertThat(flags.lines().filter(l -> l.contains(" ExitOnOutOfMemoryError ")))
        .singleElement()
        .asString()
        .matches("\\s*bool ExitOnOutOfMemoryError\\s+= true\\s+\\{product\\} \\{command line\\}");
  }
}
