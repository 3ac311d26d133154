# Starts the daemon's jar in the background, listening on 127.0.0.1:PORT, and waits until /stats/summary answers (and
# lists pod POD, when given). The process outlives the step; the clean-up step stops it by the DAEMON_PID this writes
# to GITHUB_ENV. Fails, with the daemon's stderr, if the daemon exits or the deadline passes.
# Usage: start-daemon.ps1 -DaemonArgs ARG[,ARG...] [-Port N] [-Pod NAME] [-TimeoutSeconds N]
param(
  [Parameter(Mandatory)][string[]]$DaemonArgs,
  [int]$Port = 9182,
  [string]$Pod = '',
  [int]$TimeoutSeconds = 90
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
$java = Join-Path $env:JAVA_HOME 'bin\java.exe'
$arguments = @('-jar', 'exporter/target/winstats-exporter.jar', "--web.listen-address=127.0.0.1:$Port") + $DaemonArgs
$stderr = Join-Path $env:RUNNER_TEMP 'daemon.err'
$p = Start-Process -FilePath $java -ArgumentList $arguments -PassThru -NoNewWindow `
  -RedirectStandardOutput (Join-Path $env:RUNNER_TEMP 'daemon.out') -RedirectStandardError $stderr
$null = $p.Handle  # keeps the handle, so that ExitCode can be read once the process has exited
"DAEMON_PID=$($p.Id)" | Out-File -Append -Encoding utf8 $env:GITHUB_ENV
Write-Host "daemon pid $($p.Id): java $($arguments -join ' ')"
$deadline = (Get-Date).AddSeconds($TimeoutSeconds)
while ($true) {
  if ($p.HasExited) {
    Get-Content $stderr
    throw "the daemon exited with code $($p.ExitCode)"
  }
  try {
    $summary = (Invoke-WebRequest -UseBasicParsing -Uri "http://127.0.0.1:$Port/stats/summary").Content | ConvertFrom-Json
    if (-not $Pod -or ($summary.pods | Where-Object { $_.podRef.name -eq $Pod })) {
      break
    }
  } catch {
    # 503 until the first sample, connection refused until the server listens
  }
  if ((Get-Date) -gt $deadline) {
    Get-Content $stderr
    throw "no /stats/summary$(if ($Pod) { " listing pod $Pod" }) within $TimeoutSeconds s"
  }
  Start-Sleep -Seconds 1
}
Write-Host "the daemon answers on 127.0.0.1:$Port"
