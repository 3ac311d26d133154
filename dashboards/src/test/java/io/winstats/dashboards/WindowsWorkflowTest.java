package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the Windows workflow (.github/workflows/windows.yml and .github/scripts) must keep, checked here because no
 * Linux build runs it (issue 31):
 *
 * <ul>
 *   <li>every test class the repository enables on Windows only is run by a job that fails when it did not run;
 *   <li>every job runs on pinned runner images, Windows Server 2022 and 2025 both, the containerd job on each of them
 *       with containerd 2.3 and 2.0 and on 2022 with 1.7 (what AKS and EKS Windows Server 2022 pools run), the cost job
 *       with 2.3 on both and 1.7 on 2022; actions are pinned to commits;
 *   <li>no script starts the daemon in a way the runner ends: the runner kills what a step started 5 s after the
 *       step's shell exits (actions/runner ProcessInvoker.cs), so whatever starts a process stops it in a
 *       {@code finally} of the same script, and no step hands a PID to a later one;
 *   <li>a failed check prints the daemon's output and, where containerd runs, its log and crictl's view;
 *   <li>every crictl call has an explicit {@code --timeout} (crictl's default deadline is 2 s);
 *   <li>every download is checked against the checksum file its release publishes, and every pin carries the records
 *       it was checked against;
 *   <li>a clean-up step cannot fail a job, and {@code continue-on-error} is used nowhere else but on the Windows Server
 *       2025 legs of the containerd and cost jobs, with the upstream reason (containerd#12088, hcsshim#2483) beside
 *       it;
 *   <li>the containerd job compares every figure the daemon reads from containerd's Tasks and Snapshots services with
 *       an independent reading on the runner (the container's job object, containerd's own CRI figure).
 * </ul>
 *
 * <p>Each rule is also run against the shape it forbids (the workflow as it was before issue 31), so that it can fail.
 */
class WindowsWorkflowTest {
  private static final Path ROOT = Path.of("..");
  private static final Path WORKFLOW = ROOT.resolve(".github/workflows/windows.yml");
  private static final Path SCRIPTS = ROOT.resolve(".github/scripts");
  private static final Path ACTIONS = ROOT.resolve(".github/actions");
  private static final Set<String> RUNNERS = Set.of("windows-2022", "windows-2025");
  private static final Pattern WINDOWS_ONLY_CLASS =
      Pattern.compile("@EnabledOnOs\\(\\{?\\s*OS\\.WINDOWS\\s*}?\\)\\s*(?:@\\w+(?:\\([^)]*\\))?\\s*)*(?:public\\s+)?"
          + "(?:final\\s+)?class\\s+(\\w+)");
  private static final Pattern ASSERTED =
      Pattern.compile("assert-tests-ran\\.ps1\\s+(\\S+)((?:\\s+\\w+)+)");
  private static final Pattern PINNED_ACTION = Pattern.compile("[\\w.-]+/[\\w.-]+@[0-9a-f]{40}");
  private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");

  /** Every class-level {@code @EnabledOnOs(OS.WINDOWS)} test class, by simple name, with its module. */
  static Map<String, String> windowsOnlyTestClasses() throws IOException {
    Map<String, String> classes = new TreeMap<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path module : (Iterable<Path>) modules::iterator) {
        Path tests = module.resolve("src/test/java");
        if (!Files.isDirectory(tests)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(tests)) {
          for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
            Matcher m = WINDOWS_ONLY_CLASS.matcher(Files.readString(f));
            while (m.find()) {
              classes.put(m.group(1), module.getFileName().toString());
            }
          }
        }
      }
    }
    return classes;
  }

  /** The test classes each job asserts ran, by the surefire reports directory it reads them from. */
  static Map<String, List<String>> assertedByReports(JsonNode workflow) {
    Map<String, List<String>> asserted = new TreeMap<>();
    for (JsonNode job : workflow.path("jobs")) {
      for (JsonNode step : job.path("steps")) {
        Matcher m = ASSERTED.matcher(step.path("run").asText());
        while (m.find()) {
          asserted.computeIfAbsent(m.group(1), k -> new ArrayList<>()).addAll(List.of(m.group(2).trim().split("\\s+")));
        }
      }
    }
    return asserted;
  }

  private static JsonNode workflow() throws IOException {
    return Rules.YAML.readTree(WORKFLOW.toFile());
  }

  /** A PowerShell or shell text to check, named for the failure message. */
  record Script(String name, String text) {
    /** The text without comment lines and without the part of a line after a {@code #} comment start. */
    String code() {
      StringBuilder b = new StringBuilder();
      for (String line : text.split("\\R")) {
        String trimmed = line.strip();
        if (trimmed.startsWith("#")) {
          continue;
        }
        int comment = line.indexOf(" # ");
        b.append(comment >= 0 ? line.substring(0, comment) : line).append('\n');
      }
      return b.toString();
    }
  }

  /** Every script under .github/scripts and every run block of the workflow and of the local actions. */
  static List<Script> scripts() throws IOException {
    List<Script> scripts = new ArrayList<>();
    try (Stream<Path> files = Files.list(SCRIPTS)) {
      for (Path f : (Iterable<Path>) files.sorted()::iterator) {
        scripts.add(new Script(f.getFileName().toString(), Files.readString(f)));
      }
    }
    workflow().path("jobs").fields().forEachRemaining(job -> {
      int i = 0;
      for (JsonNode step : job.getValue().path("steps")) {
        i++;
        if (step.has("run")) {
          scripts.add(new Script("windows.yml " + job.getKey() + " step " + i, step.path("run").asText()));
        }
      }
    });
    try (Stream<Path> actions = Files.list(ACTIONS)) {
      for (Path action : (Iterable<Path>) actions::iterator) {
        for (JsonNode step : Rules.YAML.readTree(action.resolve("action.yml").toFile()).path("runs").path("steps")) {
          if (step.has("run")) {
            scripts.add(new Script(action.getFileName() + "/action.yml", step.path("run").asText()));
          }
        }
      }
    }
    return scripts;
  }

  // ---- rule: no process outlives the step that started it ----

  private static final Pattern STARTS_A_PROCESS =
      Pattern.compile("\\bStart-(?:Daemon|Logged|Process)\\b|\\bjava(?:\\.exe)?\\b[^\\n]*-jar\\b");
  private static final Pattern STOPPED_IN_FINALLY =
      Pattern.compile("(?s)\\btry\\s*\\{.*}\\s*finally\\s*\\{[^}]*\\bStop-Daemon\\b");
  private static final Pattern HANDS_ON_A_PID =
      Pattern.compile("(?i)PID[^\\n]*\\|\\s*Out-File[^\\n]*\\$env:GITHUB_(?:ENV|OUTPUT|STATE)"
          + "|\\$env:GITHUB_(?:ENV|OUTPUT|STATE)[^\\n]*PID");

  /**
   * Why a script lets a process outlive its step, or null. daemon.ps1 defines Start-Daemon and Start-Logged (the only
   * Start-Process); every other script that starts one stops it in a {@code finally} of its own, and nothing writes a
   * PID for a later step.
   */
  static String outlivesItsStep(Script script) {
    String code = script.code();
    if (HANDS_ON_A_PID.matcher(code).find()) {
      return "hands a PID on to a later step";
    }
    if (script.name().equals("daemon.ps1")) {
      return null;
    }
    if (Pattern.compile("\\bStart-Process\\b").matcher(code).find()) {
      return "calls Start-Process itself: start processes through daemon.ps1's Start-Daemon/Start-Logged";
    }
    if (STARTS_A_PROCESS.matcher(code).find() && !STOPPED_IN_FINALLY.matcher(code).find()) {
      return "starts a process without stopping it in a finally block (Stop-Daemon) of the same script";
    }
    return null;
  }

  @Test
  void noScriptLetsTheDaemonOutliveItsStep() throws IOException {
    List<Script> scripts = scripts();
    assertThat(scripts.stream().filter(s -> STARTS_A_PROCESS.matcher(s.code()).find()).map(Script::name))
        .as("scripts that start the daemon")
        .contains("check-node.ps1", "check-containerd.ps1", "cost.ps1", "record.ps1");
    for (Script s : scripts) {
      assertThat(outlivesItsStep(s)).as(s.name()).isNull();
    }
  }

  @Test
  void theRuleCatchesTheDaemonStartedInOneStepAndCheckedInTheNext() {
    // .github/scripts/start-daemon.ps1 before issue 31, shortened: its daemon died 5 s after the step.
    Script before = new Script("start-daemon.ps1", """
        $p = Start-Process -FilePath $java -ArgumentList $arguments -PassThru -NoNewWindow `
          -RedirectStandardOutput (Join-Path $env:RUNNER_TEMP 'daemon.out') -RedirectStandardError $stderr
        "DAEMON_PID=$($p.Id)" | Out-File -Append -Encoding utf8 $env:GITHUB_ENV
        """);
    assertThat(outlivesItsStep(before)).isEqualTo("hands a PID on to a later step");
    Script noFinally = new Script("check.ps1", """
        . "$PSScriptRoot/daemon.ps1"
        $daemon = Start-Daemon -DaemonArgs '--node.source=pdh'
        Get-Body 9182 '/metrics'
        Stop-Daemon $daemon
        """);
    assertThat(outlivesItsStep(noFinally)).startsWith("starts a process without stopping it");
    Script direct = new Script("check.ps1", "try { Start-Process java -NoNewWindow } finally { Stop-Daemon $d }");
    assertThat(outlivesItsStep(direct)).startsWith("calls Start-Process itself");
  }

  // ---- rule: a failed check prints the daemon's output and the runtime's state ----

  /**
   * Why a failure in a script would leave no diagnostics, or null. A script that starts the daemon stops it with
   * {@code -Passed:$passed} (its output printed unless the checks passed) and, where containerd runs, {@code -Runtime}
   * (containerd's log, crictl pods and ps); one that drives containerd without a daemon prints the runtime's state in
   * a catch. Exempt: daemon.ps1 and containerd.ps1 (definitions), cleanup.ps1 (must not fail), runtime-fault.ps1
   * (its caller, check-containerd.ps1, owns the daemon and the diagnostics).
   */
  static String missingDiagnostics(Script script) {
    String code = script.code();
    if (Set.of("daemon.ps1", "containerd.ps1", "cleanup.ps1", "runtime-fault.ps1").contains(script.name())
        || !script.name().endsWith(".ps1")) {
      return null;
    }
    boolean startsDaemon = Pattern.compile("\\bStart-(?:Daemon|Logged)\\b").matcher(code).find();
    boolean usesContainerd = code.contains("containerd.ps1");
    if (startsDaemon) {
      Matcher stop = Pattern.compile("\\bStop-Daemon\\b[^\\n]*").matcher(code);
      if (!stop.find() || !stop.group().contains("-Passed:$passed")) {
        return "stops the daemon without -Passed:$passed: a failed check would not print the daemon's output";
      }
      if (usesContainerd && !stop.group().contains("-Runtime")) {
        return "stops the daemon without -Runtime: a failed check would not print containerd's log and crictl's view";
      }
    } else if (usesContainerd && !Pattern.compile("(?s)\\bcatch\\s*\\{[^}]*\\bShow-RuntimeState\\b").matcher(code).find()) {
      return "drives containerd without printing its state (Show-RuntimeState) in a catch";
    }
    return null;
  }

  @Test
  void everyFailedCheckPrintsTheDaemonsOutputAndTheRuntimesState() throws IOException {
    List<Script> scripts = scripts();
    for (Script s : scripts) {
      assertThat(missingDiagnostics(s)).as(s.name()).isNull();
    }
  }

  @Test
  void theDiagnosticsRuleCatchesASilentFailure() {
    assertThat(missingDiagnostics(new Script("check.ps1", """
        . "$PSScriptRoot/daemon.ps1"
        $daemon = Start-Daemon -DaemonArgs '--node.source=pdh'
        try { Get-Body 9182 '/metrics' } finally { Stop-Daemon $daemon }
        """))).startsWith("stops the daemon without -Passed");
    assertThat(missingDiagnostics(new Script("check.ps1", """
        . "$PSScriptRoot/containerd.ps1"
        $daemon = Start-Daemon -DaemonArgs '--node.source=pdh'
        try { $passed = $true } finally { Stop-Daemon $daemon -Passed:$passed }
        """))).startsWith("stops the daemon without -Runtime");
    assertThat(missingDiagnostics(new Script("pods.ps1", """
        . "$PSScriptRoot/containerd.ps1"
        Get-Images $SandboxImage, $Image
        """))).startsWith("drives containerd without");
  }

  // ---- rule: the containerd job checks the task source's figures against independent readings ----

  /**
   * Each figure the daemon reads from containerd's Tasks and Snapshots services on Windows (issue 32), with the
   * independent readings check-containerd.ps1 must compare it with: the container's job object read before and after
   * the daemon ({@code $j0}, {@code $j1}: what hcsshim reports a HostProcess container's statistics from), or
   * containerd's own CRI figure (crictl stats).
   */
  static final Map<String, List<String>> TASK_FIGURES =
      new TreeMap<>(Map.of(
          "container_cpu_user_seconds_total", List.of("$j0.User", "$j1.User"),
          "container_cpu_system_seconds_total", List.of("$j0.Kernel", "$j1.Kernel"),
          "container_memory_max_usage_bytes", List.of("$j0.PeakCommit", "$j1.PeakCommit"),
          "container_fs_reads_total", List.of("$j0.ReadCount", "$j1.ReadCount"),
          "container_fs_reads_bytes_total", List.of("$j0.ReadBytes", "$j1.ReadBytes"),
          "container_fs_writes_total", List.of("$j0.WriteCount", "$j1.WriteCount"),
          "container_fs_writes_bytes_total", List.of("$j0.WriteBytes", "$j1.WriteBytes"),
          "pod process_count", List.of("$j0.ActiveProcesses", "$j1.ActiveProcesses"),
          "rootfs.usedBytes", List.of("(ContainerdStats).writableLayer.usedBytes")));

  private static final Pattern ASSERTION = Pattern.compile("(?m)^\\s*Assert-(?:Between|Near)\\s+'([^']+)'(.*)$");

  /**
   * What check-containerd.ps1 fails to compare, or an empty list: each {@link #TASK_FIGURES} figure in an {@code
   * Assert-Between}/{@code Assert-Near} line naming its references (a {@code /metrics} series read through {@code
   * Series}), both job-object readings taken with {@code [JobObject]::Read}, and the HNS path checked (no {@code
   * hns_fallback}: a HostProcess pod has no endpoint of its own to compare packets with).
   */
  static List<String> uncheckedTaskFigures(Script script) {
    String code = script.code();
    Map<String, String> asserted = new TreeMap<>();
    Matcher m = ASSERTION.matcher(code);
    while (m.find()) {
      asserted.put(m.group(1), m.group(2));
    }
    List<String> missing = new ArrayList<>();
    TASK_FIGURES.forEach((figure, references) -> {
      String rest = asserted.get(figure);
      if (rest == null) {
        missing.add(figure + ": no Assert-Between/Assert-Near");
      } else if (figure.startsWith("container_") && !rest.contains("(Series $metrics '" + figure + "')")) {
        missing.add(figure + ": not the served series");
      } else {
        references.stream().filter(r -> !rest.contains(r)).forEach(r -> missing.add(figure + ": not against " + r));
      }
    });
    for (String reading : List.of("$j0 = [JobObject]::Read($job)", "$j1 = [JobObject]::Read($job)")) {
      if (!code.contains(reading)) {
        missing.add("the job object is not read: " + reading);
      }
    }
    if (!code.contains("reason=\"hns_fallback\"")) {
      missing.add("the HNS path is not checked (hns_fallback)");
    }
    return missing;
  }

  @Test
  void theContainerdJobChecksEveryTaskSourceFigureAgainstAnIndependentReading() throws IOException {
    Script check = new Script("check-containerd.ps1", Files.readString(SCRIPTS.resolve("check-containerd.ps1")));
    assertThat(uncheckedTaskFigures(check)).isEmpty();
  }

  @Test
  void theTaskFigureRuleCatchesAMissingOrPresenceOnlyCheck() throws IOException {
    String text = Files.readString(SCRIPTS.resolve("check-containerd.ps1"));
    String withoutPeak =
        Pattern.compile("(?m)^\\s*Assert-Between 'container_memory_max_usage_bytes'.*\\R")
            .matcher(text)
            .replaceAll("");
    assertThat(uncheckedTaskFigures(new Script("check-containerd.ps1", withoutPeak)))
        .containsExactly("container_memory_max_usage_bytes: no Assert-Between/Assert-Near");
    String againstItself = text.replace("($j0.User / 1e7) ($j1.User / 1e7)", "0 1e12");
    assertThat(uncheckedTaskFigures(new Script("check-containerd.ps1", againstItself)))
        .containsExactly("container_cpu_user_seconds_total: not against $j0.User",
            "container_cpu_user_seconds_total: not against $j1.User");
    String hnsCheck = "  if ($metrics -match 'reason=\"hns_fallback\"')";
    String commented = text.replace(hnsCheck, "  #" + hnsCheck.substring(1));
    assertThat(uncheckedTaskFigures(new Script("check-containerd.ps1", commented)))
        .containsExactly("the HNS path is not checked (hns_fallback)");
  }

  // ---- rule: every crictl call has a deadline ----

  private static final Pattern CRICTL_CALL =
      Pattern.compile("(?m)^(?!.*Get-Command)[^'\"\\n]*?(?<![\\w/.$-])crictl(?:\\.exe)?\\s+(?!\\.)(.*)$");

  /** The crictl calls in a script that pass no {@code --timeout}. */
  static List<String> crictlCallsWithoutTimeout(Script script) {
    List<String> calls = new ArrayList<>();
    Matcher m = CRICTL_CALL.matcher(script.code());
    while (m.find()) {
      if (!m.group(1).matches("(?:--timeout|-t)[ =]\\S+\\s.*")) {
        calls.add(m.group().strip());
      }
    }
    return calls;
  }

  @Test
  void everyCrictlCallHasATimeout() throws IOException {
    List<Script> scripts = scripts();
    int calls = 0;
    for (Script s : scripts) {
      Matcher m = CRICTL_CALL.matcher(s.code());
      while (m.find()) {
        calls++;
      }
      assertThat(crictlCallsWithoutTimeout(s)).as("%s: crictl calls without --timeout", s.name()).isEmpty();
    }
    assertThat(calls).as("crictl calls seen").isGreaterThan(10);
  }

  @Test
  void theRuleCatchesACrictlCallWithoutTimeout() {
    Script before = new Script("windows.yml containerd step 5", """
        crictl pull $env:PAUSE_IMAGE
        $pod = (crictl runp $podConfig).Trim()
        while (-not (crictl ps -q --id $container)) { Start-Sleep 1 }
        crictl.exe --timeout 60s pods
        if (Get-Command crictl -ErrorAction SilentlyContinue) { Write-Host }
        """);
    assertThat(crictlCallsWithoutTimeout(before)).hasSize(3);
  }

  // ---- rule: downloads are checked twice, pins carry their records ----

  private static final Pattern DOWNLOAD = Pattern.compile("download-checked\\.ps1\"?((?:[^\\n]|\\n\\s*-)*)");

  /** Problems with the downloads of a script: each must give -Sha256Url, and -Sha256 where a pin exists. */
  static List<String> uncheckedDownloads(Script script) {
    List<String> problems = new ArrayList<>();
    Matcher m = DOWNLOAD.matcher(script.code().replace("`\n", "\n"));
    while (m.find()) {
      String args = m.group(1);
      if (!args.contains("-Url")) {
        continue;  // the script's own usage line
      }
      if (!args.contains("-Sha256Url")) {
        problems.add(script.name() + ": a download not checked against its release's checksum file: " + args.strip());
      }
      // crictl's Windows archive has no record outside its own release (install: containerd.ps1).
      if (!args.contains("-Sha256 ") && !args.contains("cri-tools") && !args.contains("$crictl")) {
        problems.add(script.name() + ": a download without a pinned SHA-256: " + args.strip());
      }
    }
    return problems;
  }

  /** Every field whose name ends in sha256 (env, matrix), with the records field beside it. */
  static Map<String, String> pinsWithoutTwoRecords(JsonNode node, String path, Map<String, String> problems) {
    if (node.isObject()) {
      node.fields().forEachRemaining(e -> {
        String key = e.getKey();
        if (key.toLowerCase(Locale.ROOT).endsWith("sha256")) {
          String where = path + "." + key;
          if (!SHA256.matcher(e.getValue().asText()).matches()) {
            problems.put(where, "not a SHA-256: " + e.getValue().asText());
          }
          JsonNode records = node.path(key.equals(key.toUpperCase(Locale.ROOT)) ? key + "_RECORDS" : "records");
          long count = Stream.of(records.asText().split(";")).filter(r -> !r.isBlank()).count();
          if (count < 2) {
            problems.put(where, "names " + count + " records (" + records.asText() + "), needs two");
          }
        }
        pinsWithoutTwoRecords(e.getValue(), path + "." + key, problems);
      });
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        pinsWithoutTwoRecords(node.get(i), path + "[" + i + "]", problems);
      }
    }
    return problems;
  }

  @Test
  void everyDownloadIsCheckedAgainstItsPinAndItsReleaseAndEveryPinNamesTwoRecords() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Script s : scripts()) {
      problems.addAll(uncheckedDownloads(s));
    }
    assertThat(problems).isEmpty();
    Map<String, String> pins = new TreeMap<>();
    pinsWithoutTwoRecords(workflow(), "windows.yml", pins);
    pinsWithoutTwoRecords(Rules.YAML.readTree(ACTIONS.resolve("jdk17/action.yml").toFile()), "jdk17", pins);
    assertThat(pins).isEmpty();
  }

  @Test
  void theDownloadRulesCatchAPinWithoutItsChecksumFileOrRecords() throws IOException {
    Script before = new Script("windows.yml containerd step 4", """
        ./.github/scripts/download-checked.ps1 -Url "$base/containerd-$env:CONTAINERD_VERSION-windows-amd64.tar.gz" `
          -Sha256 $env:CONTAINERD_SHA256 -OutFile "$env:RUNNER_TEMP\\containerd.tar.gz"
        ./.github/scripts/download-checked.ps1 -Url $other -Sha256Url "$other.sha256" -OutFile x
        """);
    assertThat(uncheckedDownloads(before)).hasSize(2);
    JsonNode env = Rules.YAML.readTree("""
        CONTAINERD_SHA256: 1d07f8f9d8c20376613795c11df8f88d32b7fc8408d77ade95beb004053e3e8b
        containerd:
          - version: '2.3.4'
            sha256: 5a61f42abd362cf21a9af6dff03edf1df2261e6fe6f3c2e45d132d12b99fdf49
            records: one record only
        """);
    assertThat(pinsWithoutTwoRecords(env, "env", new TreeMap<>())).hasSize(2);
  }

  // ---- rule: the matrix keeps its legs ----

  /** The combinations a job's strategy.matrix expands to (GitHub's rules: product of the lists, then include). */
  static List<Map<String, String>> legs(JsonNode job) {
    JsonNode matrix = job.path("strategy").path("matrix");
    List<Map<String, String>> legs = new ArrayList<>();
    legs.add(new LinkedHashMap<>());
    for (Map.Entry<String, JsonNode> axis : iterable(matrix)) {
      if (axis.getKey().equals("include") || axis.getKey().equals("exclude")) {
        continue;
      }
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> leg : legs) {
        for (JsonNode value : axis.getValue()) {
          Map<String, String> l = new LinkedHashMap<>(leg);
          l.put(axis.getKey(), value.isObject() ? value.path("version").asText() : value.asText());
          next.add(l);
        }
      }
      legs = next;
    }
    Set<String> axes = new TreeSet<>();
    iterable(matrix).forEach(axis -> axes.add(axis.getKey()));
    List<Map<String, String>> originals = List.copyOf(legs);
    for (JsonNode include : matrix.path("include")) {
      boolean added = false;
      for (Map<String, String> leg : originals) {
        boolean matches = true;
        for (Map.Entry<String, JsonNode> e : iterable(include)) {
          if (axes.contains(e.getKey()) && !leg.get(e.getKey()).equals(value(e.getValue()))) {
            matches = false;
          }
        }
        if (matches) {
          iterable(include).forEach(e -> leg.put(e.getKey(), value(e.getValue())));
          added = true;
        }
      }
      if (!added) {
        // An include that would overwrite an original value of every combination is a combination of its own.
        Map<String, String> leg = new LinkedHashMap<>();
        iterable(include).forEach(e -> leg.put(e.getKey(), value(e.getValue())));
        legs.add(leg);
      }
    }
    return legs;
  }

  /** A matrix value as a leg names it: an object (a pin) by its version, anything else as its text. */
  private static String value(JsonNode value) {
    return value.isObject() ? value.path("version").asText() : value.asText();
  }

  private static List<Map.Entry<String, JsonNode>> iterable(JsonNode node) {
    List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
    node.fields().forEachRemaining(entries::add);
    return entries;
  }

  /** The runner and containerd line of each leg of a job, as "windows-2022 containerd 2.3". */
  static Set<String> containerdLegs(JsonNode job) {
    Set<String> lines = new TreeSet<>();
    for (Map<String, String> leg : legs(job)) {
      String line = leg.getOrDefault("containerd", "").replaceAll("^(\\d+\\.\\d+)\\..*", "$1");
      lines.add(leg.get("runner") + " containerd " + line);
    }
    return lines;
  }

  /**
   * The runtime legs the workflow must have: the containerd job on both images with 2.3 and 2.0 and on Windows Server
   * 2022 with 1.7 (the line AKS and EKS run there; AKS runs 2.0 on 2025), the cost job with 2.3 on both and 1.7 on
   * 2022.
   */
  static final Map<String, Set<String>> RUNTIME_LEGS = Map.of(
      "containerd", Set.of("windows-2022 containerd 2.3", "windows-2025 containerd 2.3", "windows-2022 containerd 2.0",
          "windows-2025 containerd 2.0", "windows-2022 containerd 1.7"),
      "cost", Set.of("windows-2022 containerd 2.3", "windows-2025 containerd 2.3", "windows-2022 containerd 1.7"));

  /** What a workflow's matrix lacks: every job on both runner images, the runtime jobs on {@link #RUNTIME_LEGS}. */
  static List<String> missingLegs(JsonNode workflow) {
    List<String> missing = new ArrayList<>();
    for (String name : List.of("perfcounters", "cri", "node-accuracy", "containerd", "cost", "record")) {
      JsonNode job = workflow.path("jobs").path(name);
      if (job.isMissingNode()) {
        missing.add(name + ": no such job");
        continue;
      }
      Set<String> runners = new TreeSet<>();
      for (Map<String, String> leg : legs(job)) {
        runners.add(job.path("runs-on").asText().equals("${{ matrix.runner }}")
            ? leg.getOrDefault("runner", "") : job.path("runs-on").asText());
      }
      if (!runners.equals(RUNNERS)) {
        missing.add(name + ": runs on " + runners + ", not " + new TreeSet<>(RUNNERS));
      }
    }
    RUNTIME_LEGS.forEach((name, expected) -> {
      JsonNode job = workflow.path("jobs").path(name);
      for (Map<String, String> leg : legs(job)) {
        String runner = leg.getOrDefault("runner", "");
        if (!leg.getOrDefault("image", "").endsWith(runner.equals("windows-2025") ? ":ltsc2025" : ":ltsc2022")) {
          missing.add(name + " " + leg + ": no nanoserver image for its runner");
        }
      }
      Set<String> present = containerdLegs(job);
      new TreeSet<>(expected).stream().filter(l -> !present.contains(l))
          .forEach(l -> missing.add(name + ": no leg " + l.replace(" containerd ", " with containerd ")));
    });
    return missing;
  }

  @Test
  void theMatrixCoversWindowsServer2022And2025AndContainerd23And20And17() throws IOException {
    JsonNode workflow = workflow();
    assertThat(missingLegs(workflow)).isEmpty();
    RUNTIME_LEGS.forEach((name, expected) ->
        assertThat(containerdLegs(workflow.path("jobs").path(name))).as(name).isEqualTo(expected));
    assertThat(legs(workflow.path("jobs").path("containerd"))).hasSize(5);
    assertThat(legs(workflow.path("jobs").path("cost"))).hasSize(3);
  }

  @Test
  void theLegsFollowGitHubsIncludeRules() throws IOException {
    // An include that matches existing combinations extends them; one that would overwrite an original value of each
    // is a combination of its own (docs.github.com, "Expanding or adding matrix configurations").
    JsonNode job = Rules.YAML.readTree("""
        strategy:
          matrix:
            runner: [windows-2022, windows-2025]
            containerd: [{version: '2.3.1'}]
            include:
              - runner: windows-2022
                image: a
              - runner: windows-2022
                image: b
                containerd: {version: '1.7.20'}
        """);
    assertThat(legs(job)).containsExactly(
        Map.of("runner", "windows-2022", "containerd", "2.3.1", "image", "a"),
        Map.of("runner", "windows-2025", "containerd", "2.3.1"),
        Map.of("runner", "windows-2022", "image", "b", "containerd", "1.7.20"));
  }

  @Test
  void theMatrixRuleCatchesALostLeg() throws IOException {
    JsonNode workflow = workflow();
    ((ArrayNode) workflow.path("jobs").path("containerd").path("strategy").path("matrix").path("containerd")).remove(1);
    ((ArrayNode) workflow.path("jobs").path("record").path("strategy").path("matrix").path("runner")).remove(1);
    ArrayNode costIncludes = (ArrayNode) workflow.path("jobs").path("cost").path("strategy").path("matrix")
        .path("include");
    costIncludes.remove(costIncludes.size() - 1);
    assertThat(missingLegs(workflow))
        .containsExactlyInAnyOrder("record: runs on [windows-2022], not [windows-2022, windows-2025]",
            "containerd: no leg windows-2022 with containerd 2.0",
            "containerd: no leg windows-2025 with containerd 2.0", "cost: no leg windows-2022 with containerd 1.7");
  }

  // ---- rule: clean-up cannot fail a job; only the Windows Server 2025 runtime legs may fail the run's way ----

  @Test
  void cleanUpStepsCannotFailAJob() throws IOException {
    int cleanUps = 0;
    for (Map.Entry<String, JsonNode> job : iterable(workflow().path("jobs"))) {
      for (JsonNode step : job.getValue().path("steps")) {
        if (step.path("if").asText().contains("always()") && step.has("run")) {
          cleanUps++;
          assertThat(step.path("continue-on-error").asBoolean()).as("%s %s: continue-on-error", job.getKey(),
              step.path("name").asText()).isTrue();
          assertThat(step.path("run").asText().strip()).as("%s %s", job.getKey(), step.path("name").asText())
              .endsWith("exit 0");
        }
      }
    }
    assertThat(cleanUps).isGreaterThanOrEqualTo(2);
  }

  /** The jobs whose Windows Server 2025 legs may fail: those that run containerd, which upstream does not on 2025. */
  static final Set<String> MAY_FAIL_ON_2025 = Set.of("containerd", "cost");

  static final String ON_2025 = "${{ matrix.runner == 'windows-2025' }}";

  /** The upstream reason a 2025 leg may fail, each of which the comment above the containerd job's key must name. */
  static final List<String> UPSTREAM_REASON = List.of("containerd#12088", "hcsshim#2483", "v2.3.1");

  /**
   * Where the workflow allows a failure, other than a clean-up step (an {@code always()} step ending {@code exit 0}):
   * each problem, or an empty list. Allowed: job-level {@code continue-on-error: ${{ matrix.runner == 'windows-2025'
   * }}} on the {@link #MAY_FAIL_ON_2025} jobs, and there only, with the comment just above the containerd job's key
   * naming {@link #UPSTREAM_REASON}.
   */
  static List<String> unexplainedContinueOnError(String text) throws IOException {
    JsonNode workflow = Rules.YAML.readTree(text);
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, JsonNode> job : iterable(workflow.path("jobs"))) {
      String name = job.getKey();
      JsonNode allowed = job.getValue().path("continue-on-error");
      if (MAY_FAIL_ON_2025.contains(name)) {
        if (!allowed.asText().equals(ON_2025)) {
          problems.add(name + ": continue-on-error is '" + allowed.asText() + "', not " + ON_2025);
        }
      } else if (!allowed.isMissingNode()) {
        problems.add(name + ": continue-on-error on a job that does not run containerd");
      }
      for (JsonNode step : job.getValue().path("steps")) {
        boolean cleanUp = step.path("if").asText().contains("always()") && step.path("run").asText().strip()
            .endsWith("exit 0");
        if (step.has("continue-on-error") && !cleanUp) {
          problems.add(name + " " + step.path("name").asText()
              + ": continue-on-error on a step that is not a clean-up");
        }
      }
    }
    Matcher key = Pattern.compile(
        "(?m)^  containerd:\\n    name: [^\\n]*\\n((?:    #[^\\n]*\\n)*)    continue-on-error:").matcher(text);
    if (!key.find()) {
      problems.add("containerd: no comment block just above its continue-on-error");
    } else {
      UPSTREAM_REASON.stream().filter(r -> !key.group(1).contains(r))
          .forEach(r -> problems.add("containerd: the reason above continue-on-error does not name " + r));
    }
    return problems;
  }

  @Test
  void onlyTheWindowsServer2025RuntimeLegsMayFailAndTheyGiveTheUpstreamReason() throws IOException {
    String text = Files.readString(WORKFLOW);
    assertThat(unexplainedContinueOnError(text)).isEmpty();
    JsonNode workflow = workflow();
    for (String name : MAY_FAIL_ON_2025) {
      assertThat(legs(workflow.path("jobs").path(name)).stream().map(l -> l.get("runner")))
          .as("%s has 2025 legs to allow", name).contains("windows-2025");
    }
  }

  @Test
  void theContinueOnErrorRuleCatchesABlanketOrUnexplainedAllowance() throws IOException {
    String text = Files.readString(WORKFLOW);
    String blanket = text.replace("    continue-on-error: " + ON_2025, "    continue-on-error: true");
    assertThat(unexplainedContinueOnError(blanket))
        .contains("containerd: continue-on-error is 'true', not " + ON_2025);
    String onRecord = text.replace("  record:\n    name: record (${{ matrix.runner }})\n",
        "  record:\n    name: record (${{ matrix.runner }})\n    continue-on-error: " + ON_2025 + "\n");
    assertThat(unexplainedContinueOnError(onRecord))
        .containsExactly("record: continue-on-error on a job that does not run containerd");
    String unexplained = text.replace("containerd#12088", "containerd#0");
    assertThat(unexplainedContinueOnError(unexplained))
        .containsExactly("containerd: the reason above continue-on-error does not name containerd#12088");
    String onAStep = text.replace("      - name: Build the jar\n        shell: bash\n",
        "      - name: Build the jar\n        continue-on-error: true\n        shell: bash\n");
    assertThat(unexplainedContinueOnError(onAStep)).isNotEmpty()
        .allSatisfy(p -> assertThat(p).endsWith("Build the jar: continue-on-error on a step that is not a clean-up"));
  }

  // ---- the rules that were here before issue 31 ----

  @Test
  void everyWindowsOnlyTestClassIsRunAndAssertedByAJob() throws IOException {
    Map<String, String> windowsOnly = windowsOnlyTestClasses();
    Map<String, List<String>> asserted = assertedByReports(workflow());

    assertThat(windowsOnly).as("the repository's Windows-only test classes").isNotEmpty();
    windowsOnly.forEach(
        (simpleName, module) ->
            assertThat(asserted.getOrDefault(module + "/target/surefire-reports", List.of()))
                .as("%s (%s) is asserted to have run, nothing skipped, over %s/target/surefire-reports", simpleName,
                    module, module)
                .contains(simpleName));
  }

  @Test
  void jobsRunOnAPinnedImageAndUseActionsPinnedToACommit() throws IOException {
    JsonNode workflow = workflow();
    List<JsonNode> steps = new ArrayList<>();
    for (Map.Entry<String, JsonNode> job : iterable(workflow.path("jobs"))) {
      for (Map<String, String> leg : legs(job.getValue())) {
        String runsOn = job.getValue().path("runs-on").asText().replace("${{ matrix.runner }}", leg.getOrDefault("runner", ""));
        assertThat(runsOn).as("%s runs-on", job.getKey()).matches("windows-20\\d\\d");
      }
      job.getValue().path("steps").forEach(steps::add);
    }
    try (Stream<Path> actions = Files.list(ACTIONS)) {
      for (Path action : (Iterable<Path>) actions::iterator) {
        Rules.YAML.readTree(action.resolve("action.yml").toFile()).path("runs").path("steps").forEach(steps::add);
      }
    }
    List<String> uses = steps.stream().map(s -> s.path("uses").asText()).filter(u -> !u.isEmpty()).toList();
    assertThat(uses).isNotEmpty().allSatisfy(u ->
        assertThat(u.startsWith("./.github/actions/") || PINNED_ACTION.matcher(u).matches())
            .as("%s: a local action or one pinned to a commit", u).isTrue());
  }

  /** Every script a workflow step runs exists, and every script under .github/scripts is run or dot-sourced. */
  @Test
  void everyScriptTheWorkflowRunsExistsAndNoneIsDead() throws IOException {
    Pattern reference = Pattern.compile("(?:\\.github/scripts/|\\$PSScriptRoot/|/scripts/)([\\w-]+\\.ps1)");
    Set<String> referenced = new TreeSet<>();
    for (Script s : scripts()) {
      Matcher m = reference.matcher(s.code());
      while (m.find()) {
        referenced.add(m.group(1));
      }
    }
    Set<String> present = new TreeSet<>();
    try (Stream<Path> files = Files.list(SCRIPTS)) {
      files.forEach(f -> present.add(f.getFileName().toString()));
    }
    assertThat(present).as("scripts under .github/scripts").isEqualTo(referenced);
  }
}
