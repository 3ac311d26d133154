package io.winstats.exporter;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.implement;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.testing.Fences;
import org.junit.jupiter.api.Test;

/** The build's import fences (JNA, gRPC, Undertow, leaf collectors, no package cycles) over this module's classes. */
class ArchitectureTest {

  @Test
  void mainClassesStayInsideTheFences() {
    Fences.checkAll(Fences.mainClassesOf("io.winstats.exporter"));
  }

  @Test
  void theDaemonKnowsNodeSourcesOnlyThroughTheirInterface() {
    noClasses()
        .that()
        .resideInAPackage("io.winstats.exporter..")
        .should()
        .dependOnClassesThat(implement(NodeCounterSource.class))
        .because("the source is picked by name in perfcounters.sources; the daemon asks the interface, not the class")
        .check(Fences.mainClassesOf("io.winstats.exporter"));
  }
}
