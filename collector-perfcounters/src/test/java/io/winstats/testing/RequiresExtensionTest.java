package io.winstats.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.skippedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * {@link Requires} skips on a developer's machine and fails under CI. The sample classes below are nested, so
 * surefire does not run them itself (its default excludes {@code **}{@code /*$*}); the JUnit engine runs them here
 * with the CI switch set either way.
 */
class RequiresExtensionTest {
  private static final String ABSENT_TOOL = "winstats-no-such-tool-4f1c";

  /** A need that is never met. */
  public static final class NeverMet implements Prerequisite {
    @Override
    public Optional<String> unmetReason() {
      return Optional.of("the host is not a unicorn");
    }
  }

  /** A need that is always met. */
  public static final class AlwaysMet implements Prerequisite {
    @Override
    public Optional<String> unmetReason() {
      return Optional.empty();
    }
  }

  static class MethodNeedsAbsentTool {
    @Test
    @Requires(tools = ABSENT_TOOL)
    void needsTool() {}

    @Test
    void needsNothing() {}
  }

  @Requires(prerequisites = NeverMet.class)
  static class ClassNeedsUnmetPrerequisite {
    @Test
    void first() {}

    @Test
    void second() {}
  }

  @Requires(prerequisites = AlwaysMet.class)
  static class ClassNeedsMetPrerequisite {
    @Test
    void runs() {}
  }

  @Test
  void outsideCiAnAbsentToolSkipsOnlyTheMethodThatNeedsIt() {
    Events tests = run(MethodNeedsAbsentTool.class, false);

    tests.assertStatistics(s -> s.started(1).succeeded(1).skipped(1).failed(0));
    tests.assertThatEvents()
        .haveExactly(1, event(test("needsTool"), skippedWithReason(r -> r.startsWith(ABSENT_TOOL + " is not on the PATH")
            && r.endsWith("(with CI=true this is a failure)"))));
  }

  @Test
  void underCiAnAbsentToolFailsTheMethodThatNeedsIt() {
    Events tests = run(MethodNeedsAbsentTool.class, true);

    tests.assertStatistics(s -> s.started(2).succeeded(1).skipped(0).failed(1));
    tests.assertThatEvents()
        .haveExactly(1, event(test("needsTool"), finishedWithFailure(
            instanceOf(IllegalStateException.class),
            message(m -> m.contains(ABSENT_TOOL + " is not on the PATH") && m.contains("CI=true, so this fails")))));
  }

  @Test
  void outsideCiAnUnmetPrerequisiteOnTheClassSkipsTheClass() {
    Events containers = EngineTestKit.engine("junit-jupiter")
        .configurationParameter(CiPolicy.PARAMETER, "false")
        .selectors(selectClass(ClassNeedsUnmetPrerequisite.class))
        .execute()
        .containerEvents();

    containers.assertThatEvents()
        .haveExactly(1, event(skippedWithReason(r -> r.startsWith("the host is not a unicorn"))));
    assertThat(run(ClassNeedsUnmetPrerequisite.class, false).started().count()).isZero();
  }

  @Test
  void underCiAnUnmetPrerequisiteOnTheClassFailsTheClass() {
    Events containers = EngineTestKit.engine("junit-jupiter")
        .configurationParameter(CiPolicy.PARAMETER, "true")
        .selectors(selectClass(ClassNeedsUnmetPrerequisite.class))
        .execute()
        .containerEvents();

    containers.assertThatEvents()
        .haveExactly(1, event(finishedWithFailure(message(m -> m.startsWith("the host is not a unicorn")
            && m.contains("CI=true, so this fails")))));
  }

  @Test
  void aMetNeedRunsEitherWay() {
    run(ClassNeedsMetPrerequisite.class, false).assertStatistics(s -> s.succeeded(1).skipped(0).failed(0));
    run(ClassNeedsMetPrerequisite.class, true).assertStatistics(s -> s.succeeded(1).skipped(0).failed(0));
  }

  private static Events run(Class<?> type, boolean ci) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameter(CiPolicy.PARAMETER, Boolean.toString(ci))
        .selectors(selectClass(type))
        .execute()
        .testEvents();
  }
}
