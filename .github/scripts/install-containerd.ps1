# Installs containerd VERSION for Windows as a service and crictl, and waits until containerd answers (containerd.ps1).
# The archive is checked against the workflow's pinned SHA-256 and the release's own .sha256sum, which must agree.
param(
  [Parameter(Mandatory)][string]$Version,
  [Parameter(Mandatory)][string]$Sha256,
  [Parameter(Mandatory)][string]$CrictlVersion,
  [Parameter(Mandatory)][string]$SandboxImage
)
$ErrorActionPreference = 'Stop'
. "$PSScriptRoot/daemon.ps1"
. "$PSScriptRoot/containerd.ps1"
try {
  Install-Containerd -Version $Version -Sha256 $Sha256 -CrictlVersion $CrictlVersion -SandboxImage $SandboxImage
} catch {
  Show-RuntimeState
  throw
}
exit 0
