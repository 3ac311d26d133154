# containerd job: the real jar reading a real containerd for Windows over its named pipe, with the HostProcess pod
# "burner" (run by run-pods.ps1) whose container burns a core. Its container CPU is checked between two readings of
# containerd's own (crictl stats) and between two readings of the container's job object (QueryInformationJobObject on
# Global\JobContainer_<id>, as windows_exporter reads HostProcess containers), its working set against crictl's, and
# its series as windows_exporter labels them. The figures the daemon reads from containerd's Tasks service and
# Snapshots service (--cri.windows-stats=tasks, issue 32) are checked against the same job object, which is what
# hcsshim's job container reports them from (internal/jobcontainers/jobcontainer.go:514-567@v0.13.0): user and kernel
# time (JobObjectBasicAccountingInformation), commit peak (JobObjectMemoryUsageInformation: PeakJobMemoryUsed),
# storage I/O (JobObjectIoAttribution), and the pod's process count (the job's active processes plus the sandbox task's
# one, as containerd's getSandboxPidCount sums them); the writable layer against crictl's (containerd's own snapshot
# store). Packets: a HostProcess pod shares the host's network and has no HNS endpoint of its own, so no pod packet
# figure exists here; the check is that the daemon's HNS call worked (no hns_fallback). Then the fault: containerd
# restarted once under scrape load, as the
# Linux RuntimeFaultsIT does (exporter/src/test/java/io/winstats/exporter/RuntimeFaultsIT.java): node figures in every
# scrape, no failed scrape, the pods back (fresh, container_scrape_error 0) within three sampling rounds plus 2 s of
# containerd answering again. The daemon is started, checked and stopped in this one script (why: daemon.ps1).
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
  [StructLayout(LayoutKind.Sequential)]
  struct MemoryUsage { public ulong JobMemory, PeakJobMemoryUsed; }
  [StructLayout(LayoutKind.Sequential)]
  struct IoStats { public UIntPtr IoCount; public ulong QueueTime, ServiceTime, TotalSize; }
  [StructLayout(LayoutKind.Sequential)]
  struct IoAttribution { public uint ControlFlags; public IoStats Read, Write; }
  public sealed class Reading {
    // Times in 100 ns units, as the job object counts them.
    public long User, Kernel;
    public uint ActiveProcesses;
    public ulong PeakCommit, ReadCount, ReadBytes, WriteCount, WriteBytes;
  }
  [DllImport("kernel32.dll", SetLastError = true, CharSet = CharSet.Unicode)]
  static extern IntPtr OpenJobObjectW(uint access, bool inherit, string name);
  [DllImport("kernel32.dll", SetLastError = true)]
  static extern bool QueryInformationJobObject(IntPtr job, int infoClass, IntPtr info, int length, IntPtr returned);
  [DllImport("kernel32.dll")]
  static extern bool CloseHandle(IntPtr handle);
  static T Query<T>(IntPtr job, int infoClass, T value) where T : struct {
    int size = Marshal.SizeOf(typeof(T));
    IntPtr buffer = Marshal.AllocHGlobal(size);
    try {
      Marshal.StructureToPtr(value, buffer, false);
      if (!QueryInformationJobObject(job, infoClass, buffer, size, IntPtr.Zero)) {
        throw new Exception("QueryInformationJobObject(" + infoClass + "): " + Marshal.GetLastWin32Error());
      }
      return (T) Marshal.PtrToStructure(buffer, typeof(T));
    } finally { Marshal.FreeHGlobal(buffer); }
  }
  // The figures hcsshim's job container reports from the same job (jobcontainer.go:514-567@v0.13.0).
  public static Reading Read(string name) {
    IntPtr job = OpenJobObjectW(0x0004 /* JOB_OBJECT_QUERY */, false, name);
    if (job == IntPtr.Zero) throw new Exception("OpenJobObject " + name + ": " + Marshal.GetLastWin32Error());
    try {
      // 1: JobObjectBasicAccountingInformation, 28: JobObjectMemoryUsageInformation, 42: JobObjectIoAttribution
      // (ControlFlags JOBOBJECT_IO_ATTRIBUTION_CONTROL_ENABLE, as hcsshim's QueryStorageStats asks).
      BasicAccounting a = Query(job, 1, new BasicAccounting());
      MemoryUsage m = Query(job, 28, new MemoryUsage());
      IoAttribution io = Query(job, 42, new IoAttribution { ControlFlags = 1 });
      return new Reading {
        User = a.TotalUserTime, Kernel = a.TotalKernelTime, ActiveProcesses = a.ActiveProcesses,
        PeakCommit = m.PeakJobMemoryUsed,
        ReadCount = io.Read.IoCount.ToUInt64(), ReadBytes = io.Read.TotalSize,
        WriteCount = io.Write.IoCount.ToUInt64(), WriteBytes = io.Write.TotalSize
      };
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
function DaemonPod() {
  $s = Get-Body 9182 '/stats/summary' | ConvertFrom-Json
  $s.pods | Where-Object { $_.podRef.name -eq 'burner' }
}
# The value of the burn container's series $Name in the /metrics text $Text, or $null.
function Series([string]$Text, [string]$Name) {
  $m = [regex]::Match($Text, "(?m)^$Name\{container=`"burn`",[^}]*\} (\S+)")
  if (-not $m.Success) { return $null }
  [double]::Parse($m.Groups[1].Value, [Globalization.CultureInfo]::InvariantCulture)
}
# Appends to $script:failures unless $Low <= $Value <= $High (cumulative figures read between two references).
function Assert-Between([string]$What, $Value, [double]$Low, [double]$High) {
  Write-Host "${What}: daemon $Value, reference $Low..$High"
  if ($null -eq $Value) { $script:failures += "${What}: not served"; return }
  # A series in seconds carries a double's rounding of the job's 100 ns ticks.
  $slack = [math]::Max(1e-9 * [math]::Abs($High), 1e-6)
  if ($Value -lt $Low - $slack -or $Value -gt $High + $slack) { $script:failures += "${What}: daemon $Value outside $Low..$High" }
}
# Appends to $script:failures unless $Value is within $Tolerance of $Reference.
function Assert-Near([string]$What, $Value, [double]$Reference, [double]$Tolerance) {
  Write-Host "${What}: daemon $Value, reference $Reference"
  if ($null -eq $Value) { $script:failures += "${What}: not served"; return }
  if ([math]::Abs([double]$Value - $Reference) -gt $Tolerance) {
    $script:failures += "${What}: daemon $Value, reference $Reference (tolerance $Tolerance)"
  }
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
  # The process count and writable layer are asked at most once per 10 s (the daemon's cache, containerd's
  # stats_collect_period): past the first 10 s, both are of this steady burner.
  $job = "Global\JobContainer_$id"
  Start-Sleep -Seconds 11
  $c0 = [double](ContainerdStats).cpu.usageCoreNanoSeconds.value; $j0 = [JobObject]::Read($job)
  Start-Sleep -Seconds 3
  $p = DaemonPod
  $metrics = Get-Body 9182 '/metrics'
  $c1 = [double](ContainerdStats).cpu.usageCoreNanoSeconds.value; $j1 = [JobObject]::Read($job)
  $d = $p.containers | Where-Object { $_.name -eq 'burn' }
  if ($null -eq $d) { throw 'the burner pod or its burn container is not in /stats/summary' }
  $cpu = [double]$d.cpu.usageCoreNanoSeconds
  $jt0 = ($j0.User + $j0.Kernel) * 100; $jt1 = ($j1.User + $j1.Kernel) * 100
  Write-Host "container CPU ns: crictl $c0..$c1, job object $jt0..$jt1, daemon $cpu"
  if ($cpu -lt $c0 -or $cpu -gt $c1) { $failures += "cpu: daemon $cpu outside crictl's $c0..$c1" }
  if ($cpu -lt $jt0 -or $cpu -gt $jt1) { $failures += "cpu: daemon $cpu outside the job object's $jt0..$jt1" }
  if ($c1 - $c0 -lt 1e9) { $failures += "cpu: the burner used $($c1 - $c0) ns in 3 s, under a core-second" }
  $ws = [double]$d.memory.workingSetBytes; $cws = [double](ContainerdStats).memory.workingSetBytes.value
  Write-Host "container working set: daemon $ws, crictl $cws"
  if ($ws -le 0 -or [math]::Abs($ws - $cws) -gt 16MB) { $failures += "working set: daemon $ws, crictl $cws" }
  # Task metrics (Tasks.Metrics) against the job object hcsshim reads them from.
  Assert-Between 'container_cpu_user_seconds_total' (Series $metrics 'container_cpu_user_seconds_total') ($j0.User / 1e7) ($j1.User / 1e7)
  Assert-Between 'container_cpu_system_seconds_total' (Series $metrics 'container_cpu_system_seconds_total') ($j0.Kernel / 1e7) ($j1.Kernel / 1e7)
  Assert-Between 'container_memory_max_usage_bytes' (Series $metrics 'container_memory_max_usage_bytes') $j0.PeakCommit $j1.PeakCommit
  Assert-Between 'container_fs_reads_total' (Series $metrics 'container_fs_reads_total') $j0.ReadCount $j1.ReadCount
  Assert-Between 'container_fs_reads_bytes_total' (Series $metrics 'container_fs_reads_bytes_total') $j0.ReadBytes $j1.ReadBytes
  Assert-Between 'container_fs_writes_total' (Series $metrics 'container_fs_writes_total') $j0.WriteCount $j1.WriteCount
  Assert-Between 'container_fs_writes_bytes_total' (Series $metrics 'container_fs_writes_bytes_total') $j0.WriteBytes $j1.WriteBytes
  # Tasks.ListPids: the job's active processes plus the sandbox task's one (wcowPodSandboxTask.Pids), as containerd's
  # getSandboxPidCount sums them; the burner's processes do not change, so both readings must agree with it.
  $procs = $p.process_stats.process_count
  Assert-Between 'pod process_count' $procs (1 + [math]::Min($j0.ActiveProcesses, $j1.ActiveProcesses)) (1 + [math]::Max($j0.ActiveProcesses, $j1.ActiveProcesses))
  # Snapshots.Usage against containerd's own snapshot store (the figure crictl and the kubelet get; both come from
  # the windows snapshotter's Usage of the same snapshot, at most 10 s apart on a layer nobody writes).
  Assert-Near 'rootfs.usedBytes' $d.rootfs.usedBytes ([double](ContainerdStats).writableLayer.usedBytes.value) 1MB
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
  if ($metrics -match 'reason="hns_fallback"') { $failures += 'the daemon fell back from HNS to CRI stats' }
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
