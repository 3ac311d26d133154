package io.winstats.testing;

import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/ARCHITECTURE.md's map against the code: every package of every module's {@code src/main/java} (and every one
 * its protos generate) has a row in the module table, under its module, and every package, class and library that a
 * fence names (the rules of {@link Fences}, the package names in the modules' {@code ArchitectureTest}) is in the
 * "Fences" section, in backticks as the page writes them ({@code perfcounters.win32.jna}, {@code
 * summary.SummaryJson}, {@code com.sun.jna..}). A new package or fence fails here, named, until the map has it.
 * Beside {@link Fences}, which it reads; the whole repository is read from the module's parent, as the other doc tests
 * do.
 */
class ArchitectureMapTest {
  private static final Path ROOT = Path.of("..");
  private static final Path MAP = ROOT.resolve("docs").resolve("ARCHITECTURE.md");
  private static final String BASE = "io.winstats.";

  /** A quoted token of an ArchUnit rule's description: a package, a library pattern or a class-name regex. */
  private static final Pattern QUOTED = Pattern.compile("'([^']+)'");

  /** A package name in quotes in a test's source, below a module's root package ("io.winstats.cri.rounds"). */
  private static final Pattern PACKAGE_LITERAL = Pattern.compile("\"(io\\.winstats\\.[a-z0-9]+(?:\\.[a-z0-9]+)+)\"");

  /** A generated package: {@code option java_package = "io.winstats.cri.api";} in a {@code .proto} file. */
  private static final Pattern JAVA_PACKAGE =
      Pattern.compile("(?m)^\\s*option\\s+java_package\\s*=\\s*\"([^\"]+)\"\\s*;");

  /** What {@code Fences.onlyInClasses} appends to its class regex, so that nested classes match too. */
  private static final String NESTED_SUFFIX = "(\\$.*)?";

  @Test
  void everyMainPackageHasARowInTheModuleTable() throws IOException {
    assertThat(missingRows(mainPackages(ROOT), Files.readString(MAP)))
        .as("main packages (module, package) with no row in docs/ARCHITECTURE.md's module table")
        .isEmpty();
  }

  @Test
  void everyNameAFenceHoldsIsInTheFencesSection() throws IOException {
    assertThat(missingFromFences(fencedNames(ROOT), Files.readString(MAP)))
        .as("names a fence holds (Fences, the modules' ArchitectureTest) not in docs/ARCHITECTURE.md's Fences section")
        .isEmpty();
  }

  /** The checks can fail: the map with one row, or one name of a fence, taken out is caught, naming it. */
  @Test
  void aRowOrAFencedNameTakenOutOfTheMapIsNamed() throws IOException {
    String map = Files.readString(MAP);
    String withoutRow =
        map.lines().filter(line -> !line.startsWith("| | `\u2026perfcounters.win32` |")).collect(joining("\n"));
    String withoutFence = map.replace("`perfcounters.win32.jna`, ", "");

    assertThat(withoutRow).isNotEqualTo(map);
    assertThat(missingRows(mainPackages(ROOT), withoutRow))
        .containsExactly("collector-perfcounters io.winstats.perfcounters.win32");
    assertThat(withoutFence).isNotEqualTo(map);
    assertThat(missingFromFences(fencedNames(ROOT), withoutFence)).containsExactly("perfcounters.win32.jna");
  }

  @Test
  void aClassRegexOfAFenceIsReadAsTheNamesItAllows() {
    assertThat(expand("io\\.winstats\\.(summary\\.SummaryJson|exporter\\.http\\.(WebConfigReader|OperatorFiles)"
            + "|exporter\\.compare\\..*)" + NESTED_SUFFIX))
        .containsExactly(
            "io.winstats.summary.SummaryJson",
            "io.winstats.exporter.http.WebConfigReader",
            "io.winstats.exporter.http.OperatorFiles",
            "io.winstats.exporter.compare");
  }

  /**
   * Each module's main packages as "module package", sorted: those of its {@code src/main/java} and those its {@code
   * src/main/proto} files generate ({@code option java_package}).
   */
  static Set<String> mainPackages(Path root) throws IOException {
    Set<String> packages = new TreeSet<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.sorted().toList()) {
        Path sources = module.resolve("src").resolve("main").resolve("java");
        if (Files.isDirectory(sources)) {
          try (Stream<Path> files = Files.walk(sources)) {
            files
                .filter(f -> f.toString().endsWith(".java") && !f.getFileName().toString().equals("package-info.java"))
                .map(f -> sources.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), "."))
                .forEach(p -> packages.add(module.getFileName() + " " + p));
          }
        }
        Path protos = module.resolve("src").resolve("main").resolve("proto");
        if (Files.isDirectory(protos)) {
          try (Stream<Path> files = Files.walk(protos)) {
            for (Path proto : files.filter(f -> f.toString().endsWith(".proto")).toList()) {
              Matcher option = JAVA_PACKAGE.matcher(read(proto));
              while (option.find()) {
                packages.add(module.getFileName() + " " + option.group(1));
              }
            }
          }
        }
      }
    }
    return packages;
  }

  /** The entries of {@code packages} ("module package") that the module table of {@code map} has no row for. */
  static List<String> missingRows(Set<String> packages, String map) {
    Set<String> rows = new TreeSet<>();
    String module = "";
    for (String line : section(map, "## Modules and packages")) {
      if (!line.startsWith("|")) {
        continue;
      }
      String[] cells = line.split("\\|", -1);
      String cell = cells[1].trim();
      Matcher pkg = Pattern.compile("`([^`]+)`").matcher(cells[2]);
      if (cell.equals("module") || cell.startsWith("---") || !pkg.find()) {
        continue;
      }
      module = cell.isEmpty() ? module : cell;
      rows.add(module + " " + pkg.group(1).replace("\u2026", BASE));
    }
    return packages.stream().filter(p -> !rows.contains(p)).toList();
  }

  /**
   * The names the fences hold: from each rule of {@link Fences#ALL} its allowed packages and classes (below {@code
   * io.winstats.}, shortened) and its libraries; from each module's {@code ArchitectureTest} the main packages it names
   * below a module's root.
   */
  static Set<String> fencedNames(Path root) throws IOException {
    Set<String> names = new TreeSet<>();
    for (ArchRule rule : Fences.ALL) {
      String description = rule.getDescription();
      int because = description.indexOf(", because");
      Matcher quoted = QUOTED.matcher(because < 0 ? description : description.substring(0, because));
      while (quoted.find()) {
        String token = quoted.group(1);
        if (token.startsWith("io\\.winstats\\.")) {
          expand(token).forEach(name -> names.add(name.substring(BASE.length())));
        } else if (token.startsWith(BASE)) {
          if (token.matches("[a-z0-9.]+") && !token.endsWith("..")) {
            names.add(token.substring(BASE.length()));
          }
        } else if (token.matches("[a-z0-9.]+")) {
          names.add(token);
        }
      }
    }
    Set<String> mainPackages = new TreeSet<>();
    mainPackages(root).forEach(p -> mainPackages.add(p.substring(p.indexOf(' ') + 1)));
    for (Path test : architectureTests(root)) {
      Matcher literal = PACKAGE_LITERAL.matcher(read(test));
      while (literal.find()) {
        if (mainPackages.contains(literal.group(1))) {
          names.add(literal.group(1).substring(BASE.length()));
        }
      }
    }
    return names;
  }

  /** Each module's {@code src/test/java/**}{@code /ArchitectureTest.java}. */
  private static List<Path> architectureTests(Path root) throws IOException {
    List<Path> tests = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.sorted().toList()) {
        Path sources = module.resolve("src").resolve("test").resolve("java");
        if (Files.isDirectory(sources)) {
          try (Stream<Path> files = Files.walk(sources)) {
            files.filter(f -> f.getFileName().toString().equals("ArchitectureTest.java")).forEach(tests::add);
          }
        }
      }
    }
    return tests;
  }

  /** The names not written in backticks in the "Fences" section of {@code map}. */
  static List<String> missingFromFences(Set<String> names, String map) {
    String fences = String.join("\n", section(map, "### Fences"));
    return names.stream().filter(name -> !fences.contains("`" + name + "`")).toList();
  }

  /**
   * The class and package names a fence's class regex allows: its alternations spelled out, a package's {@code \..*}
   * as the package, the nested-class suffix dropped.
   */
  static List<String> expand(String regex) {
    String plain = regex.endsWith(NESTED_SUFFIX) ? regex.substring(0, regex.length() - NESTED_SUFFIX.length()) : regex;
    return alternatives(plain.replace("\\..*", "")).stream().map(name -> name.replace("\\.", ".")).toList();
  }

  private static List<String> alternatives(String regex) {
    int open = regex.indexOf('(');
    if (open < 0) {
      return List.of(regex);
    }
    List<Integer> ends = new ArrayList<>();
    int depth = 0;
    for (int i = open; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')' && --depth == 0) {
        ends.add(i);
        break;
      } else if (c == '|' && depth == 1) {
        ends.add(i);
      }
    }
    if (depth != 0) {
      throw new IllegalArgumentException("unbalanced group in " + regex);
    }
    String head = regex.substring(0, open);
    List<String> tails = alternatives(regex.substring(ends.get(ends.size() - 1) + 1));
    List<String> out = new ArrayList<>();
    int from = open + 1;
    for (int end : ends) {
      for (String alternative : alternatives(regex.substring(from, end))) {
        tails.forEach(tail -> out.add(head + alternative + tail));
      }
      from = end + 1;
    }
    return out;
  }

  /** The lines after {@code heading} (a whole heading line, or its start before a space) up to the next heading. */
  private static List<String> section(String map, String heading) {
    List<String> lines = new ArrayList<>();
    boolean in = false;
    for (String line : map.lines().toList()) {
      if (!in && (line.equals(heading) || line.startsWith(heading + " "))) {
        in = true;
      } else if (in && line.startsWith("#")) {
        break;
      } else if (in) {
        lines.add(line);
      }
    }
    if (!in) {
      throw new AssertionError("docs/ARCHITECTURE.md has no heading " + heading);
    }
    return lines;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
