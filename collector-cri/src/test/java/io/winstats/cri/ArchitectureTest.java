package io.winstats.cri;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import io.winstats.cri.rounds.CriStatsReaders;
import io.winstats.testing.Fences;
import org.junit.jupiter.api.Test;

/** The build's import fences (JNA, gRPC, Undertow, leaf collectors, no package cycles) over this module's classes. */
class ArchitectureTest {

  @Test
  void mainClassesStayInsideTheFences() {
    Fences.checkAll(Fences.mainClassesOf("io.winstats.cri"));
  }

  /** The API is this package; the rounds behind a reader are package-private but for what opens one. */
  @Test
  void theRoundsShowOnlyWhatOpensAReader() {
    classes()
        .that()
        .resideInAPackage("io.winstats.cri.rounds")
        .and()
        .areTopLevelClasses()
        .and()
        .arePublic()
        .should()
        .haveFullyQualifiedName(CriStatsReaders.class.getName())
        .because("callers see a CriStatsReader and its records, never a round, a view, the mapper or a cache")
        .check(Fences.mainClassesOf("io.winstats.cri"));
  }
}
