package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.Requires;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkout a Windows runner makes: Git for Windows installs with {@code core.autocrlf=true} and actions/checkout
 * keeps it. Without the root .gitattributes that wrote 508 of the repository's 512 files with CRLF, and
 * collector-perfcounters' fixture tests failed on the {@code \r} before any Windows-only test ran (issue 23). The
 * clone is of what is committed, so a local change to .gitattributes shows here once committed.
 */
@Requires(tools = "git")
class WindowsCheckoutTest {
  private static final Path ROOT = Path.of("..");

  /** One line of {@code git ls-files --eol}: {@code i/lf w/crlf attr/text=auto eol=lf <TAB>path}. */
  private record Eol(String index, String worktree, String attributes, String path) {
    static Eol parse(String line) {
      String[] pathSplit = line.split("\t", 2);
      String[] f = pathSplit[0].trim().split("\\s+", 3);
      return new Eol(f[0].substring(2), f[1].substring(2), f.length > 2 ? f[2] : "", pathSplit[1]);
    }

    boolean keepsItsBytes() {
      return attributes.contains("-text");
    }
  }

  private static List<Eol> windowsCheckout(Path tmp) {
    Path clone = tmp.resolve("windows-checkout");
    Tools.Result cloned = Tools.run(Duration.ofMinutes(2), List.of(
        "git", "clone", "--quiet", "--shared", "--config", "core.autocrlf=true", ROOT.toString(), clone.toString()));
    assertThat(cloned.exitCode()).as("git clone: %s", cloned.output()).isZero();
    Tools.Result eol = Tools.run(Duration.ofMinutes(1), List.of("git", "-C", clone.toString(), "ls-files", "--eol"));
    assertThat(eol.exitCode()).as("git ls-files --eol: %s", eol.output()).isZero();
    return eol.output().lines().map(Eol::parse).toList();
  }

  @Test
  void everyTextFileIsWrittenWithLfAndRecordedLogsKeepTheirBytes(@TempDir Path tmp) {
    List<Eol> files = windowsCheckout(tmp);

    assertThat(files).as("the clone's files").hasSizeGreaterThan(100);
    assertThat(files.stream().filter(f -> !f.keepsItsBytes() && !f.worktree().equals("lf") && !f.worktree().isEmpty()))
        .as("text files a core.autocrlf=true checkout writes without LF line ends")
        .extracting(Eol::path)
        .isEmpty();
    assertThat(files.stream().filter(Eol::keepsItsBytes))
        .as("files marked -text (the real perfmon logs, binary goldens) are written as committed")
        .isNotEmpty()
        .allSatisfy(f -> assertThat(f.worktree()).as(f.path()).isEqualTo(f.index()));
  }
}
