# Functions the Windows jobs dot-source to run the daemon's jar, and windows_exporter beside it, inside ONE step:
#
#   . ./.github/scripts/daemon.ps1
#   $daemon = Start-Daemon -DaemonArgs '--node.source=pdh', ...
#   $passed = $false
#   try { ...checks...; $passed = $true } finally { Stop-Daemon $daemon -Passed:$passed }
#
# Why one step: a process a step starts does not outlive the step. Start-Process with -NoNewWindow or -Redirect*
# creates the child with bInheritHandles = TRUE (PowerShell v7.6.5
# src/Microsoft.PowerShell.Commands.Management/commands/management/Process.cs:1644-1844, 2513, 2619), so java.exe
# inherits the step's stdout/stderr pipes, which the runner created inheritable (dotnet/runtime Process.Windows.cs
# CreatePipe). When the step's pwsh exits with those pipes still open, the runner waits 5 s and then kills every
# process whose parent is the step's shell (actions/runner v2.336.0 src/Runner.Sdk/ProcessInvoker.cs:485-505
# "Wait 5 seconds and then Cancel/Kill process tree", :667-760 WindowsKillProcessTree). A daemon started in one step
# and checked in the next is therefore dead at the check (issue 31). So every script that calls Start-Daemon stops
# it in a finally block of the same script, and no step writes a PID for a later step (WindowsWorkflowTest holds both).
#
# The step's shell: `shell: pwsh` runs `pwsh -command ". '{0}'"` with `$ErrorActionPreference = 'stop'` prepended and
# `if ((Test-Path -LiteralPath variable:\LASTEXITCODE)) { exit $LASTEXITCODE }` appended (actions/runner v2.336.0
# src/Runner.Worker/Handlers/ScriptHandlerHelpers.cs:16,61-63): a throw fails the step, and so does the exit code of
# the last native command a script ran; the scripts end with an explicit exit.

$ProgressPreference = 'SilentlyContinue'  # the progress bar slows Invoke-WebRequest down many times over

# Starts the jar as the Windows image runs it (java @deploy/jvm.options -jar), listening on 127.0.0.1:Port, output to
# files under RUNNER_TEMP, and waits until /stats/summary answers (and lists pod Pod, when given). If the daemon exits
# or the deadline passes, stops it, prints its output and throws: a caller's finally cannot stop what it never got.
function Start-Daemon {
  param(
    [Parameter(Mandatory)][string[]]$DaemonArgs,
    [int]$Port = 9182,
    [string]$Pod = '',
    [string]$Name = 'daemon',
    [int]$TimeoutSeconds = 120
  )
  $java = Join-Path $env:JAVA_HOME 'bin\java.exe'
  $arguments = @('@deploy/jvm.options', '-jar', 'exporter/target/winstats-exporter.jar',
    "--web.listen-address=127.0.0.1:$Port") + $DaemonArgs
  $started = Start-Logged -FilePath $java -Arguments $arguments -Name $Name -Port $Port
  $answered = $false
  try {
    $deadline = (Get-Date).AddSeconds($TimeoutSeconds)
    while ($true) {
      if ($started.Process.HasExited) { throw "$Name exited with code $($started.Process.ExitCode)" }
      try {
        $summary = (Invoke-WebRequest -UseBasicParsing -TimeoutSec 10 -Uri "http://127.0.0.1:$Port/stats/summary").Content |
          ConvertFrom-Json
        if (-not $Pod -or ($summary.pods | Where-Object { $_.podRef.name -eq $Pod })) { break }
      } catch {
        # 503 until the first sample, connection refused until the server listens
      }
      if ((Get-Date) -gt $deadline) {
        throw "$Name`: no /stats/summary$(if ($Pod) { " listing pod $Pod" }) within $TimeoutSeconds s"
      }
      Start-Sleep -Seconds 1
    }
    $answered = $true
  } finally {
    if (-not $answered) { Stop-Daemon $started -Runtime:([bool]$Pod) }
  }
  Write-Host "$Name answers on 127.0.0.1:$Port (pid $($started.Process.Id))"
  return $started
}

# Runs the jar's check subcommand to completion as the Windows image runs the jar, with CheckArgs (the flags the job's
# daemon gets), and prints its rows (and any log lines) to the log and its rows to the step summary. Returns check's
# exit code: 0 every part ok, 3 one degraded, 4 one failed, which are findings; throws on any other (1 a crash, 2 a
# bad flag), a fault of the job. The call operator waits for the exit, so nothing outlives the step.
function Invoke-Check {
  param([Parameter(Mandatory)][string[]]$CheckArgs)
  $java = Join-Path $env:JAVA_HOME 'bin\java.exe'
  $out = Join-Path $env:RUNNER_TEMP 'check.out.log'
  $err = Join-Path $env:RUNNER_TEMP 'check.err.log'
  & $java '@deploy/jvm.options' -jar exporter/target/winstats-exporter.jar check @CheckArgs > $out 2> $err
  $code = $LASTEXITCODE
  Write-Host "check $($CheckArgs -join ' '): exit $code"
  Get-Content -LiteralPath $out | Write-Host
  if ((Get-Item -LiteralPath $err).Length -gt 0) {
    Write-Host "----- $err"
    Get-Content -LiteralPath $err | Write-Host
  }
  if ($env:GITHUB_STEP_SUMMARY) {
    @("### check (exit $code)", '', '```', (Get-Content -LiteralPath $out), '```', '') |
      Out-File -LiteralPath $env:GITHUB_STEP_SUMMARY -Append -Encoding utf8
  }
  if ($code -notin 0, 3, 4) { throw "check exited with $code (1: it crashed, 2: a flag was refused; output above)" }
  return $code
}

# Runs the jar's compare subcommand against references on this runner and prints its rows to the log and the step
# summary, as a first Windows user is asked to paste them; its output also goes to $OutFile. Exit 0 (every figure
# agrees) and 3 (some figure differs) are findings, printed; 1, 2 or 4 (a crash, a refused flag, a document compare
# could not read, e.g. an exposition its strict reader refuses) fail the step. Returns the exit code.
function Invoke-Compare {
  param([Parameter(Mandatory)][string[]]$CompareArgs, [Parameter(Mandatory)][string]$OutFile)
  $java = Join-Path $env:JAVA_HOME 'bin\java.exe'
  $err = Join-Path $env:RUNNER_TEMP 'compare.err.log'
  & $java '@deploy/jvm.options' -jar exporter/target/winstats-exporter.jar compare --all @CompareArgs > $OutFile 2> $err
  $code = $LASTEXITCODE
  Write-Host "compare $($CompareArgs -join ' '): exit $code"
  Get-Content -LiteralPath $OutFile | Write-Host
  if ((Get-Item -LiteralPath $err).Length -gt 0) {
    Write-Host "----- $err"
    Get-Content -LiteralPath $err | Write-Host
  }
  if ($env:GITHUB_STEP_SUMMARY) {
    @("### compare (exit $code)", '', '```', (Get-Content -LiteralPath $OutFile), '```', '') |
      Out-File -LiteralPath $env:GITHUB_STEP_SUMMARY -Append -Encoding utf8
  }
  if ($code -notin 0, 3) { throw "compare exited with $code (1: it crashed, 2: a flag was refused, 4: unreadable)" }
  return $code
}

# Starts any program with its stdout and stderr in files under RUNNER_TEMP; only for use inside try/finally.
function Start-Logged {
  param(
    [Parameter(Mandatory)][string]$FilePath,
    [Parameter(Mandatory)][string[]]$Arguments,
    [Parameter(Mandatory)][string]$Name,
    [int]$Port = 0
  )
  # A started process and where its output goes; Stop-Daemon prints the output of one that failed.
  $started = [pscustomobject]@{
    Process = $null
    Name = $Name
    Port = $Port
    Out = Join-Path $env:RUNNER_TEMP "$Name.out.log"
    Err = Join-Path $env:RUNNER_TEMP "$Name.err.log"
  }
  $started.Process = Start-Process -FilePath $FilePath -ArgumentList $Arguments -PassThru -NoNewWindow `
    -RedirectStandardOutput $started.Out -RedirectStandardError $started.Err
  $null = $started.Process.Handle  # keeps the handle, so that ExitCode can be read once the process has exited
  Write-Host "$Name pid $($started.Process.Id): $FilePath $($Arguments -join ' ')"
  return $started
}

# Waits until GET http://127.0.0.1:Port/Path answers 200 (windows_exporter, which has no /stats/summary).
function Wait-Http {
  param([Parameter(Mandatory)]$Started, [string]$Path = '/metrics', [int]$TimeoutSeconds = 120)
  $deadline = (Get-Date).AddSeconds($TimeoutSeconds)
  while ($true) {
    if ($Started.Process.HasExited) {
      Show-ProcessOutput $Started
      throw "$($Started.Name) exited with code $($Started.Process.ExitCode)"
    }
    try {
      $null = Invoke-WebRequest -UseBasicParsing -TimeoutSec 10 -Uri "http://127.0.0.1:$($Started.Port)$Path"
      return
    } catch {
      if ((Get-Date) -gt $deadline) {
        Show-ProcessOutput $Started
        throw "$($Started.Name): no $Path within $TimeoutSeconds s"
      }
    }
    Start-Sleep -Seconds 1
  }
}

function Show-ProcessOutput($Started) {
  foreach ($file in $Started.Err, $Started.Out) {
    Write-Host "----- $file (last 200 lines)"
    Get-Content -LiteralPath $file -Tail 200 -ErrorAction SilentlyContinue | Write-Host
  }
}

# The runtime's side of a failure: containerd's log and what crictl sees. Each crictl call has its own deadline
# (crictl's default is 2 s: cri-tools v1.33.0 cmd/crictl/main.go:48-49), and none of them can fail the caller.
function Show-RuntimeState {
  if (Get-Command crictl.exe -ErrorAction SilentlyContinue) {
    Write-Host '----- crictl pods'
    try { crictl.exe --timeout 60s pods 2>&1 | Write-Host } catch { Write-Host "crictl pods: $_" }
    Write-Host '----- crictl ps -a'
    try { crictl.exe --timeout 60s ps -a 2>&1 | Write-Host } catch { Write-Host "crictl ps: $_" }
  }
  $log = Join-Path $env:RUNNER_TEMP 'containerd.log'
  if (Test-Path -LiteralPath $log) {
    Write-Host "----- $log (last 200 lines)"
    Get-Content -LiteralPath $log -Tail 200 | Write-Host
  }
  Get-Service containerd -ErrorAction SilentlyContinue | Format-List Name, Status | Out-String | Write-Host
}

# Stops what Start-Daemon/Start-Logged started; prints its output (and the runtime's state) unless the checks passed.
# Never throws: it runs in finally blocks, where a throw would hide the check's own error.
function Stop-Daemon {
  param([object[]]$Started, [switch]$Passed, [switch]$Runtime)
  foreach ($s in $Started) {
    if ($null -eq $s -or $null -eq $s.Process) { continue }
    try {
      if (-not $s.Process.HasExited) {
        Stop-Process -Id $s.Process.Id -Force -ErrorAction SilentlyContinue
        $null = $s.Process.WaitForExit(15000)
      }
    } catch {
      Write-Host "stopping $($s.Name): $_"
    }
    if (-not $Passed) { Show-ProcessOutput $s }
  }
  if (-not $Passed -and $Runtime) { Show-RuntimeState }
}

# One series' value from a Prometheus text body, invariant culture ("1.7179332608E10" parses).
function Get-Metric([string]$Body, [string]$Name) {
  $m = [regex]::Match($Body, "(?m)^$Name (\S+)")
  if (-not $m.Success) { throw "no series $Name" }
  [double]::Parse($m.Groups[1].Value, [Globalization.CultureInfo]::InvariantCulture)
}

function Get-Body([int]$Port, [string]$Path) {
  (Invoke-WebRequest -UseBasicParsing -TimeoutSec 30 -Uri "http://127.0.0.1:$Port$Path").Content
}
