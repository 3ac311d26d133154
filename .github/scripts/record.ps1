# record job: a minute of this runner's real counters, as --node.source=pdh --record=FILE writes them (a PDH-CSV
# counter log that --node.source=replay:FILE replays), for collector-perfcounters' fixtures
# (collector-perfcounters/src/test/resources/perfmon/README.md says how to add one). Fails unless the log has the
# columns the stock "USE Method / Node (Windows)" panels need and today's real fixtures lack (the list is
# .github/record-columns.txt, which a Linux test holds against the header the recorder writes for group,index cores);
# and a row per second. The daemon is started, waited on and stopped in this one
# script (why: daemon.ps1).
param([Parameter(Mandatory)][string]$OutFile, [int]$Seconds = 60)
$ErrorActionPreference = 'Stop'
. "$PSScriptRoot/daemon.ps1"
New-Item -ItemType Directory -Force -Path (Split-Path -Parent $OutFile) | Out-Null
$daemon = Start-Daemon -DaemonArgs '--node.source=pdh', '--sampling.interval=1s', "--record=$OutFile", '--cri.timeout=1s'
$passed = $false
try {
  Start-Sleep -Seconds $Seconds
  $passed = $true
} finally {
  Stop-Daemon $daemon -Passed:$passed
}
$lines = @(Get-Content -LiteralPath $OutFile)
$header = $lines[0]
$failures = @()
$required = @(Get-Content -LiteralPath "$PSScriptRoot/../record-columns.txt" | Where-Object { $_.Trim() -and -not $_.StartsWith('#') })
if ($required.Count -eq 0) { throw 'record-columns.txt lists no column' }
foreach ($column in $required) {
  if (-not $header.Contains($column)) { $failures += "the log has no $column column" }
}
if ($lines.Count - 1 -lt $Seconds * 0.8) { $failures += "$($lines.Count - 1) rows in $Seconds s at 1 s" }
Write-Host "$OutFile`: $($lines.Count - 1) rows, $(($header -split '","').Count) columns, $((Get-Item $OutFile).Length) bytes"
if ($failures.Count -gt 0) { $failures | ForEach-Object { Write-Host "::error::$_" }; throw 'the recorded log is incomplete' }
exit 0
