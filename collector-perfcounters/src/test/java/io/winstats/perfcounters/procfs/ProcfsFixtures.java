package io.winstats.perfcounters.procfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/** Locates the captured proc roots under {@code src/test/resources/fixtures/procfs}. */
final class ProcfsFixtures {
  static final String VM = "vm-debian12-2cpu";

  private ProcfsFixtures() {}

  static Path root(String name) {
    URL url = ProcfsFixtures.class.getResource("/fixtures/procfs/" + name);
    if (url == null) {
      throw new IllegalStateException("no fixture " + name);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The file's text with LF line ends, as the kernel writes it, whatever line ends a checkout gave the fixture. */
  static String text(String name, String file) {
    try {
      return Files.readString(root(name).resolve(file)).replace("\r\n", "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Copies a fixture tree into {@code target} so a test can break files in it. */
  static Path copy(String name, Path target) throws IOException {
    Path source = root(name);
    try (Stream<Path> files = Files.walk(source)) {
      for (Path from : (Iterable<Path>) files::iterator) {
        Path to = target.resolve(source.relativize(from).toString());
        if (Files.isDirectory(from)) {
          Files.createDirectories(to);
        } else {
          Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return target;
  }
}
