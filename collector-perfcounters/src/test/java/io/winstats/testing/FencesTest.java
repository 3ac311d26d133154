package io.winstats.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.FilesystemUsageBuilder;
import io.winstats.perfcounters.pdh.JnaBesideThePort;
import io.winstats.perfcounters.pdh.jna.JnaPdhLibrary;
import io.winstats.perfcounters.procfs.libc.LibcStatvfs;
import io.winstats.testing.fences.a.CycleStart;
import io.winstats.testing.fences.a.JnaOutsideItsPackages;
import io.winstats.testing.fences.b.CycleEnd;
import io.winstats.testing.fences.b.NoCrossing;
import io.winstats.testing.fences.records.ByNameFilesystem;
import io.winstats.testing.fences.records.PositionalFilesystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fences catch a class that crosses them, and pass one that does not. */
class FencesTest {

  @Test
  void jnaOutsideTheNativePackagesFailsTheBuild() {
    JavaClasses crossing = new ClassFileImporter().importClasses(JnaOutsideItsPackages.class);

    assertThat(Fences.JNA.evaluate(crossing).hasViolation()).isTrue();
    assertThatThrownBy(() -> Fences.checkAll(crossing))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("JnaOutsideItsPackages")
        .hasMessageContaining("com.sun.jna.Pointer");
  }

  /** The fence is the JNA sub-packages, not the sources above them: JNA in {@code pdh} itself fails. */
  @Test
  void jnaInThePdhSourceOutsideItsJnaSubPackageFailsTheBuild() {
    JavaClasses crossing = new ClassFileImporter().importClasses(JnaBesideThePort.class);
    JavaClasses allowed = new ClassFileImporter().importClasses(JnaPdhLibrary.class, LibcStatvfs.class);

    assertThat(Fences.JNA.evaluate(crossing).hasViolation()).isTrue();
    assertThat(Fences.JNA.evaluate(allowed).hasViolation()).isFalse();
    assertThat(allowed.get(JnaPdhLibrary.class).getDirectDependenciesFromSelf())
        .as("the allowed classes do use JNA, so the second check means something")
        .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("com.sun.jna"));
  }

  /** Every rule passes on no classes at all; the import refuses to be empty. */
  @Test
  void anImportOfNoClassFails() {
    assertThatThrownBy(() -> Fences.mainClassesOf("io.winstats.nosuchpackage"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("imported no main class under io.winstats.nosuchpackage");
  }

  /** A package with sources but no imported class (classes not compiled, or out of the import) is named. */
  @Test
  void aSourcePackageWithoutImportedClassesIsNamed(@TempDir Path sources) throws IOException {
    Path b = Files.createDirectories(sources.resolve(Path.of("io", "winstats", "testing", "fences", "b")));
    Path c = Files.createDirectories(sources.resolve(Path.of("io", "winstats", "testing", "fences", "c")));
    Files.writeString(b.resolve("NoCrossing.java"), "");
    Files.writeString(c.resolve("Elsewhere.java"), "");
    Files.writeString(c.resolve("package-info.java"), "");
    Path onlyInfo = Files.createDirectories(sources.resolve(Path.of("io", "winstats", "testing", "fences", "d")));
    Files.writeString(onlyInfo.resolve("package-info.java"), "");
    JavaClasses imported = new ClassFileImporter().importClasses(NoCrossing.class);

    assertThat(Fences.packagesWithoutClasses(imported, sources, "io.winstats.testing.fences"))
        .containsExactly("io.winstats.testing.fences.c");
  }

  @Test
  void aPackageCycleFailsTheBuild() {
    JavaClasses cycle = new ClassFileImporter().importClasses(CycleStart.class, CycleEnd.class);

    assertThat(Fences.NO_PACKAGE_CYCLES.evaluate(cycle).hasViolation()).isTrue();
    assertThatThrownBy(() -> Fences.checkAll(cycle)).hasMessageContaining("Cycle detected");
  }

  /** A positional call of a record's canonical constructor fails, naming the record and its builder. */
  @Test
  void aRecordWithAGeneratedBuilderBuiltPositionallyFailsTheBuild() {
    JavaClasses positional = new ClassFileImporter().importClasses(PositionalFilesystem.class);

    assertThat(Fences.RECORDS_BUILT_BY_NAME.evaluate(positional).hasViolation()).isTrue();
    assertThatThrownBy(() -> Fences.checkAll(positional))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("PositionalFilesystem.root()")
        .hasMessageContaining("builds io.winstats.perfcounters.FilesystemUsage positionally")
        .hasMessageContaining("io.winstats.perfcounters.FilesystemUsageBuilder");
  }

  /** The generated builder calls the canonical constructor, the one place allowed to; callers by name pass too. */
  @Test
  void theGeneratedBuilderAndTheCallersByNamePass() {
    JavaClasses byName =
        new ClassFileImporter()
            .importClasses(ByNameFilesystem.class, FilesystemUsage.class, FilesystemUsageBuilder.class);

    assertThat(Fences.RECORDS_BUILT_BY_NAME.evaluate(byName).hasViolation()).isFalse();
    assertThat(byName.get(FilesystemUsageBuilder.class).getConstructorCallsFromSelf())
        .as("the builder does call the canonical constructor, so the pass means something")
        .anyMatch(call -> call.getTargetOwner().isEquivalentTo(FilesystemUsage.class));
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
