package io.winstats.exporter;

import java.util.Locale;

/**
 * The daemon's one answer to "is this a Windows node": {@code os.name} read in this class only. The collectors do not
 * read it; the daemon passes the answer to them ({@code NodeCounterSources}, {@code CriStatsReaders}), so that the two
 * leaf modules need no shared code and a test can ask for either answer.
 */
public enum HostOs {
  WINDOWS,
  /** Linux, or any other host: the procfs source and Unix-socket CRI endpoints. */
  OTHER;

  private static final HostOs CURRENT = of(System.getProperty("os.name", ""));

  /** The host this JVM runs on. */
  public static HostOs current() {
    return CURRENT;
  }

  /** The answer for an {@code os.name} value: every Windows edition's name starts with "Windows". */
  static HostOs of(String osName) {
    return osName.toLowerCase(Locale.ROOT).startsWith("windows") ? WINDOWS : OTHER;
  }

  public boolean isWindows() {
    return this == WINDOWS;
  }
}
