package io.winstats.exporter;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest ({@code Implementation-Version}), or {@code dev} when run from classes. */
public final class BuildInfo implements IVersionProvider {

  /** The daemon's version. */
  public static String version() {
    String v = BuildInfo.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  @Override
  public String[] getVersion() {
    return new String[] {
      "winstats-exporter " + version(),
      "java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")",
      System.getProperty("os.name") + " " + System.getProperty("os.arch")
    };
  }
}
