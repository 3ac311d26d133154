# Every Windows job that builds the jar runs check first, before its own daemon starts and with the flags that daemon
# gets: one row per part the daemon depends on (PDH, containerd and its stats calls, task metrics, HNS, the listen
# address), in the job's log and step summary, as a first Windows user is asked to paste them. What check finds is
# printed, not a failure of this step: a job without containerd has no runtime, so its runtime row fails (exit 4).
# A crash or a refused flag fails it (Invoke-Check, daemon.ps1).
param([Parameter(Mandatory)][string[]]$CheckArgs)
$ErrorActionPreference = 'Stop'
. "$PSScriptRoot/daemon.ps1"
$code = Invoke-Check -CheckArgs $CheckArgs
Write-Host "check found: $(@{ 0 = 'every part ok'; 3 = 'a part degraded'; 4 = 'a part failed' }[$code])"
exit 0
