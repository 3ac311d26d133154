# Clean-up after the runtime jobs: removes every pod and stops containerd. It cannot fail a job: every step of it is
# allowed to fail, and it ends with exit 0 (the runner's pwsh wrapper would otherwise exit with the last native
# command's code: actions/runner v2.336.0 src/Runner.Worker/Handlers/ScriptHandlerHelpers.cs:61-63).
$ErrorActionPreference = 'Continue'
. "$PSScriptRoot/containerd.ps1"
Remove-AllPods
Stop-Service containerd -Force -ErrorAction SilentlyContinue
exit 0
