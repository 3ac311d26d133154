package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Windows DaemonSet's {@code limits.memory} is a job-object limit on committed memory, so it must cover the JVM's
 * worst-case commit under {@code deploy/jvm.options}, as the Windows image runs it (no class-data archive, started
 * through cmd.exe on newer hosts). This recomputes the sum the chart's Windows DaemonSet template
 * shows in its comment from the options file and holds the chart's default ({@code windows.resources}) to it: raising
 * {@code -Xmx} (or any other cap) without raising the limit fails. The kustomize base is the chart's output
 * (KustomizeBaseTest), so it follows.
 */
class ManifestMemoryBudgetTest {
  private static final Path JVM_OPTIONS = Path.of("..", "deploy", "jvm.options");
  private static final Path WINDOWS_TEMPLATE = HelmChart.DIR.resolve("templates").resolve("daemonset-windows.yaml");

  /** Threads budgeted: 19-23 ran on Linux on a 110-pod node (NMT, bench/nmt); the Windows transport adds ~6. */
  static final int THREADS = 32;
  /** A VM thread's default stack on x64 (ThreadStackSize, VMThreadStackSize, CompilerThreadStackSize). */
  static final long VM_THREAD_STACK_MIB = 1;
  /** The JDK's default CDS archive: 16 MiB reserved for the shared class space by NMT. */
  static final long CDS_ARCHIVE_MIB = 16;
  /** Symbols, arenas, GC, compiler and other JVM internals: about 12 MiB by NMT (bench/nmt), doubled. */
  static final long JVM_INTERNALS_MIB = 24;
  /** Native memory NMT does not see: JNA, zip, the C runtime's heap. */
  static final long NATIVE_OUTSIDE_NMT_MIB = 24;
  /** cmd.exe, through which newer Windows hosts start a HostProcess container's command, in the same job: estimated. */
  static final long CMD_WRAPPER_MIB = 8;
  private static final Path WINDOWS_DOCKERFILE = Path.of("..", "deploy", "images", "Dockerfile.windows");

  /** Worst-case committed MiB of a JVM started with {@code options}. */
  static long worstCaseCommitMib(List<String> options) {
    long heap = size(options, "-Xmx").orElseThrow(() -> new AssertionError("jvm.options must cap the heap"));
    long metaspace =
        size(options, "-XX:MaxMetaspaceSize=").orElseThrow(() -> new AssertionError("metaspace must be capped"));
    long codeCache =
        size(options, "-XX:ReservedCodeCacheSize=").orElseThrow(() -> new AssertionError("code cache must be capped"));
    // Unset, the direct-buffer limit is the heap's maximum (VM.maxDirectMemory() = Runtime.maxMemory()).
    long direct = size(options, "-XX:MaxDirectMemorySize=").orElse(heap);
    long stack = Math.max(size(options, "-Xss").orElse(VM_THREAD_STACK_MIB), VM_THREAD_STACK_MIB);
    return heap + metaspace + codeCache + direct + CDS_ARCHIVE_MIB + THREADS * stack + JVM_INTERNALS_MIB
        + NATIVE_OUTSIDE_NMT_MIB;
  }

  /** The value of {@code -Xmx64m}-style options in MiB, rounded up; empty if absent. */
  static Optional<Long> size(List<String> options, String prefix) {
    Optional<Long> found = Optional.empty();
    for (String line : options) {
      String o = line.strip();
      if (o.startsWith(prefix)) {
        Matcher m = Pattern.compile("(\\d+)([kKmMgG]?)").matcher(o.substring(prefix.length()));
        assertThat(m.matches()).as("a size: %s", o).isTrue();
        long n = Long.parseLong(m.group(1));
        long bytes =
            switch (m.group(2).toLowerCase(Locale.ROOT)) {
              case "k" -> n << 10;
              case "m" -> n << 20;
              case "g" -> n << 30;
              default -> n;
            };
        found = Optional.of((bytes + (1 << 20) - 1) >> 20); // the last one wins, as in the JVM
      }
    }
    return found;
  }

  /**
   * The worst-case commit of the Windows image's job, in MiB: deploy/jvm.options without the class-data archive,
   * which the Windows runtime does not have (its classes are in the metaspace, which is budgeted at its cap), plus
   * the cmd.exe wrapper.
   */
  static long budgetMib() {
    try {
      return worstCaseCommitMib(Files.readAllLines(JVM_OPTIONS)) - CDS_ARCHIVE_MIB + CMD_WRAPPER_MIB;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The budget leaves the archive out: an image that gains one (jlink --generate-cds-archive) must add it back. */
  @Test
  void theWindowsImageHasNoClassDataArchive() throws IOException {
    assertThat(Files.readAllLines(WINDOWS_DOCKERFILE).stream().filter(l -> !l.stripLeading().startsWith("#")))
        .as("the Windows image's build instructions")
        .noneMatch(l -> l.contains("--generate-cds-archive") || l.contains(".jsa") || l.contains("Xshare:dump"));
  }

  @Test
  void theWindowsLimitCoversTheWorstCaseCommitOfJvmOptions() throws IOException {
    long budget = budgetMib();
    JsonNode values = Rules.YAML.readTree(HelmChart.DIR.resolve("values.yaml").toFile());
    assertThat(values.at("/windows/resources/limits/memory").asText()).as("the chart's default").isEqualTo(budget + "Mi");
    assertThat(Files.readString(WINDOWS_TEMPLATE)).as("the arithmetic in the comment").contains("= " + budget + " MiB limit");
  }

  @Test
  void theSumFollowsEachCapInTheOptions() {
    List<String> base =
        List.of("-Xmx64m", "-Xss512k", "-XX:MaxMetaspaceSize=64m", "-XX:ReservedCodeCacheSize=32m");
    assertThat(worstCaseCommitMib(base)).isEqualTo(64 + 64 + 32 + 64 + 16 + 32 + 24 + 24);
    // A larger heap also raises the default direct-buffer limit; an explicit one replaces it.
    assertThat(worstCaseCommitMib(List.of("-Xmx128m", "-XX:MaxMetaspaceSize=64m", "-XX:ReservedCodeCacheSize=32m")))
        .isEqualTo(128 + 64 + 32 + 128 + 16 + 32 + 24 + 24);
    assertThat(
            worstCaseCommitMib(
                List.of(
                    "-Xmx64m", "-XX:MaxMetaspaceSize=64m", "-XX:ReservedCodeCacheSize=32m",
                    "-XX:MaxDirectMemorySize=16m", "-Xss2m")))
        .isEqualTo(64 + 64 + 32 + 16 + 16 + 64 + 24 + 24);
    assertThat(size(List.of("-Xss512k"), "-Xss")).contains(1L);
    assertThat(size(List.of("-Xmx1g"), "-Xmx")).contains(1024L);
  }
}
