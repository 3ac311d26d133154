package io.winstats.testing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Seeded random inputs for the parsers of outside input (issue 44), in plain JUnit: a property is a generator of inputs
 * and a check that each one passes. A run is reproducible from its seed; a failure names the property, the try, the
 * seed and the input. CI runs {@value #DEFAULT_TRIES} tries per property (seconds); a campaign raises them with
 * {@code -Dfuzz.tries=N} and picks new inputs with {@code -Dfuzz.seed=S}. Every run prints one {@code fuzz:} line per
 * property with the inputs tried, which is what docs/RELIABILITY.md's table counts.
 */
public final class Fuzz {
  public static final int DEFAULT_TRIES = 300;
  private static final int SHOWN_INPUT_CHARS = 600;

  private Fuzz() {}

  /** What each input must satisfy; any exception or error it throws fails the property. */
  @FunctionalInterface
  public interface Check<T> {
    void accept(T input) throws Exception;
  }

  public static int tries() {
    return Integer.getInteger("fuzz.tries", DEFAULT_TRIES);
  }

  /** Runs {@link #tries()} inputs of {@code generator} through {@code check}. */
  public static <T> void forAll(String property, Function<SplittableRandom, T> generator, Check<T> check) {
    forAll(property, 1, generator, check);
  }

  /**
   * Runs a {@code 1/costlier}th of {@link #tries()} inputs: for a check that costs milliseconds (a TLS context, a
   * command line), so that CI's run stays at seconds and a campaign still scales.
   */
  public static <T> void forAll(
      String property, int costlier, Function<SplittableRandom, T> generator, Check<T> check) {
    long seed = Long.getLong("fuzz.seed", 44L) ^ property.hashCode();
    SplittableRandom random = new SplittableRandom(seed);
    int tries = Math.max(1, tries() / costlier);
    for (int i = 0; i < tries; i++) {
      T input = generator.apply(random);
      try {
        check.accept(input);
      } catch (Exception | AssertionError | StackOverflowError e) {
        throw new AssertionError(
            String.format(Locale.ROOT, "property '%s' failed at try %d of %d (-Dfuzz.seed=%d) on input %s", property,
                i + 1, tries, Long.getLong("fuzz.seed", 44L), show(input)),
            e);
      }
    }
    System.out.printf(Locale.ROOT, "fuzz: %s: %d inputs, 0 failures%n", property, tries);
  }

  /** Any bytes, up to {@code max} of them. */
  public static byte[] bytes(SplittableRandom random, int max) {
    byte[] bytes = new byte[random.nextInt(max + 1)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) random.nextInt(256);
    }
    return bytes;
  }

  /** Any text of up to {@code max} chars: ASCII, control characters, other planes and lone surrogates. */
  public static String text(SplittableRandom random, int max) {
    int length = random.nextInt(max + 1);
    StringBuilder s = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      s.append(
          switch (random.nextInt(4)) {
            case 0, 1 -> (char) (32 + random.nextInt(95));
            case 2 -> (char) random.nextInt(32);
            default -> (char) random.nextInt(Character.MAX_VALUE + 1);
          });
    }
    return s.toString();
  }

  public static <T> T oneOf(SplittableRandom random, List<T> choices) {
    return choices.get(random.nextInt(choices.size()));
  }

  /** Words of the input's own vocabulary joined by separators, in up to {@code maxLines} lines. */
  public static String lines(
      SplittableRandom random, List<String> words, List<String> separators, int maxWords, int maxLines) {
    StringBuilder s = new StringBuilder();
    int lines = random.nextInt(maxLines + 1);
    for (int l = 0; l < lines; l++) {
      int count = random.nextInt(maxWords + 1);
      for (int w = 0; w < count; w++) {
        if (w > 0) {
          s.append(oneOf(random, separators));
        }
        s.append(word(random, words));
      }
      s.append(random.nextInt(8) == 0 ? "\r\n" : "\n");
    }
    return s.toString();
  }

  /** A word of the vocabulary, a number at or past the edges of a long, or a short random text. */
  public static String word(SplittableRandom random, List<String> words) {
    return switch (random.nextInt(6)) {
      case 0 -> Long.toString(random.nextLong());
      case 1 -> oneOf(random, EDGE_NUMBERS);
      case 2 -> text(random, 6);
      default -> oneOf(random, words);
    };
  }

  /**
   * A valid input bent a few times: a range deleted, duplicated or cut short, a character replaced, a token of the
   * format inserted. Most bugs live next to valid input, which random bytes rarely reach.
   */
  public static String mutate(SplittableRandom random, String valid, List<String> tokens) {
    StringBuilder s = new StringBuilder(valid);
    int mutations = 1 + random.nextInt(4);
    for (int m = 0; m < mutations; m++) {
      int at = s.length() == 0 ? 0 : random.nextInt(s.length() + 1);
      int end = Math.min(s.length(), at + random.nextInt(12));
      switch (random.nextInt(6)) {
        case 0 -> s.delete(at, end);
        case 1 -> s.insert(at, s.substring(at, end));
        case 2 -> s.setLength(at);
        case 3 -> s.insert(at, oneOf(random, tokens));
        case 4 -> s.insert(at, oneOf(random, EDGE_NUMBERS));
        default -> {
          if (at < s.length()) {
            s.setCharAt(at, (char) random.nextInt(128));
          }
        }
      }
    }
    return s.toString();
  }

  /** Numbers parsers get wrong: the edges of int, long and unsigned long, and what is not quite a number. */
  public static final List<String> EDGE_NUMBERS =
      List.of(
          "0", "-0", "-1", "2147483647", "2147483648", "-2147483649", "4294967295", "4294967296",
          "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551615",
          "18446744073709551616", "99999999999999999999999", "1e308", "1e400", "NaN", "Infinity", "-Infinity", "0x10",
          "1.5", ".", "-", "+1", "1_000", "１２");

  /** The input as ASCII (other chars as \\uXXXX: a lone surrogate would cut the test report short). */
  private static String show(Object input) {
    String text =
        input instanceof byte[] bytes
            ? new String(bytes, StandardCharsets.ISO_8859_1)
            : String.valueOf(input);
    StringBuilder shown = new StringBuilder("<");
    for (int i = 0; i < Math.min(text.length(), SHOWN_INPUT_CHARS); i++) {
      char c = text.charAt(i);
      shown.append(c >= 32 && c < 127 ? Character.toString(c) : String.format(Locale.ROOT, "\\u%04x", (int) c));
    }
    return shown.append(text.length() > SHOWN_INPUT_CHARS ? "...>" : ">").toString();
  }
}
