# Pulls the images and runs HostProcess pods under the containerd that install-containerd.ps1 started: with -Burner,
# pod "burner" whose container "burn" loops on one core; then Sleepers pods "idle-N" whose container waits (one ping of
# the loopback a second, ~0 CPU). Pods run in containerd's shims, which outlive this step (containerd.ps1). On a
# failure, prints containerd's log and what crictl sees.
param([switch]$Burner, [int]$Sleepers = 0, [Parameter(Mandatory)][string]$Image, [Parameter(Mandatory)][string]$SandboxImage)
$ErrorActionPreference = 'Stop'
. "$PSScriptRoot/daemon.ps1"
. "$PSScriptRoot/containerd.ps1"
try {
  Get-Images $SandboxImage, $Image
  if ($Burner) {
    # hcsshim joins the escaped args and, with bindflt, prefixes "cmd /c " (v0.13.0 internal/cmd/cmd.go:103-106,
    # internal/jobcontainers/jobcontainer.go:332); cmd strips the outer quotes, so this loops forever on one core.
    $null = New-HostProcessPod -Name burner -Container burn -Image $Image -Command 'cmd.exe', '/c', 'for /l %i in (0,0,1) do @rem'
  }
  for ($i = 1; $i -le $Sleepers; $i++) {
    $null = New-HostProcessPod -Name "idle-$i" -Container idle -Image $Image -Command 'ping.exe', '-n', '86400', '127.0.0.1'
  }
  crictl.exe --timeout $CrictlQuery pods
  crictl.exe --timeout $CrictlQuery ps
} catch {
  Show-RuntimeState
  throw
}
exit 0
