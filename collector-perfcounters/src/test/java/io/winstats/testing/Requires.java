package io.winstats.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a test class or method needs from the host: executables on the {@code PATH} and any other {@link
 * Prerequisite}. When something is missing the test is <b>skipped</b> with the reason on a developer's machine, and
 * <b>fails</b> when {@code CI=true} (see {@link CiPolicy}), so that CI cannot pass by skipping.
 *
 * <pre>{@code
 * @Requires(tools = "promtool")
 * @Requires(tools = "prometheus", prerequisites = ContainerdAvailable.class)
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(RequiresExtension.class)
public @interface Requires {
  /** Executables that must be found on the {@code PATH}, e.g. {@code "promtool"} (Debian package prometheus). */
  String[] tools() default {};

  /** Other needs, each checked through its public no-argument constructor. */
  Class<? extends Prerequisite>[] prerequisites() default {};
}
