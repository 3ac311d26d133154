package io.winstats.testing;

import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One rule for every test that needs something of the host: skip when it is missing, unless this is CI, where a
 * skip would let a green build hide untested code. CI is the environment variable {@code CI=true} (what GitHub
 * Actions, GitLab CI and {@code .ci/run} set), or the JUnit configuration parameter {@value #PARAMETER}, which wins
 * when present (so that the policy itself can be tested, and a developer can run as CI with {@code -Dwinstats.ci=true}).
 */
public final class CiPolicy {
  /** The JUnit configuration parameter (or system property) that overrides the {@code CI} environment variable. */
  public static final String PARAMETER = "winstats.ci";

  private CiPolicy() {}

  public static boolean isCi(ExtensionContext context) {
    return context
        .getConfigurationParameter(PARAMETER)
        .map(Boolean::parseBoolean)
        .orElseGet(() -> "true".equalsIgnoreCase(System.getenv("CI")));
  }

  /** Disabled (reported as skipped, with the reason) when unmet outside CI; enabled otherwise, to fail in CI. */
  public static ConditionEvaluationResult condition(ExtensionContext context, Optional<String> unmet) {
    if (unmet.isEmpty()) {
      return ConditionEvaluationResult.enabled("prerequisites met");
    }
    if (isCi(context)) {
      return ConditionEvaluationResult.enabled(unmet.get() + ": CI, so the test runs and fails");
    }
    return ConditionEvaluationResult.disabled(unmet.get() + " (with CI=true this is a failure)");
  }

  /** Fails under CI, aborts (skips) the running test or class otherwise; never returns normally. */
  public static void skipOrFail(ExtensionContext context, String unmet, @Nullable Throwable cause) {
    if (isCi(context)) {
      throw new IllegalStateException(unmet + " (CI=true, so this fails instead of skipping)", cause);
    }
    System.err.println("SKIPPED " + unmet);
    Assumptions.abort(unmet + " (with CI=true this is a failure)");
  }
}
