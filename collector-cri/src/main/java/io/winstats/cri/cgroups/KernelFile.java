package io.winstats.cri.cgroups;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A small kernel file ({@code memory.stat}, {@code cpu.stat}, {@code cgroup.procs}, ...) read into its thread's
 * reused buffer and parsed where it lies: a round reads a few thousand of them, and turning each into a
 * {@code String}, its lines, their substrings and a map of boxed numbers made most of the round's garbage. Only the
 * values asked for are parsed.
 *
 * <p>The parsers keep the meanings of the {@code String} code they replace, down to its edge cases: lines end at
 * {@code \n}; a line or value is stripped of what {@link Character#isWhitespace} calls white space; fields are
 * separated by runs of {@code [ \t\n\x0B\f\r]} (the reader's {@code \s+}); numbers are read as {@link Long#parseLong}
 * reads them (a form the fast path does not take, such as a sign or an overflow, goes to {@code Long.parseLong}
 * itself, with its {@link NumberFormatException}). The file is read as ISO-8859-1 text, one byte per character.
 *
 * <p>One instance per thread. A file is had only inside {@link #read}'s parser, which must return what it needs copied
 * out ({@code long}s, records): the buffer and the keyed values belong to the next file once the parser returns, so
 * they cannot be reached after it, and a read from within a parser (which would overwrite the file being parsed)
 * throws rather than returning the other file's values.
 */
// A key's ordinal indexes its value in this class's own arrays, as EnumMap's does; it never leaves the class.
@SuppressWarnings("EnumOrdinal")
final class KernelFile {
  private static final ThreadLocal<KernelFile> PER_THREAD = ThreadLocal.withInitial(KernelFile::new);

  /** Reads what it needs out of a file; what it returns must not refer to the file's buffer. */
  @FunctionalInterface
  interface Parser<T> {
    @Nullable T parse(KernelFile file);
  }

  /** The bytes read; {@link #length} of them are the file. */
  byte[] bytes = new byte[8192];

  /** How many bytes the file had. */
  int length;

  /** Values {@link #keyed} parsed, by the ordinal of their key; only those in {@link #found} are of this file. */
  private final long[] values = new long[Keys.MAX];

  /** The keys {@link #keyed} found: bit {@code i} for the key of ordinal {@code i}. */
  private int found;

  /** The keys of the last {@link #keyed} of the file being parsed, or null. */
  private @Nullable Keys<?> keyedWith;

  /** The file being parsed, or null outside a parser. */
  private @Nullable String parsing;

  /** Where this thread's opens are recorded ({@link #recordOpens}), or null. */
  private @Nullable List<String> opens;

  private KernelFile() {}

  /**
   * Reads the file at {@code path} into this thread's buffer and hands it to {@code parser}; {@code null} when the
   * file cannot be opened or read (absent, a cgroup removed), the parser finds nothing, or it cannot read the
   * text. A plain read into a reused
   * buffer, rather than {@code Files.readAllBytes}' size probe and fresh arrays.
   *
   * @throws IllegalStateException when called from within another file's parser
   */
  static <T> @Nullable T read(String path, Parser<T> parser) {
    return read(path, parser, Parser::parse);
  }

  /** Reads what it needs out of a file into {@code context}; what it returns must not refer to the file's buffer. */
  @FunctionalInterface
  interface ContextParser<C, T> {
    @Nullable T parse(C context, KernelFile file);
  }

  /**
   * {@link #read(String, Parser)} with a parser that takes {@code context} (a builder being filled): one parser for
   * every read, rather than a lambda allocated per read to capture it.
   */
  static <C, T> @Nullable T read(String path, C context, ContextParser<C, T> parser) {
    KernelFile f = PER_THREAD.get();
    if (f.parsing != null) {
      throw new IllegalStateException(
          "read " + path + " while " + f.parsing + " is parsed: read it before or after, not within the parser");
    }
    if (!f.fill(path)) {
      return null;
    }
    f.parsing = path;
    f.keyedWith = null;
    try {
      return parser.parse(context, f);
    } catch (IllegalArgumentException | IndexOutOfBoundsException | ArithmeticException e) {
      // A file the kernel would not write (a number cut short, a key without its value): the part is absent, as for
      // a file that cannot be read, rather than an exception that costs the round every other container.
      return null;
    } finally {
      f.parsing = null;
      f.keyedWith = null;
    }
  }

  /** A single-value file ({@link #single()}), or {@code null} when absent or not a number. */
  static @Nullable Long readSingle(String path) {
    return read(path, KernelFile::single);
  }

  /**
   * A first read that returns fewer bytes than this had the whole file, so the read that would return its end is not
   * made (one system call of the five a file costs, ~3 % of the round). A kernel file read here is a {@code seq_file}:
   * a read stops short of the caller's buffer before the end only when the next record does not fit in the file's own
   * buffer of at least a page (fs/seq_file.c {@code seq_read_iter}), so after fewer than half a page only a record of
   * more than half a page could be left, and the records of these files are one cgroup file's whole text, one pid or
   * one interface line. A regular file (the tests' trees) reads short only at its end.
   */
  static final int WHOLE_BELOW = 2048;

  /**
   * Records into {@code names} the name of every file this thread opens from now on: each {@link #read}, whether the
   * file could be opened or not (a failed open costs the path walk too), and each directory a reader lists through
   * {@link #listing}; {@code null} stops. A round costs its opens (the kernel's path walk, open, read and close,
   * {@link CgroupReader}), so this is what the unit tests and {@code bench/cgroup-round} count them through.
   */
  static void recordOpens(@Nullable List<String> names) {
    PER_THREAD.get().opens = names;
  }

  /** Notes that the caller opens the directory {@code directory} to list it (a process's {@code fd}). */
  static void listing(Path directory) {
    List<String> names = PER_THREAD.get().opens;
    if (names != null) {
      names.add(directory.toString());
    }
  }

  private boolean fill(String path) {
    if (opens != null) {
      opens.add(path);
    }
    try (FileInputStream in = new FileInputStream(path)) {
      int n = 0;
      while (true) {
        if (n == bytes.length) {
          bytes = Arrays.copyOf(bytes, bytes.length * 2);
        }
        int r = in.read(bytes, n, bytes.length - n);
        if (r < 0 || (n == 0 && r < WHOLE_BELOW)) {
          length = r < 0 ? n : r;
          return true;
        }
        n += r;
      }
    } catch (IOException e) {
      return false;
    }
  }

  /** The file as text, for what still wants a {@code String} (error messages, rare files). */
  String text() {
    return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
  }

  /**
   * The keys of a flat-keyed file a caller wants: named by the constants of an enum ({@code USER_USEC} is the key
   * {@code user_usec}), one enum per file format, so a value is asked for by name and never by another file's index;
   * or by a binding table's names ({@link #named}), asked for by index with these very keys.
   */
  static final class Keys<K> {
    static final int MAX = 16;
    private final @Nullable Class<K> type;
    private final byte[][] names;

    private Keys(@Nullable Class<K> type, List<String> names) {
      if (names.size() > MAX) {
        throw new IllegalArgumentException("at most " + MAX + " keys: " + names);
      }
      this.type = type;
      this.names = new byte[names.size()][];
      for (int i = 0; i < names.size(); i++) {
        this.names[i] = names.get(i).getBytes(StandardCharsets.ISO_8859_1);
      }
    }

    /** The keys named by {@code type}'s constants, lower-cased. */
    static <K extends Enum<K>> Keys<K> of(Class<K> type) {
      List<String> names = new ArrayList<>();
      for (K k : type.getEnumConstants()) {
        names.add(k.name().toLowerCase(Locale.ROOT));
      }
      return new Keys<>(type, names);
    }

    /** The keys {@code names}, each had by its index in the list. */
    static Keys<Integer> named(List<String> names) {
      return new Keys<>(null, names);
    }

    /** The ordinal of the key at {@code b[from, to)}, or -1. */
    int indexOf(byte[] b, int from, int to) {
      int length = to - from;
      for (int i = 0; i < names.length; i++) {
        byte[] name = names[i];
        if (name.length == length && Arrays.equals(b, from, to, name, 0, length)) {
          return i;
        }
      }
      return -1;
    }
  }

  /**
   * Parses a flat-keyed file ({@code key value} per line, as {@code memory.stat}, {@code cpu.stat}, {@code
   * memory.events}) for {@code keys}: the key is what comes before a line's first space (a line starting with a space
   * has none), the value the rest, stripped, as a {@code long}; a line whose value is not one is skipped; of a key
   * given twice the last line counts. The values are then had with {@link #get}, {@link #find} and {@link #has} by
   * their key, within this file's parser.
   */
  void keyed(Keys<?> keys) {
    checkParsing();
    byte[] b = bytes;
    int found = 0;
    int line = 0;
    while (line < length) {
      int end = lineEnd(line);
      int space = indexOf(b, line, end, (byte) ' ');
      if (space > line) {
        int key = keys.indexOf(b, line, space);
        if (key >= 0) {
          int from = stripStart(b, space + 1, end);
          int to = stripEnd(b, from, end);
          try {
            values[key] = parseLong(b, from, to);
            found |= 1 << key;
          } catch (NumberFormatException e) {
            // Not a counter: skipped, as a map of the counters would skip it.
          }
        }
      }
      line = end + 1;
    }
    this.found = found;
    this.keyedWith = keys;
  }

  private void checkParsing() {
    if (parsing == null) {
      throw new IllegalStateException("a kernel file is had only within its parser");
    }
  }

  private int index(Enum<?> key) {
    checkParsing();
    Keys<?> with = keyedWith;
    if (with == null || with.type != key.getDeclaringClass()) {
      throw new IllegalStateException(
          parsing + " was not parsed for " + key.getDeclaringClass().getSimpleName() + " keys: asked for " + key);
    }
    return key.ordinal();
  }

  /** Whether {@link #keyed} found {@code key} in this file. */
  boolean has(Enum<?> key) {
    return (found & (1 << index(key))) != 0;
  }

  /** The value of {@code key} in this file, 0 when it was not found. */
  long get(Enum<?> key) {
    return has(key) ? values[key.ordinal()] : 0;
  }

  /** The value of {@code key} in this file, {@code null} when it was not found. */
  @Nullable Long find(Enum<?> key) {
    return has(key) ? values[key.ordinal()] : null;
  }

  /** Whether {@link #keyed} with {@code keys} found its key {@code index} in this file. */
  boolean has(Keys<Integer> keys, int index) {
    checkParsing();
    if (keyedWith != keys) {
      throw new IllegalStateException(parsing + " was not parsed for the keys asked for");
    }
    return (found & (1 << index)) != 0;
  }

  /** The value of {@code keys}' key {@code index} in this file, when {@link #has} found it. */
  long value(int index) {
    return values[index];
  }

  /**
   * A single-value file, or {@code null} when its stripped text is not a number; {@code max} (v2's no limit) is
   * {@link Long#MAX_VALUE}, as cAdvisor reads it as the largest value.
   */
  @Nullable Long single() {
    int from = stripStart(bytes, 0, length);
    int to = stripEnd(bytes, from, length);
    if (to - from == 3 && bytes[from] == 'm' && bytes[from + 1] == 'a' && bytes[from + 2] == 'x') {
      return Long.MAX_VALUE;
    }
    try {
      return parseLong(bytes, from, to);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Where the line starting at {@code from} ends: its {@code \n}, or the end of the file. */
  int lineEnd(int from) {
    int nl = indexOf(bytes, from, length, (byte) '\n');
    return nl < 0 ? length : nl;
  }

  static int indexOf(byte[] b, int from, int to, byte c) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  /** {@link Character#isWhitespace} of the ISO-8859-1 character {@code c}: what {@link String#strip} removes. */
  static boolean isWhitespace(byte c) {
    return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
  }

  /** Whether {@code c} is in regex {@code \s} ({@code [ \t\n\x0B\f\r]}), which separates fields. */
  static boolean isSpace(byte c) {
    return c == ' ' || (c >= 0x09 && c <= 0x0D);
  }

  /** The first index in {@code [from, to)} that is not white space, or {@code to}. */
  static int stripStart(byte[] b, int from, int to) {
    while (from < to && isWhitespace(b[from])) {
      from++;
    }
    return from;
  }

  /** One past the last index in {@code [from, to)} that is not white space, or {@code from}. */
  static int stripEnd(byte[] b, int from, int to) {
    while (to > from && isWhitespace(b[to - 1])) {
      to--;
    }
    return to;
  }

  /** Where the field starting at {@code from} ends: its first {@code \s}, or {@code to}. */
  static int fieldEnd(byte[] b, int from, int to) {
    while (from < to && !isSpace(b[from])) {
      from++;
    }
    return from;
  }

  /** Where the next field after {@code from} starts: past a run of {@code \s}, or {@code to}. */
  static int skipSpaces(byte[] b, int from, int to) {
    while (from < to && isSpace(b[from])) {
      from++;
    }
    return from;
  }

  static boolean equals(byte[] b, int from, int to, String ascii) {
    if (to - from != ascii.length()) {
      return false;
    }
    for (int i = 0; i < ascii.length(); i++) {
      if (b[from + i] != ascii.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  static boolean startsWith(byte[] b, int from, int to, String ascii) {
    return to - from >= ascii.length() && equals(b, from, from + ascii.length(), ascii);
  }

  /**
   * {@link Long#parseLong} of the ISO-8859-1 text {@code b[from, to)}: decimal digits in place; anything else (a
   * sign, an overflow, no digit) through {@code Long.parseLong} itself, which reads or rejects it as it always did.
   */
  static long parseLong(byte[] b, int from, int to) {
    if (from == to) {
      return Long.parseLong("");
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9 || v > (Long.MAX_VALUE - d) / 10) {
        return Long.parseLong(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
      }
      v = v * 10 + d;
    }
    return v;
  }

  /** {@link Integer#parseInt} of {@code b[from, to)}, as {@link #parseLong} reads a {@code long}. */
  static int parseInt(byte[] b, int from, int to) {
    if (to - from > 0 && to - from < 10) {
      long v = 0;
      for (int i = from; i < to; i++) {
        int d = b[i] - '0';
        if (d < 0 || d > 9) {
          return Integer.parseInt(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
        }
        v = v * 10 + d;
      }
      return (int) v;
    }
    return Integer.parseInt(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
  }

  private static final double[] POWERS_OF_TEN = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
      1e12, 1e13, 1e14, 1e15};

  /**
   * {@link Double#parseDouble} of {@code b[from, to)}. The kernel's {@code %lu.%02lu} (pressure averages) in place:
   * with at most 15 digits both the digits and the power of ten are exact doubles, so their quotient is the correctly
   * rounded value {@code parseDouble} returns. Any other form through {@code Double.parseDouble} itself.
   */
  static double parseDouble(byte[] b, int from, int to) {
    int dot = indexOf(b, from, to, (byte) '.');
    if (dot > from && dot < to - 1 && to - from - 1 <= 15) {
      long digits = 0;
      boolean plain = true;
      for (int i = from; i < to && plain; i++) {
        if (i != dot) {
          int d = b[i] - '0';
          plain = d >= 0 && d <= 9;
          digits = digits * 10 + d;
        }
      }
      if (plain) {
        return digits / POWERS_OF_TEN[to - dot - 1];
      }
    }
    return Double.parseDouble(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
  }
}
