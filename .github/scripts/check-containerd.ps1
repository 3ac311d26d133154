# containerd job: the real jar reading a real containerd for Windows over its named pipe, with the HostProcess pod
# "burner" (run by run-pods.ps1) whose container burns a core. Its container CPU is checked between two readings of
# containerd's own (crictl stats) and between two readings of the container's job object (QueryInformationJobObject on
# Global\JobContainer_<id>, as windows_exporter reads HostProcess containers), its working set against crictl's, and
# its series as windows_exporter labels them. Then the fault: containerd restarted once under scrape load, as the
# Linux RuntimeFaultsIT does (exporter/src/test/java/io/winstats/exporter/RuntimeFaultsIT.java): node figures in every
# scrape, no failed scrape, the pods back (fresh, container_scrape_error 0) within two sampling rounds of containerd
# answering again. The daemon is started, checked and stopped in this one script (why: daemon.ps1).
param([int]$IntervalSeconds = 1)
$ErrorActionPreference = 'Stop'
. "$PSScriptRoot/daemon.ps1"
. "$PSScriptRoot/containerd.ps1"

Add-Type -TypeDefinition @'
using System;
using System.Runtime.InteropServices;
public static class JobObject {
  [StructLayout(LayoutKind.Sequential)]
  struct BasicAccounting {
    public long TotalUserTime, TotalKernelTime, ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime;
    public uint TotalPageFaultCount, TotalProcesses, ActiveProcesses, TotalTerminatedProcesses;
  }
  [DllImport("kernel32.dll", SetLastError = true, CharSet = CharSet.Unicode)]
  static extern IntPtr OpenJobObjectW(uint access, bool inherit, string name);
  [DllImport("kernel32.dll", SetLastError = true)]
  static extern bool QueryInformationJobObject(
      IntPtr job, int infoClass, out BasicAccounting info, int length, IntPtr returned);
  [DllImport("kernel32.dll")]
  static extern bool CloseHandle(IntPtr handle);
  // User plus kernel time of every process the job ever held, in 100 ns units.
  public static long CpuTicks(string name) {
    IntPtr job = OpenJobObjectW(0x0004 /* JOB_OBJECT_QUERY */, false, name);
    if (job == IntPtr.Zero) throw new Exception("OpenJobObject " + name + ": " + Marshal.GetLastWin32Error());
    try {
      BasicAccounting a;
      int size = Marshal.SizeOf(typeof(BasicAccounting));
      // 1: JobObjectBasicAccountingInformation
      if (!QueryInformationJobObject(job, 1, out a, size, IntPtr.Zero)) {
        throw new Exception("QueryInformationJobObject: " + Marshal.GetLastWin32Error());
      }
      return a.TotalUserTime + a.TotalKernelTime;
    } finally { CloseHandle(job); }
  }
}
'@

$id = (crictl.exe --timeout $CrictlQuery ps -q --name '^burn$' | Out-String).Trim()
if (-not $id) { throw 'no running burn container (run-pods.ps1 runs it)' }
# Not named Crictl: PowerShell finds a function before an application, case-insensitively, so a function
# Crictl calling crictl would call itself.
function ContainerdStats() {
  (crictl.exe --timeout $CrictlQuery stats -o json --id $id | Out-String | ConvertFrom-Json).stats[0]
}
function Daemon() {
  $s = Get-Body 9182 '/stats/summary' | ConvertFrom-Json
  ($s.pods | Where-Object { $_.podRef.name -eq 'burner' }).containers | Where-Object { $_.name -eq 'burn' }
}

$daemon = Start-Daemon -Pod burner -DaemonArgs '--node.source=pdh', "--sampling.interval=$($IntervalSeconds)s",
  '--cri.endpoint=npipe:////./pipe/containerd-containerd'
$passed = $false
try {
  $PSNativeCommandUseErrorActionPreference = $true
  $failures = @()
  # The daemon serves a sample taken at most one interval (1 s) plus a round before the request: read the
  # references, wait three intervals, read the daemon, read the references again; the daemon's cumulative CPU
  # lies between.
  $job = "Global\JobContainer_$id"
  $c0 = [double](ContainerdStats).cpu.usageCoreNanoSeconds.value; $j0 = [JobObject]::CpuTicks($job) * 100
  Start-Sleep -Seconds 3
  $d = Daemon
  $c1 = [double](ContainerdStats).cpu.usageCoreNanoSeconds.value; $j1 = [JobObject]::CpuTicks($job) * 100
  if ($null -eq $d) { throw 'the burner pod or its burn container is not in /stats/summary' }
  $cpu = [double]$d.cpu.usageCoreNanoSeconds
  Write-Host "container CPU ns: crictl $c0..$c1, job object $j0..$j1, daemon $cpu"
  if ($cpu -lt $c0 -or $cpu -gt $c1) { $failures += "cpu: daemon $cpu outside crictl's $c0..$c1" }
  if ($cpu -lt $j0 -or $cpu -gt $j1) { $failures += "cpu: daemon $cpu outside the job object's $j0..$j1" }
  if ($c1 - $c0 -lt 1e9) { $failures += "cpu: the burner used $($c1 - $c0) ns in 3 s, under a core-second" }
  $ws = [double]$d.memory.workingSetBytes; $cws = [double](ContainerdStats).memory.workingSetBytes.value
  Write-Host "container working set: daemon $ws, crictl $cws"
  if ($ws -le 0 -or [math]::Abs($ws - $cws) -gt 16MB) { $failures += "working set: daemon $ws, crictl $cws" }
  $metrics = Get-Body 9182 '/metrics'
  $labels = "container=`"burn`",container_id=`"containerd://$id`""
  foreach ($name in 'windows_container_cpu_usage_seconds_total', 'container_cpu_usage_seconds_total') {
    if ($metrics -notmatch "(?m)^$name\{container=`"burn`",") { $failures += "no $name for burn" }
  }
  # From containerd's task metrics (--cri.windows-stats=tasks, the default; issue 32): the job object's user/kernel
  # split, commit peak and I/O, which CRI stats lack; a fallback to CRI stats would leave them out and be counted.
  foreach ($name in 'windows_container_cpu_usage_seconds_kernelmode', 'windows_container_cpu_usage_seconds_usermode',
      'windows_container_memory_usage_commit_peak_bytes', 'windows_container_storage_read_size_bytes_total',
      'container_cpu_user_seconds_total', 'container_fs_reads_bytes_total') {
    if ($metrics -notmatch "(?m)^$name\{container=`"burn`",") { $failures += "no $name for burn" }
  }
  if ($metrics -match 'reason="tasks_metrics_fallback"') { $failures += 'the daemon fell back from task metrics to CRI stats' }
  # windows_exporter 0.31 labels a HostProcess (job object) container hostprocess="true".
  $pod = 'namespace="winstats-ci",pod="burner"'
  $available = "windows_container_available{$labels,hostprocess=`"true`",$pod} 1"
  if (-not $metrics.Contains($available)) {
    $failures += "no $available"
    $metrics -split "`n" | Where-Object { $_ -like 'windows_container_available*' } | Write-Host
  }
  if ($failures.Count -gt 0) { $failures | ForEach-Object { Write-Host "::error::$_" }; throw "$($failures.Count) checks failed" }

  & "$PSScriptRoot/runtime-fault.ps1" -Port 9182 -IntervalSeconds $IntervalSeconds
  $passed = $true
} finally {
  Stop-Daemon $daemon -Passed:$passed -Runtime
}
exit 0
