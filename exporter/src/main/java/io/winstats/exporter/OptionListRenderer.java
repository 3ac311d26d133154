package io.winstats.exporter;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Help;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --help}'s option list, laid out as picocli lays it out but wrapped at spaces only: picocli's table breaks
 * lines wherever Java's line BreakIterator may, which is inside paths, URIs and setting names ({@code
 * C:\var\lib\kubelet}, {@code tcp://HOST:PORT}, {@code web.listen-address}), and an operator copies those whole.
 */
final class OptionListRenderer implements IHelpSectionRenderer {
  /** Where descriptions start: picocli's column for long option names (2 + 4 + 22 + 1). */
  private static final int DESCRIPTION_COLUMN = 29;

  /** How much further a description's second and later lines are indented, as picocli does. */
  private static final int CONTINUATION = 2;

  @Override
  public String render(Help help) {
    CommandSpec spec = help.commandSpec();
    int width = spec.usageMessage().width();
    StringBuilder out = new StringBuilder();
    for (OptionSpec option : spec.options()) {
      if (option.hidden()) {
        continue;
      }
      String names = names(spec, option);
      List<String> lines =
          wrap(String.join(" ", option.description()), width - DESCRIPTION_COLUMN - CONTINUATION);
      if (names.length() >= DESCRIPTION_COLUMN) {
        out.append(names).append('\n');
        names = "";
      }
      for (int i = 0; i < lines.size(); i++) {
        String indent = i == 0 ? padded(names, DESCRIPTION_COLUMN) : " ".repeat(DESCRIPTION_COLUMN + CONTINUATION);
        out.append(indent).append(lines.get(i)).append('\n');
      }
      if (lines.isEmpty()) {
        out.append(names).append('\n');
      }
    }
    return out.toString();
  }

  /** {@code  -h, --help} or {@code      --[no-]collector.node} or {@code      --web.listen-address=HOST:PORT}. */
  private static String names(CommandSpec spec, OptionSpec option) {
    String shortName = null;
    String longName = null;
    for (String name : option.names()) {
      if (name.startsWith("--")) {
        longName = option.negatable() ? spec.negatableOptionTransformer().makeSynopsis(name, spec) : name;
      } else {
        shortName = name;
      }
    }
    StringBuilder names = new StringBuilder("  ");
    names.append(shortName == null ? "    " : shortName + (longName == null ? "  " : ", "));
    if (longName != null) {
      names.append(longName);
    }
    if (option.arity().max() > 0) {
      names.append('=').append(option.paramLabel());
    }
    return names.toString();
  }

  private static String padded(String text, int width) {
    return text + " ".repeat(Math.max(1, width - text.length()));
  }

  /**
   * The words of {@code text} in lines of at most {@code width} characters. A word longer than a line (a grammar such
   * as {@code replay:FILE[,speed=N|max][,bias=MINUTES]}) is cut before a bracket where it can be.
   */
  static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String whole : text.trim().split("\\s+")) {
      String word = whole;
      while (word.length() > width) {
        int cut = word.lastIndexOf('[', width);
        cut = cut > 0 ? cut : width;
        if (line.length() > 0) {
          lines.add(line.toString());
          line.setLength(0);
        }
        lines.add(word.substring(0, cut));
        word = word.substring(cut);
      }
      if (word.isEmpty()) {
        continue;
      }
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    if (line.length() > 0) {
      lines.add(line.toString());
    }
    return lines;
  }
}
