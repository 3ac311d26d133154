# Functions the containerd, cost and record jobs dot-source: containerd for Windows as a service, crictl, and
# HostProcess pods (no CNI needed: they share the host's network).
#
# crictl's deadlines: cri-tools v1.33.0 gives every call 2 s unless --timeout is passed (cmd/crictl/main.go:48-49; its
# 200 s Windows default applies only to an explicit --timeout 0, :261-266, 352-356); RunPodSandbox gets twice that,
# CreateContainer and StartContainer the timeout itself (vendor/k8s.io/cri-client/pkg/remote_runtime.go:192-199,
# 319-321, 350-352). On a cold runner StartContainer mounts the nanoserver layers and builds the job object, which
# takes longer: every crictl call here passes --timeout (WindowsWorkflowTest holds it). A pull is not bounded by
# --timeout (cri-client's PullImage has no deadline), only by the step's timeout-minutes.
#
# containerd runs as a Windows service (--register-service: cmd/containerd/command/service_windows.go:123-163 at
# v2.1.1, the same in 2.0 and 2.3), started by the Service Control Manager, not as a child of a step's shell, so it and
# its shims outlive the step that started it; the runner's end-of-step kill (daemon.ps1) does not reach them.

$CrictlPull = '5m'     # connection deadline for pulls; the pull itself is bounded by the step's timeout-minutes
$CrictlCreate = '3m'   # runp, create, start, stop, rm on a cold runner
$CrictlQuery = '60s'   # pods, ps, stats, version

# Installs containerd VERSION (archive checked against the workflow's pin and the release's .sha256sum) and crictl
# (checked against its release's .sha256), writes the default config with SandboxImage as the pod sandbox image,
# registers and starts the service, and waits for its pipe.
function Install-Containerd {
  param(
    [Parameter(Mandatory)][string]$Version,
    [Parameter(Mandatory)][string]$Sha256,
    [Parameter(Mandatory)][string]$CrictlVersion,
    [Parameter(Mandatory)][string]$SandboxImage
  )
  $PSNativeCommandUseErrorActionPreference = $true
  $archive = "containerd-$Version-windows-amd64.tar.gz"
  $url = "https://github.com/containerd/containerd/releases/download/v$Version/$archive"
  & "$PSScriptRoot/download-checked.ps1" -Url $url -Sha256 $Sha256 -Sha256Url "$url.sha256sum" `
    -OutFile "$env:RUNNER_TEMP\containerd.tar.gz"
  # No record of crictl's Windows archive outside its own release was found: checked against the one it publishes.
  $crictl = "https://github.com/kubernetes-sigs/cri-tools/releases/download/v$CrictlVersion/crictl-v$CrictlVersion-windows-amd64.tar.gz"
  & "$PSScriptRoot/download-checked.ps1" -Url $crictl -Sha256Url "$crictl.sha256" -OutFile "$env:RUNNER_TEMP\crictl.tar.gz"
  $dir = Join-Path $env:ProgramFiles 'containerd'
  New-Item -ItemType Directory -Force -Path "$dir\bin" | Out-Null
  # Windows' own bsdtar, not whichever tar the PATH finds first (Git's GNU tar reads C: as a remote host).
  $tar = Join-Path $env:SystemRoot 'System32\tar.exe'
  & $tar -xzf "$env:RUNNER_TEMP\containerd.tar.gz" -C $dir
  & $tar -xzf "$env:RUNNER_TEMP\crictl.tar.gz" -C "$dir\bin"
  "$dir\bin" | Out-File -Append -Encoding utf8 $env:GITHUB_PATH
  $env:PATH = "$dir\bin;$env:PATH"
  # The default configuration, where containerd on Windows looks for it (%ProgramFiles%\containerd), with the sandbox
  # image set to SandboxImage: containerd 2.0's default is pause:3.10 (v2.0.5 internal/cri/config/config.go:73), which
  # has no ltsc2025 variant, so a Windows Server 2025 runner could not pull it; 2.3's is pause:3.10.2 (v2.3.1 :76,
  # containerd#13156), the first with one (kubernetes build/pause/CHANGELOG.md 3.10.2). The key is
  # [plugins.'io.containerd.cri.v1.images'.pinned_images] sandbox in both (config_windows.go:35 at v2.0.5).
  $config = (& "$dir\bin\containerd.exe" config default | Out-String)
  $pattern = "(?m)^(\s*sandbox(?:_image)?\s*=\s*)['""][^'""]*['""]"
  if ($config -notmatch $pattern) { Write-Host $config; throw 'no sandbox image setting in containerd config default' }
  $config = [regex]::Replace($config, $pattern, "`${1}'$SandboxImage'")
  $config | Out-File -Encoding ascii "$dir\config.toml"
  Select-String -LiteralPath "$dir\config.toml" -Pattern 'sandbox' | Write-Host
  & "$dir\bin\containerd.exe" --register-service --log-level debug --log-file "$env:RUNNER_TEMP\containerd.log"
  Start-Service containerd
  Wait-Containerd
  crictl.exe --timeout $CrictlQuery version
}

# Waits until containerd answers on its pipe (CRI version); returns when it did, throws after TimeoutSeconds.
function Wait-Containerd([int]$TimeoutSeconds = 120) {
  $PSNativeCommandUseErrorActionPreference = $false  # a refused call is an answer to wait for, not an error
  $deadline = (Get-Date).AddSeconds($TimeoutSeconds)
  while ($true) {
    if (Test-Path '\\.\pipe\containerd-containerd') {
      crictl.exe --timeout 5s version *> $null
      if ($LASTEXITCODE -eq 0) { return Get-Date }
    }
    if ((Get-Date) -gt $deadline) { throw "containerd did not answer on its pipe within $TimeoutSeconds s" }
    Start-Sleep -Milliseconds 200
  }
}

# Runs one HostProcess pod with one container running Command, as the kubelet sends it
# (windows.security_context.host_process on the pod and on each container; containerd refuses a container whose flag
# differs from its pod's: container_create.go:948-954 at v2.1.1), as crictl reads JSON (cmd/crictl/util.go:236-256).
# Returns the pod and container IDs once the container runs.
function New-HostProcessPod {
  param(
    [Parameter(Mandatory)][string]$Name,
    [Parameter(Mandatory)][string]$Container,
    [Parameter(Mandatory)][string[]]$Command,
    [Parameter(Mandatory)][string]$Image,
    [string]$Namespace = 'winstats-ci'
  )
  $PSNativeCommandUseErrorActionPreference = $true
  $security = @{ security_context = @{ host_process = $true; run_as_username = 'NT AUTHORITY\SYSTEM' } }
  $podConfig = Join-Path $env:RUNNER_TEMP "pod-$Name.json"
  $containerConfig = Join-Path $env:RUNNER_TEMP "container-$Name.json"
  @{
    metadata = @{ name = $Name; namespace = $Namespace; uid = "$Name-uid"; attempt = 0 }
    windows = $security
  } | ConvertTo-Json -Depth 5 | Out-File -Encoding ascii $podConfig
  @{
    metadata = @{ name = $Container }
    image = @{ image = $Image }
    command = $Command
    windows = $security
  } | ConvertTo-Json -Depth 5 | Out-File -Encoding ascii $containerConfig
  $pod = (crictl.exe --timeout $CrictlCreate runp $podConfig | Out-String).Trim()
  $id = (crictl.exe --timeout $CrictlCreate create $pod $containerConfig $podConfig | Out-String).Trim()
  crictl.exe --timeout $CrictlCreate start $id
  $deadline = (Get-Date).AddSeconds(120)
  while (-not (crictl.exe --timeout $CrictlQuery ps -q --id $id)) {
    if ((Get-Date) -gt $deadline) { throw "container $Container of pod $Name is not running after 120 s" }
    Start-Sleep -Seconds 1
  }
  Write-Host "pod $Name ($pod) runs container $Container ($id)"
  [pscustomobject]@{ Name = $Name; Pod = $pod; Container = $id }
}

# Pulls the sandbox and container images, each with its connection deadline.
function Get-Images([string[]]$Images) {
  $PSNativeCommandUseErrorActionPreference = $true
  foreach ($image in $Images) { crictl.exe --timeout $CrictlPull pull $image }
}

# Removes every pod; never fails: it runs in clean-up steps, where a failed removal must not turn a passed job red.
function Remove-AllPods {
  if (-not (Get-Command crictl.exe -ErrorAction SilentlyContinue)) { return }
  try {
    crictl.exe --timeout $CrictlCreate rmp -f -a 2>&1 | Write-Host
  } catch {
    Write-Host "crictl rmp: $_"
  }
  $global:LASTEXITCODE = 0
}
