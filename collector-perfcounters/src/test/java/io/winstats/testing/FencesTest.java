package io.winstats.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.winstats.testing.fences.a.CycleStart;
import io.winstats.testing.fences.a.JnaOutsideItsPackages;
import io.winstats.testing.fences.b.CycleEnd;
import io.winstats.testing.fences.b.NoCrossing;
import org.junit.jupiter.api.Test;

/** The fences catch a class that crosses them, and pass one that does not. */
class FencesTest {

  @Test
  void jnaOutsideThePdhStatvfsAndPipePackagesFailsTheBuild() {
    JavaClasses crossing = new ClassFileImporter().importClasses(JnaOutsideItsPackages.class);

    assertThat(Fences.JNA.evaluate(crossing).hasViolation()).isTrue();
    assertThatThrownBy(() -> Fences.checkAll(crossing))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("JnaOutsideItsPackages")
        .hasMessageContaining("com.sun.jna.Pointer");
  }

  @Test
  void aPackageCycleFailsTheBuild() {
    JavaClasses cycle = new ClassFileImporter().importClasses(CycleStart.class, CycleEnd.class);

    assertThat(Fences.NO_PACKAGE_CYCLES.evaluate(cycle).hasViolation()).isTrue();
    assertThatThrownBy(() -> Fences.checkAll(cycle)).hasMessageContaining("Cycle detected");
  }

  @Test
  void aClassThatCrossesNoFencePasses() {
    JavaClasses clean = new ClassFileImporter().importClasses(NoCrossing.class);

    Fences.checkAll(clean);
  }

  @Test
  void aModulesOwnMainClassesAreImportedWithoutItsTests() {
    JavaClasses main = Fences.mainClassesOf("io.winstats.perfcounters");

    assertThat(main.contain("io.winstats.perfcounters.NodeSample")).isTrue();
    assertThat(main.stream().map(c -> c.getSimpleName())).noneMatch(name -> name.endsWith("Test"));
  }
}
