package io.winstats.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The import fences of every module, checked by each module's {@code ArchitectureTest} against its own main classes
 * (the way OSHI keeps JNA behind its platform packages). One list, so that a module cannot forget a rule.
 */
public final class Fences {
  /**
   * JNA is the native layer: the PDH and Service Control Manager ports' implementations, the libc statvfs call, the
   * named pipe and HNS's {@code HNSCall}, each a package of its own, nowhere else (not the PDH source, the procfs
   * source, the service reader or the HNS reply parser).
   */
  public static final ArchRule JNA =
      onlyIn(
          "JNA is the native layer, kept behind the PDH, Service Control Manager, statvfs, named-pipe and HNS ports",
          new String[] {"com.sun.jna.."},
          "io.winstats.perfcounters.pdh.jna",
          "io.winstats.perfcounters.win32.jna",
          "io.winstats.perfcounters.procfs.libc",
          "io.winstats.cri.npipe",
          "io.winstats.cri.hns.jna");

  /**
   * gRPC and protobuf stay inside the CRI reader's rounds and the generated messages: runtime.v1 ({@code cri.api}) and
   * containerd's Tasks.Metrics with the runhcs statistics ({@code cri.api.containerd}); the rest, the collector's own
   * API included, sees its records. The transport's byte streams ({@code cri.transport}, {@code cri.npipe}) know
   * sockets and pipes, not gRPC. Also the OTLP push ({@code exporter.otlp}), whose gRPC sender carries the SDK's
   * bytes over the same grpc-java transport.
   */
  public static final ArchRule GRPC =
      onlyIn(
          "the CRI reader maps gRPC messages to records, so that nothing above it sees a protobuf type",
          new String[] {"io.grpc..", "com.google.protobuf.."},
          "io.winstats.cri.rounds",
          "io.winstats.cri.api",
          "io.winstats.cri.api.containerd",
          "io.winstats.exporter.otlp");

  /**
   * The OpenTelemetry SDK is the OTLP push's, loaded only when the push is on: the rest of the daemon hands it the
   * scrape's families as its own types ({@code metrics.ServedFamilies}) and finds it as a service.
   */
  public static final ArchRule OPENTELEMETRY =
      onlyIn(
          "the OTLP push is one opt-in package; nothing else may load an OpenTelemetry class",
          new String[] {"io.opentelemetry.."},
          "io.winstats.exporter.otlp");

  /** Undertow and XNIO are the HTTP server, behind {@code exporter.http}. */
  public static final ArchRule UNDERTOW =
      onlyIn(
          "the HTTP server is one package; sampling and rendering do not know it",
          new String[] {"io.undertow..", "org.xnio.."},
          "io.winstats.exporter.http");

  /**
   * The exposition libraries are the metrics package's: client_java builds and writes the families, Micrometer keeps
   * the self and JVM series; the HTTP server and the daemon's wiring see only the package's own types.
   */
  public static final ArchRule EXPOSITION =
      onlyIn(
          "families are declared, built and rendered in exporter.metrics only",
          new String[] {"io.prometheus..", "io.micrometer.."},
          "io.winstats.exporter.metrics");

  /**
   * Jackson's streaming API only where JSON is written or read: the Summary, the JSON log lines, the runtime's verbose
   * sandbox status, HNS's replies, and the configuration readers.
   */
  public static final ArchRule JACKSON_STREAMING =
      onlyInClasses(
          "JSON is streamed where it is written or read, never mapped to objects outside the configuration readers",
          new String[] {"com.fasterxml.jackson.core.."},
          "io\\.winstats\\.(summary\\.SummaryJson|exporter\\.logging\\.LogLines|cri\\.rounds\\.HostProcessLookup"
              + "|cri\\.hns\\.HnsReplies|exporter\\.ConfigFile|exporter\\.http\\.(WebConfigReader|OperatorFiles)"
              + "|exporter\\.history\\.HistoryJson|exporter\\.compare\\..*|exporter\\.parts\\.PartsReport)");

  /**
   * Data binding and YAML only where a configuration file is read (the daemon's own and the web configuration, both
   * through OperatorFiles) and in {@code compare}, a client that reads other programs' Summaries as trees.
   */
  public static final ArchRule JACKSON_DATABIND =
      onlyInClasses(
          "object mapping is for reading configuration files and compare's documents, not for anything served",
          new String[] {"com.fasterxml.jackson.databind..", "com.fasterxml.jackson.dataformat.."},
          "io\\.winstats\\.exporter\\.(ConfigFile|http\\.WebConfigReader|http\\.OperatorFiles|compare\\..*)");

  /** The collectors are leaves: neither knows the other, the Summary or the exporter. */
  public static final ArchRule PERFCOUNTERS_IS_A_LEAF =
      noClasses()
          .that()
          .resideInAPackage("io.winstats.perfcounters..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.winstats.cri..", "io.winstats.summary..", "io.winstats.exporter..")
          .because("the node counter collector is a leaf")
          .allowEmptyShould(true);

  public static final ArchRule CRI_IS_A_LEAF =
      noClasses()
          .that()
          .resideInAPackage("io.winstats.cri..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.winstats.perfcounters..", "io.winstats.summary..", "io.winstats.exporter..")
          .because("the CRI collector is a leaf")
          .allowEmptyShould(true);

  public static final ArchRule SUMMARY_BELOW_EXPORTER =
      noClasses()
          .that()
          .resideInAPackage("io.winstats.summary..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.winstats.exporter..")
          .because("the Summary is assembled without HTTP or the daemon")
          .allowEmptyShould(true);

  /**
   * A record with a generated builder ({@code @RecordBuilder}) is built by name: its canonical constructor is called
   * from that builder only, so positional construction does not creep back (issue 46).
   */
  public static final ArchRule RECORDS_BUILT_BY_NAME =
      classes()
          .that()
          .resideInAPackage("io.winstats..")
          .should(new BuiltByName())
          .because("a record with a generated builder is built by name, never positionally")
          .allowEmptyShould(true);

  /** Every package is its own slice; dependencies between them point one way. */
  public static final ArchRule NO_PACKAGE_CYCLES =
      slices().matching("io.winstats.(**)").should().beFreeOfCycles().allowEmptyShould(true);

  public static final List<ArchRule> ALL =
      List.of(
          JNA,
          GRPC,
          OPENTELEMETRY,
          UNDERTOW,
          EXPOSITION,
          JACKSON_STREAMING,
          JACKSON_DATABIND,
          PERFCOUNTERS_IS_A_LEAF,
          CRI_IS_A_LEAF,
          SUMMARY_BELOW_EXPORTER,
          RECORDS_BUILT_BY_NAME,
          NO_PACKAGE_CYCLES);

  /** Where a module's main sources are, relative to its test's working directory (the module). */
  private static final Path MAIN_SOURCES = Path.of("src", "main", "java");

  private Fences() {}

  /**
   * The main classes under {@code rootPackage} on this test's class path: not test classes, and not jars, so a
   * module's own {@code target/classes} and never another module's test jar. Every rule passes on an empty import,
   * so the import must hold a class of every package the module's {@code src/main/java} (the test's working
   * directory) declares under {@code rootPackage}.
   *
   * @throws AssertionError when it imported no class, or none of some source package
   */
  public static JavaClasses mainClassesOf(String rootPackage) {
    JavaClasses classes = importMain(rootPackage);
    if (classes.isEmpty()) {
      throw new AssertionError(
          "imported no main class under " + rootPackage + ": every fence would pass on an empty import");
    }
    return requireEveryPackage(classes, rootPackage);
  }

  private static JavaClasses importMain(String rootPackage) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(rootPackage);
  }

  private static JavaClasses requireEveryPackage(JavaClasses classes, String rootPackage) {
    Set<String> missing = packagesWithoutClasses(classes, MAIN_SOURCES, rootPackage);
    if (!missing.isEmpty()) {
      throw new AssertionError("imported no main class of " + missing + ", which " + MAIN_SOURCES + " declares");
    }
    return classes;
  }

  /**
   * The packages under {@code rootPackage} that hold a Java source file (other than {@code package-info.java}) in
   * {@code sourceRoot} and of which {@code classes} has no class, sorted.
   */
  static Set<String> packagesWithoutClasses(JavaClasses classes, Path sourceRoot, String rootPackage) {
    String separator = sourceRoot.getFileSystem().getSeparator();
    Path root = sourceRoot.resolve(rootPackage.replace(".", separator));
    Set<String> declared = new TreeSet<>();
    if (Files.isDirectory(root)) {
      try (Stream<Path> files = Files.walk(root)) {
        files
            .filter(f -> f.toString().endsWith(".java") && !f.getFileName().toString().equals("package-info.java"))
            .forEach(f -> declared.add(sourceRoot.relativize(f.getParent()).toString().replace(separator, ".")));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    classes.forEach(c -> declared.remove(c.getPackageName()));
    return declared;
  }

  /** Checks every fence; fails with every violation listed. */
  public static void checkAll(JavaClasses classes) {
    ALL.forEach(rule -> rule.check(classes));
  }

  /**
   * The main classes under {@code rootPackage}, which must hold {@code known}: an import that found nothing (a moved
   * package, a wrong root) would let every rule pass on no classes. Like {@link #mainClassesOf(String)}, it must also
   * hold a class of every source package.
   */
  public static JavaClasses mainClassesOf(String rootPackage, Class<?> known) {
    JavaClasses classes = importMain(rootPackage);
    if (!classes.contain(known)) {
      throw new AssertionError(
          "the import of " + rootPackage + " holds " + classes.size() + " classes and not " + known.getName());
    }
    return requireEveryPackage(classes, rootPackage);
  }

  /** As {@link #onlyIn}, for classes named by {@code allowedClasses} (a regular expression; nested classes too). */
  private static ArchRule onlyInClasses(String why, String[] libraries, String allowedClasses) {
    return noClasses()
        .that()
        .resideInAPackage("io.winstats..")
        .and()
        .haveNameNotMatching(allowedClasses + "(\\$.*)?")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(libraries)
        .because(why)
        .allowEmptyShould(true);
  }

  private static ArchRule onlyIn(String why, String[] libraries, String... allowedPackages) {
    return noClasses()
        .that()
        .resideInAPackage("io.winstats..")
        .and()
        .resideOutsideOfPackages(allowedPackages)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(libraries)
        .because(why)
        .allowEmptyShould(true);
  }
}
