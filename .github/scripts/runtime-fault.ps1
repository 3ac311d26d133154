# The fault on Windows: with the daemon answering on 127.0.0.1:PORT and pods running, restarts the containerd service
# once while this script scrapes /metrics and /stats/summary every 250 ms, as the Linux RuntimeFaultsIT does with a
# SIGTERM restart (exporter/src/test/java/io/winstats/exporter/RuntimeFaultsIT.java). Fails unless
#   - no scrape failed (every request answered 200, before, during and after the outage);
#   - every summary carried the node's CPU and memory (the node part does not depend on the runtime);
#   - within three sampling rounds plus 2 s of containerd answering again, a scrape showed container_scrape_error 0
#     and every pod listed before the restart with a sample taken after containerd answered (pods and their shims
#     outlive containerd, so the daemon keeps serving them stale while it is down: stale ones do not count).
# The allowance is for a cold runner: the first round on the new connection asks the runtime's name and version again
# and then Tasks.Metrics across every task, each a shim round trip on a containerd that has just started; CRI Version,
# which Wait-Containerd takes as "up", answers only once CRI has initialised (containerd
# internal/cri/instrument/instrumented_service.go:532-535@v2.3.1, pkg/cri/instrument/instrumented_service.go:1542-1545
# @v1.7.20), so the clock starts no earlier than the runtime could answer. The measured figure is printed whether the
# check passes or not.
# Called inside check-containerd.ps1's try block, which owns the daemon.
param([int]$Port = 9182, [Parameter(Mandatory)][int]$IntervalSeconds, [int]$AllowanceMilliseconds = 2000)
$ErrorActionPreference = 'Stop'
. "$PSScriptRoot/daemon.ps1"
. "$PSScriptRoot/containerd.ps1"

function Read-Daemon {
  $at = (Get-Date).ToUniversalTime()
  $r = [ordered]@{ At = $at; Failure = $null; Node = $false; ScrapeError = $null; Pods = @{} }
  try {
    $r.ScrapeError = Get-Metric (Get-Body $Port '/metrics') 'container_scrape_error'
    $s = Get-Body $Port '/stats/summary' | ConvertFrom-Json
    $r.Node = ($null -ne $s.node.cpu.usageCoreNanoSeconds) -and ($null -ne $s.node.memory.workingSetBytes)
    foreach ($p in $s.pods) {
      $r.Pods[$p.podRef.name] = if ($p.cpu.time) { ([datetime]$p.cpu.time).ToUniversalTime() } else { [datetime]::MinValue }
    }
  } catch {
    $r.Failure = "$_"
  }
  [pscustomobject]$r
}

$allowed = [timespan]::FromMilliseconds(3 * $IntervalSeconds * 1000 + $AllowanceMilliseconds)
$before = Read-Daemon
if ($before.Failure -or $before.ScrapeError -ne 0) { throw "before the restart: $($before.Failure) scrape_error=$($before.ScrapeError)" }
$pods = @($before.Pods.Keys)
Write-Host "fault: pods before the restart: $($pods -join ', ')"

# The restart runs in a background job (a child pwsh of this step, ended with it) while this loop scrapes.
$restart = Start-Job -ArgumentList $PSScriptRoot -ScriptBlock {
  param($scripts)
  . "$scripts/containerd.ps1"
  Start-Sleep -Seconds 5
  $down = (Get-Date).ToUniversalTime()
  Restart-Service containerd -Force
  $up = (Wait-Containerd -TimeoutSeconds 180).ToUniversalTime()
  [pscustomobject]@{ Down = $down; Up = $up }
}
$reads = [System.Collections.Generic.List[object]]::new()
$times = $null
$end = (Get-Date).AddMinutes(5)
while ((Get-Date) -lt $end) {
  $reads.Add((Read-Daemon))
  if ($null -eq $times -and $restart.State -in 'Completed', 'Failed', 'Stopped') {
    $received = Receive-Job $restart -Wait -ErrorAction Stop | Select-Object -Last 1
    # Deserialised from the job's process: both instants back to UTC before any comparison (DateTime compares ticks).
    $times = [pscustomobject]@{
      Down = ([datetime]$received.Down).ToUniversalTime()
      Up = ([datetime]$received.Up).ToUniversalTime()
    }
    Write-Host "fault: containerd restarted at $($times.Down.ToString('o')), answered again at $($times.Up.ToString('o'))"
  }
  # Scrape on for two rounds past the allowance, so that a slow recovery is measured rather than cut off.
  if ($times -and (Get-Date).ToUniversalTime() -gt $times.Up.Add($allowed).AddSeconds(2 * $IntervalSeconds)) { break }
  Start-Sleep -Milliseconds 250
}
Remove-Job $restart -Force
if ($null -eq $times) { throw 'containerd did not answer again within 5 minutes of its restart' }

$failed = @($reads | Where-Object { $_.Failure })
$noNode = @($reads | Where-Object { -not $_.Failure -and -not $_.Node })
$errorSeen = @($reads | Where-Object { $_.ScrapeError -eq 1 }).Count -gt 0
$recovered = $reads | Where-Object {
  $r = $_
  -not $r.Failure -and $r.At -ge $times.Up -and $r.ScrapeError -eq 0 -and
  @($pods | Where-Object { -not $r.Pods.ContainsKey($_) -or $r.Pods[$_] -lt $times.Up }).Count -eq 0
} | Select-Object -First 1
$took = if ($recovered) { $recovered.At - $times.Up } else { $null }
$line = ("fault: {0} scrapes (x2 requests), {1} failed, {2} without node figures; container_scrape_error 1 seen: {3};" +
  " down {4:n0} ms; pods fresh {5} after containerd answered (allowed {6:n0} ms)") -f $reads.Count, $failed.Count,
  $noNode.Count, $errorSeen, ($times.Up - $times.Down).TotalMilliseconds,
  $(if ($took) { '{0:n0} ms' -f $took.TotalMilliseconds } else { 'never' }), $allowed.TotalMilliseconds
Write-Host $line
if ($env:GITHUB_STEP_SUMMARY) { "- $line" | Out-File -Append -Encoding utf8 $env:GITHUB_STEP_SUMMARY }

$failures = @()
if ($failed.Count -gt 0) { $failures += "$($failed.Count) scrapes failed, first: $($failed[0].Failure)" }
if ($noNode.Count -gt 0) { $failures += "$($noNode.Count) summaries without node CPU or memory" }
if ($null -eq $took) { $failures += 'the pods never came back fresh with container_scrape_error 0' }
elseif ($took -gt $allowed) { $failures += "pods back $($took.TotalMilliseconds) ms after containerd answered, over the allowed $($allowed.TotalMilliseconds) ms" }
if ($failures.Count -gt 0) { $failures | ForEach-Object { Write-Host "::error::fault: $_" }; throw 'the runtime fault check failed' }
