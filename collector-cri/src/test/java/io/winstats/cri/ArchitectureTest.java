package io.winstats.cri;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.winstats.cri.rounds.CriStatsReaders;
import io.winstats.testing.Fences;
import org.junit.jupiter.api.Test;

/** The build's import fences (JNA, gRPC, Undertow, the exposition libraries, Jackson, leaf collectors, no cycles) over this module's classes. */
class ArchitectureTest {

  private static final JavaClasses MAIN = Fences.mainClassesOf("io.winstats.cri", CriStatsReader.class);

  @Test
  void mainClassesStayInsideTheFences() {
    Fences.checkAll(MAIN);
  }

  /** An import that finds nothing fails instead of passing every rule on no classes. */
  @Test
  void anImportWithoutItsKnownClassFails() {
    assertThatThrownBy(() -> Fences.mainClassesOf("io.winstats.cri.moved", CriStatsReader.class))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("holds 0 classes and not io.winstats.cri.CriStatsReader");
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
        .check(MAIN);
  }
}
