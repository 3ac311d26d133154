package io.winstats.exporter;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import picocli.CommandLine.IVersionProvider;

/**
 * What the jar was built from, from its manifest: the version ({@code Implementation-Version}), the git revision
 * ({@code Build-Revision}) and the source's date ({@code Build-Date}: the build's
 * {@code project.build.outputTimestamp}, which a release sets to its commit's time, so two builds of one commit give
 * the same jar); {@code dev} and {@code unknown} when run from classes or built outside a checkout.
 */
public final class BuildInfo implements IVersionProvider {
  private static final String UNKNOWN = "unknown";
  private static final Attributes MANIFEST = ownManifest();

  /** The daemon's version. */
  public static String version() {
    String v = BuildInfo.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  /** The git revision, abbreviated to 12 characters. */
  public static String revision() {
    return attribute("Build-Revision");
  }

  /** When the jar was built, ISO-8601 UTC. */
  public static String buildDate() {
    return attribute("Build-Date");
  }

  private static String attribute(String name) {
    String value = MANIFEST.getValue(name);
    // An unresolved ${...} is a build without git (a source archive): the plugin left the property unset.
    return value == null || value.isBlank() || value.startsWith("${") ? UNKNOWN : value;
  }

  /** The manifest of the jar holding this class (the shaded jar has one; the class path may hold others). */
  private static Attributes ownManifest() {
    try {
      Enumeration<URL> manifests = BuildInfo.class.getClassLoader().getResources("META-INF/MANIFEST.MF");
      while (manifests.hasMoreElements()) {
        try (InputStream in = manifests.nextElement().openStream()) {
          Attributes main = new Manifest(in).getMainAttributes();
          if (Main.class.getName().equals(main.getValue(Attributes.Name.MAIN_CLASS))) {
            return main;
          }
        }
      }
    } catch (IOException e) {
      // No manifest to read: every value is unknown.
    }
    return new Attributes();
  }

  @Override
  public String[] getVersion() {
    return new String[] {
      "winstats-exporter " + version() + " (revision " + revision() + ", built " + buildDate() + ")",
      "java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")",
      System.getProperty("os.name") + " " + System.getProperty("os.arch")
    };
  }
}
