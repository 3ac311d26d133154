package io.winstats.perfcounters.replay;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/**
 * The real Windows counter logs committed under {@code src/test/resources/perfmon} (MIT; provenance, licence notices
 * and how the TIERRA excerpt was cut are in that folder's README.md and LICENSE).
 */
final class PerfmonLogs {
  static final String ZH_PROCESSOR = "desktop-5gtcqem-win-zh-processor-system-process.csv";
  static final String ZH_NETWORK = "desktop-5gtcqem-win-zh-network-tcpv4.csv";
  static final String JA_TIERRA = "tierra-win10-ja-process-memory-network.first200.csv";

  private PerfmonLogs() {}

  /** The log's file on the test classpath; a missing log is a broken checkout, so it fails, never skips. */
  static Path path(String name) {
    URL url = PerfmonLogs.class.getResource("/perfmon/" + name);
    if (url == null) {
      throw new IllegalStateException("test resource perfmon/" + name + " is missing from the checkout");
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
