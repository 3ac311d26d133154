package io.winstats.perfcounters;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import io.winstats.testing.Fences;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The build's import fences (JNA, gRPC, Undertow, leaf collectors, no package cycles) over this module's classes,
 * imported from every package of its sources ({@link Fences#mainClassesOf} refuses an empty or partial import).
 */
class ArchitectureTest {
  private final JavaClasses main = Fences.mainClassesOf("io.winstats.perfcounters", NodeSample.class);

  @Test
  void mainClassesStayInsideTheFences() {
    Fences.checkAll(main);
  }

  /** The JNA fence judges real users: exactly the three native sub-packages touch JNA. */
  @Test
  void jnaIsUsedInThePdhPortsImplementationAndTheLibcCallOnly() {
    Set<String> packagesUsingJna = new TreeSet<>();
    for (JavaClass c : main) {
      if (c.getDirectDependenciesFromSelf().stream()
          .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("com.sun.jna"))) {
        packagesUsingJna.add(c.getPackageName());
      }
    }

    assertThat(packagesUsingJna)
        .containsExactly(
            "io.winstats.perfcounters.pdh.jna",
            "io.winstats.perfcounters.procfs.libc",
            "io.winstats.perfcounters.win32.jna");
  }
}
