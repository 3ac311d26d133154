package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.exporter.testing.DaemonProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The long flags the real daemon accepts, read from its {@code --help}. */
final class DaemonFlags {
  private static final Pattern FLAG = Pattern.compile("(?<![\\w-])--([a-z][a-z0-9.-]*)");
  private static Set<String> cached;

  private DaemonFlags() {}

  static synchronized Set<String> accepted() {
    if (cached == null) {
      DaemonProcess.Result r;
      try {
        r = DaemonProcess.run(Duration.ofSeconds(60), "--help");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      assertThat(r.exitCode()).as(r.output()).isZero();
      Set<String> flags = new TreeSet<>();
      Matcher m = FLAG.matcher(r.output());
      while (m.find()) {
        flags.add(m.group(1));
      }
      assertThat(flags).as("flags in --help:\n" + r.output()).contains("web.listen-address", "cri.endpoint");
      cached = Set.copyOf(flags);
    }
    return cached;
  }
}
