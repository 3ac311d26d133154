package io.winstats.perfcounters.win32;

import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Which services are read: a service name (not the display name) must match {@code include} and not match {@code
 * exclude}, each anchored to the whole name, as windows_exporter's {@code --collector.service.include} and {@code
 * --collector.service.exclude} are ({@code regexp.Compile("^(?:%s)$")}, service.go:110-124,256@v0.31.8). Java's
 * {@link Pattern} and Go's RE2 agree on the syntax a service pattern uses (alternation, classes, repetition); RE2
 * refuses back-references and look-around, which Java accepts. Immutable.
 */
public final class ServiceFilter {
  /** windows_exporter's defaults: every service ({@code .+}), none excluded. */
  public static final ServiceFilter ALL = new ServiceFilter(".+", "");

  private final String include;
  private final String exclude;
  private final Pattern includePattern;
  private final Pattern excludePattern;

  /**
   * The filter of these two patterns, as given (without anchors).
   *
   * @throws java.util.regex.PatternSyntaxException when either is not a regular expression
   */
  public ServiceFilter(String include, String exclude) {
    this.include = Objects.requireNonNull(include, "include");
    this.exclude = Objects.requireNonNull(exclude, "exclude");
    this.includePattern = anchored(include);
    this.excludePattern = anchored(exclude);
  }

  /** Whether a service of this name is read. */
  public boolean includes(String serviceName) {
    return includePattern.matcher(serviceName).matches() && !excludePattern.matcher(serviceName).matches();
  }

  /** The include pattern as given. */
  public String include() {
    return include;
  }

  /** The exclude pattern as given. */
  public String exclude() {
    return exclude;
  }

  private static Pattern anchored(String pattern) {
    return Pattern.compile("^(?:" + pattern + ")$");
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ServiceFilter f && f.include.equals(include) && f.exclude.equals(exclude);
  }

  @Override
  public int hashCode() {
    return Objects.hash(include, exclude);
  }

  @Override
  public String toString() {
    return "ServiceFilter[include=" + include + ", exclude=" + exclude + "]";
  }
}
