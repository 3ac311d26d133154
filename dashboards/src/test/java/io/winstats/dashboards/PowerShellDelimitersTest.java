package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Windows workflow's PowerShell, tokenised far enough to find what a parser would reject first: every bracket,
 * brace and parenthesis closed by its own kind, every string, here-string, sub-expression and block comment closed.
 * No PowerShell or PSScriptAnalyzer comes from the registries this project reaches, and tree-sitter-powershell 0.26.4
 * (npm) rejects valid PowerShell this code uses (numeric multipliers such as {@code 16MB}, backtick continuations), so
 * this is the parse check that can run here; the lexing follows about_Quoting_Rules, about_Comments and
 * about_Special_Characters: single-quoted strings with {@code ''}, double-quoted strings with backtick escapes,
 * {@code ""} and nested {@code $( )}, here-strings closed by {@code '@} or {@code "@} at the start of a line, {@code #}
 * comments at the start of a token and {@code <# #>} blocks, backtick line continuations.
 */
class PowerShellDelimitersTest {
  private static final Path SCRIPTS = Path.of("..", ".github", "scripts");

  /** The first delimiter problem of a PowerShell text, or null. */
  static String firstProblem(String text) {
    try {
      int end = new Lexer(text).code(0, (char) 0);
      return end == text.length() ? null : "unexpected end of code at offset " + end;
    } catch (IllegalStateException e) {
      return e.getMessage();
    }
  }

  private static final class Lexer {
    private final String s;

    Lexer(String s) {
      this.s = s;
    }

    private String where(int i) {
      int line = 1;
      for (int k = 0; k < i && k < s.length(); k++) {
        if (s.charAt(k) == '\n') {
          line++;
        }
      }
      return "line " + line;
    }

    /** Lexes code from i until the closing {@code close} of the caller's opening (0: to the end); returns past it. */
    int code(int i, char close) {
      Deque<int[]> open = new ArrayDeque<>();  // {char, offset}
      while (i < s.length()) {
        char c = s.charAt(i);
        boolean tokenStart = i == 0 || " \t\r\n;({}|,=".indexOf(s.charAt(i - 1)) >= 0;
        if (c == '`') {
          i += 2;
        } else if (c == '<' && i + 1 < s.length() && s.charAt(i + 1) == '#') {
          int e = s.indexOf("#>", i + 2);
          if (e < 0) {
            throw new IllegalStateException(where(i) + ": <# comment never closed");
          }
          i = e + 2;
        } else if (c == '#' && tokenStart) {
          int e = s.indexOf('\n', i);
          i = e < 0 ? s.length() : e;
        } else if (c == '@' && i + 1 < s.length() && (s.charAt(i + 1) == '\'' || s.charAt(i + 1) == '"')
            && hereStringOpens(i + 2)) {
          i = hereString(i, s.charAt(i + 1));
        } else if (c == '\'') {
          i = singleQuoted(i);
        } else if (c == '"') {
          i = doubleQuoted(i);
        } else if (c == '(' || c == '{' || c == '[') {
          open.push(new int[] {c, i});
          i++;
        } else if (c == ')' || c == '}' || c == ']') {
          char want = c == ')' ? '(' : c == '}' ? '{' : '[';
          if (open.isEmpty()) {
            if (c == close) {
              return i + 1;
            }
            throw new IllegalStateException(where(i) + ": '" + c + "' closes nothing");
          }
          int[] top = open.pop();
          if (top[0] != want) {
            throw new IllegalStateException(
                where(i) + ": '" + c + "' closes '" + (char) top[0] + "' opened at " + where(top[1]));
          }
          i++;
        } else {
          i++;
        }
      }
      if (!open.isEmpty()) {
        throw new IllegalStateException(where(open.peek()[1]) + ": '" + (char) open.peek()[0] + "' never closed");
      }
      if (close != 0) {
        throw new IllegalStateException("end of text inside a $( ) sub-expression");
      }
      return i;
    }

    private boolean hereStringOpens(int i) {
      while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\r')) {
        i++;
      }
      return i < s.length() && s.charAt(i) == '\n';
    }

    private int hereString(int i, char quote) {
      int line = s.indexOf('\n', i);
      while (line >= 0) {
        if (s.startsWith(quote + "@", line + 1)) {
          return line + 3;
        }
        line = s.indexOf('\n', line + 1);
      }
      throw new IllegalStateException(where(i) + ": here-string @" + quote + " never closed");
    }

    private int singleQuoted(int i) {
      int k = i + 1;
      while (k < s.length()) {
        if (s.charAt(k) == '\'') {
          if (k + 1 < s.length() && s.charAt(k + 1) == '\'') {
            k += 2;
            continue;
          }
          return k + 1;
        }
        k++;
      }
      throw new IllegalStateException(where(i) + ": ' string never closed");
    }

    private int doubleQuoted(int i) {
      int k = i + 1;
      while (k < s.length()) {
        char c = s.charAt(k);
        if (c == '`') {
          k += 2;
        } else if (c == '$' && k + 1 < s.length() && s.charAt(k + 1) == '(') {
          k = code(k + 2, ')');
        } else if (c == '"') {
          if (k + 1 < s.length() && s.charAt(k + 1) == '"') {
            k += 2;
            continue;
          }
          return k + 1;
        } else {
          k++;
        }
      }
      throw new IllegalStateException(where(i) + ": \" string never closed");
    }
  }

  /** Every .ps1 under .github/scripts and every pwsh run block of the workflows and local actions. */
  static List<Map.Entry<String, String>> powerShell() throws IOException {
    List<Map.Entry<String, String>> texts = new ArrayList<>();
    try (Stream<Path> files = Files.list(SCRIPTS)) {
      for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".ps1")).sorted()::iterator) {
        texts.add(Map.entry(f.getFileName().toString(), Files.readString(f)));
      }
    }
    List<JsonNode> steps = new ArrayList<>();
    try (Stream<Path> workflows = Files.list(Path.of("..", ".github", "workflows"))) {
      for (Path w : (Iterable<Path>) workflows::iterator) {
        for (JsonNode job : Rules.YAML.readTree(w.toFile()).path("jobs")) {
          job.path("steps").forEach(steps::add);
        }
      }
    }
    try (Stream<Path> actions = Files.list(Path.of("..", ".github", "actions"))) {
      for (Path a : (Iterable<Path>) actions::iterator) {
        Rules.YAML.readTree(a.resolve("action.yml").toFile()).path("runs").path("steps").forEach(steps::add);
      }
    }
    for (JsonNode step : steps) {
      if (step.path("shell").asText().equals("pwsh") && step.has("run")) {
        texts.add(Map.entry("step '" + step.path("name").asText() + "'", step.path("run").asText()));
      }
    }
    return texts;
  }

  @Test
  void everyScriptAndPwshStepClosesWhatItOpens() throws IOException {
    List<Map.Entry<String, String>> texts = powerShell();
    assertThat(texts).hasSizeGreaterThan(15);
    for (Map.Entry<String, String> t : texts) {
      assertThat(firstProblem(t.getValue())).as(t.getKey()).isNull();
    }
  }

  @Test
  void theLexerReadsWhatTheScriptsUse() {
    assertThat(firstProblem("""
        $a = "x$(if ($p) { " listing pod $p" })y" # a ) comment (
        <# block ) comment #>
        $b = 'it''s ) fine'; $c = "say ""hi"" `" ) $($d.Count)"
        Add-Type @'
        public static class X { void F() { if (a) { ) }
        '@
        Write-Host `
          (1 + 2)
        $h = @{ a = @(1, 2)[0] }
        """)).isNull();
  }

  @Test
  void theLexerFindsWhatAParserWouldReject() {
    assertThat(firstProblem("function F {\n  if ($x -eq 1 {\n    Write-Host hi\n  }\n}\n"))
        .isEqualTo("line 5: '}' closes '(' opened at line 2");
    assertThat(firstProblem("try { Get-Thing }\nfinally { Stop-Daemon $d\n")).isEqualTo("line 2: '{' never closed");
    assertThat(firstProblem("Write-Host \"no end\n")).isEqualTo("line 1: \" string never closed");
    assertThat(firstProblem("$x = \"$(Get-Date\"\n")).startsWith("line 1:");
    assertThat(firstProblem("Add-Type @'\nclass X {}\n")).isEqualTo("line 1: here-string @' never closed");
    assertThat(firstProblem("$a = @(1, 2]")).isEqualTo("line 1: ']' closes '(' opened at line 1");
  }
}
