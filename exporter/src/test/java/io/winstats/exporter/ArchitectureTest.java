package io.winstats.exporter;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.implement;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.micrometer.core.instrument.Metrics;
import io.prometheus.metrics.model.snapshots.Labels;
import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.testing.Fences;
import org.junit.jupiter.api.Test;

/**
 * The build's import fences (JNA, gRPC, Undertow, the exposition libraries, Jackson, leaf collectors, no package
 * cycles) over this module's classes.
 */
class ArchitectureTest {
  private static final JavaClasses MAIN = Fences.mainClassesOf("io.winstats.exporter", Daemon.class);

  @Test
  void mainClassesStayInsideTheFences() {
    Fences.checkAll(MAIN);
  }

  @Test
  void theDaemonKnowsNodeSourcesOnlyThroughTheirInterface() {
    noClasses()
        .that()
        .resideInAPackage("io.winstats.exporter..")
        .should()
        .dependOnClassesThat(implement(NodeCounterSource.class))
        .because("the source is picked by name in perfcounters.sources; the daemon asks the interface, not the class")
        .check(MAIN);
  }

  /** client_java or Micrometer outside exporter.metrics, object mapping outside a configuration reader: caught. */
  @Test
  void theExpositionAndJacksonFencesCatchACrossing() {
    JavaClasses crossing =
        new ClassFileImporter().importClasses(ClientJavaInTheRoot.class, MicrometerInTheRoot.class, MapperInTheRoot.class);

    assertThat(Fences.EXPOSITION.evaluate(crossing).getFailureReport().getDetails())
        .noneMatch(d -> d.contains("MapperInTheRoot"))
        .anyMatch(d -> d.contains("ClientJavaInTheRoot") && d.contains("io.prometheus.metrics.model.snapshots.Labels"))
        .anyMatch(d -> d.contains("MicrometerInTheRoot") && d.contains("io.micrometer.core.instrument.Metrics"));
    assertThat(Fences.JACKSON_DATABIND.evaluate(crossing).getFailureReport().getDetails())
        .isNotEmpty()
        .allMatch(d -> d.contains("MapperInTheRoot") && d.contains("ObjectMapper"));
    assertThat(Fences.JACKSON_STREAMING.evaluate(new ClassFileImporter().importClasses(ConfigFile.class)).hasViolation())
        .as("the configuration file's reader may stream")
        .isFalse();
  }

  /** The OpenTelemetry fence: the SDK in the daemon's root package is caught; the push's own package may use it. */
  @Test
  void theOpenTelemetryFenceCatchesACrossing() {
    assertThat(Fences.OPENTELEMETRY.evaluate(new ClassFileImporter().importClasses(OtelInTheRoot.class))
            .getFailureReport().getDetails())
        .anyMatch(d -> d.contains("OtelInTheRoot") && d.contains("io.opentelemetry.api.common.Attributes"));
    assertThat(MAIN.stream().filter(c -> c.getPackageName().equals("io.winstats.exporter.otlp"))).isNotEmpty();
  }

  /** Crosses the OpenTelemetry fence: the SDK's types outside exporter.otlp. */
  static final class OtelInTheRoot {
    Object attributes() {
      return io.opentelemetry.api.common.Attributes.empty();
    }
  }

  /** Crosses the exposition fence: client_java in the daemon's root package. */
  static final class ClientJavaInTheRoot {
    Labels labels() {
      return Labels.EMPTY;
    }
  }

  /** Crosses the exposition fence: Micrometer in the daemon's root package. */
  static final class MicrometerInTheRoot {
    Object registry() {
      return Metrics.globalRegistry;
    }
  }

  /** Crosses the data-binding fence: an object mapper that reads no configuration file. */
  static final class MapperInTheRoot {
    Object mapper() {
      return new ObjectMapper();
    }
  }
}
