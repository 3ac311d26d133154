package io.winstats.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A text golden: what a test made against the committed file, the differing lines first (so that a failure names
 * them), then the whole text, order included. {@code -Dgolden.update=true} rewrites the file for review, as every
 * golden of the project is regenerated.
 */
public final class GoldenText {
  private GoldenText() {}

  /** Fails unless {@code made} is the text of {@code golden}; writes {@code golden} first under the update flag. */
  public static void assertMatches(Path golden, String made) throws IOException {
    if (Boolean.getBoolean("golden.update")) {
      Files.createDirectories(golden.toAbsolutePath().getParent());
      Files.writeString(golden, made);
    }
    assertThat(golden).as("no golden %s: -Dgolden.update=true writes it", golden).exists();
    String expected = Files.readString(golden);
    assertThat(lines(expected, made))
        .as("lines of %s that differ (-golden +made); -Dgolden.update=true rewrites it", golden)
        .isEmpty();
    assertThat(made).as("%s in the golden's order", golden).isEqualTo(expected);
  }

  /**
   * The lines only in {@code golden} ({@code -}) and only in {@code made} ({@code +}), each in its own order; empty
   * when both hold the same lines (they may still differ in order, which {@link #assertMatches} then shows).
   */
  public static List<String> lines(String golden, String made) {
    Set<String> theirs = new LinkedHashSet<>(golden.lines().toList());
    Set<String> ours = new LinkedHashSet<>(made.lines().toList());
    List<String> diff = new ArrayList<>();
    theirs.stream().filter(l -> !ours.contains(l)).forEach(l -> diff.add("- " + l));
    ours.stream().filter(l -> !theirs.contains(l)).forEach(l -> diff.add("+ " + l));
    return diff;
  }
}
