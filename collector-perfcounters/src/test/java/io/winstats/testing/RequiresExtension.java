package io.winstats.testing;

import java.io.File;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Evaluates {@link Requires}: outside CI a missing need disables the class or method (skipped, with the reason); in
 * CI the test is enabled and fails before it starts, in {@code beforeAll} for a class and {@code beforeEach} for a
 * method, with the same reason.
 */
public final class RequiresExtension implements ExecutionCondition, BeforeAllCallback, BeforeEachCallback {

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    return CiPolicy.condition(context, context.getElement().flatMap(RequiresExtension::unmet));
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    unmet(context.getRequiredTestClass()).ifPresent(reason -> CiPolicy.skipOrFail(context, reason, null));
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    unmet(context.getRequiredTestMethod()).ifPresent(reason -> CiPolicy.skipOrFail(context, reason, null));
  }

  /** What the element's own {@link Requires} lacks, or empty (also when it has none). */
  static Optional<String> unmet(AnnotatedElement element) {
    Optional<Requires> requires = AnnotationSupport.findAnnotation(element, Requires.class);
    if (requires.isEmpty()) {
      return Optional.empty();
    }
    List<String> reasons = new ArrayList<>();
    for (String tool : requires.get().tools()) {
      if (onPath(tool).isEmpty()) {
        reasons.add(tool + " is not on the PATH (dev/debian-packages.txt lists the Debian packages the tests use)");
      }
    }
    for (Class<? extends Prerequisite> type : requires.get().prerequisites()) {
      instantiate(type).unmetReason().ifPresent(reasons::add);
    }
    return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", reasons));
  }

  /** The first executable file named {@code tool} in a {@code PATH} directory. */
  public static Optional<Path> onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, tool);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static Prerequisite instantiate(Class<? extends Prerequisite> type) {
    try {
      return type.getConstructor().newInstance();
    } catch (NoSuchMethodException | InstantiationException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException(type.getName() + " needs a public no-argument constructor", e);
    }
  }
}
