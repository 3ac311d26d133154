package io.winstats.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;

/**
 * The import fences of every module, checked by each module's {@code ArchitectureTest} against its own main classes
 * (the way OSHI keeps JNA behind its platform packages). One list, so that a module cannot forget a rule.
 */
public final class Fences {
  /** JNA is the native layer: PDH, statvfs and the named pipe, nowhere else. */
  public static final ArchRule JNA =
      onlyIn(
          "JNA is the native layer, kept behind the PDH, statvfs and named-pipe ports",
          new String[] {"com.sun.jna.."},
          "io.winstats.perfcounters.pdh",
          "io.winstats.perfcounters.procfs",
          "io.winstats.cri.npipe");

  /**
   * gRPC and protobuf stay inside the CRI reader's rounds; the rest, the collector's own API included, sees its
   * records. The transport's byte streams ({@code cri.transport}, {@code cri.npipe}) know sockets and pipes, not gRPC.
   */
  public static final ArchRule GRPC =
      onlyIn(
          "the CRI reader maps gRPC messages to records, so that nothing above it sees a protobuf type",
          new String[] {"io.grpc..", "com.google.protobuf.."},
          "io.winstats.cri.rounds",
          "io.winstats.cri.api");

  /** Undertow and XNIO are the HTTP server, behind {@code exporter.http}. */
  public static final ArchRule UNDERTOW =
      onlyIn(
          "the HTTP server is one package; sampling and rendering do not know it",
          new String[] {"io.undertow..", "org.xnio.."},
          "io.winstats.exporter.http");

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

  /** Every package is its own slice; dependencies between them point one way. */
  public static final ArchRule NO_PACKAGE_CYCLES =
      slices().matching("io.winstats.(**)").should().beFreeOfCycles().allowEmptyShould(true);

  public static final List<ArchRule> ALL =
      List.of(JNA, GRPC, UNDERTOW, PERFCOUNTERS_IS_A_LEAF, CRI_IS_A_LEAF, SUMMARY_BELOW_EXPORTER, NO_PACKAGE_CYCLES);

  private Fences() {}

  /**
   * The main classes under {@code rootPackage} on this test's class path: not test classes, and not jars, so a
   * module's own {@code target/classes} and never another module's test jar.
   */
  public static JavaClasses mainClassesOf(String rootPackage) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(rootPackage);
  }

  /** Checks every fence; fails with every violation listed. */
  public static void checkAll(JavaClasses classes) {
    ALL.forEach(rule -> rule.check(classes));
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
