# node-accuracy: the real jar with the pdh source on the runner, its node figures checked against readings taken
# independently through the Win32 API (GetSystemTimes, GlobalMemoryStatusEx, GetDiskFreeSpaceExW via Add-Type). No
# containerd runs here: the CRI part degrades and the node part must still be served. The daemon is started, checked
# and stopped in this one script (why: .github/scripts/daemon.ps1).
$ErrorActionPreference = 'Stop'
. "$PSScriptRoot/daemon.ps1"

$ProgressPreference = 'SilentlyContinue'
Add-Type -TypeDefinition @'
using System;
using System.Runtime.InteropServices;
public static class Win32 {
  [StructLayout(LayoutKind.Sequential)]
  public struct MEMORYSTATUSEX {
    public uint dwLength; public uint dwMemoryLoad; public ulong ullTotalPhys; public ulong ullAvailPhys;
    public ulong ullTotalPageFile; public ulong ullAvailPageFile; public ulong ullTotalVirtual;
    public ulong ullAvailVirtual; public ulong ullAvailExtendedVirtual;
  }
  [DllImport("kernel32.dll", SetLastError = true)]
  static extern bool GetSystemTimes(out long idle, out long kernel, out long user);
  [DllImport("kernel32.dll", SetLastError = true)]
  static extern bool GlobalMemoryStatusEx(ref MEMORYSTATUSEX status);
  [DllImport("kernel32.dll", SetLastError = true, CharSet = CharSet.Unicode)]
  static extern bool GetDiskFreeSpaceExW(string dir, out ulong freeToCaller, out ulong total, out ulong free);
  // Busy time of all processors in 100 ns units: kernel time includes idle time.
  public static long BusyTicks() {
    long idle, kernel, user;
    if (!GetSystemTimes(out idle, out kernel, out user)) throw new Exception("GetSystemTimes");
    return kernel - idle + user;
  }
  public static MEMORYSTATUSEX Memory() {
    var m = new MEMORYSTATUSEX(); m.dwLength = (uint)Marshal.SizeOf(typeof(MEMORYSTATUSEX));
    if (!GlobalMemoryStatusEx(ref m)) throw new Exception("GlobalMemoryStatusEx");
    return m;
  }
  // Bytes available to the caller, and the volume's capacity, of the volume holding dir.
  public static ulong[] Disk(string dir) {
    ulong available, total, free;
    if (!GetDiskFreeSpaceExW(dir, out available, out total, out free)) {
      throw new Exception("GetDiskFreeSpaceExW");
    }
    return new ulong[] { available, total };
  }
}
'@
$root = Join-Path $env:RUNNER_TEMP 'kubelet-root'
New-Item -ItemType Directory -Force -Path $root | Out-Null

$daemon = Start-Daemon -DaemonArgs '--node.source=pdh', '--sampling.interval=1s', '--node.memory.working-set=physical',
  "--node.kubelet-root-dir=$root", '--cri.timeout=1s'
$passed = $false
try {
  $failures = @()

  # CPU: busy core-seconds over ~30 s from the daemon against GetSystemTimes deltas over the same span.
  $c0 = Get-Metric (Get-Body 9182 '/metrics/resource') 'node_cpu_usage_seconds_total'; $t0 = [Win32]::BusyTicks()
  $burn = Start-Job {
    $end = (Get-Date).AddSeconds(20)
    while ((Get-Date) -lt $end) { [math]::Sqrt(2) | Out-Null }
  }
  Start-Sleep -Seconds 30
  Stop-Job $burn; Remove-Job $burn -Force
  $c1 = Get-Metric (Get-Body 9182 '/metrics/resource') 'node_cpu_usage_seconds_total'; $t1 = [Win32]::BusyTicks()
  $busy = $c1 - $c0; $api = ($t1 - $t0) / 1e7
  Write-Host "cpu busy seconds: daemon $busy, GetSystemTimes $api"
  # The daemon samples every 1 s, so its window is shifted by up to a second of all cores.
  $allowed = [math]::Max(0.15 * $api, [Environment]::ProcessorCount * 1.0)
  if ([math]::Abs($busy - $api) -gt $allowed) { $failures += "cpu: daemon $busy s, GetSystemTimes $api s" }

  # Memory: physical working set = total - available, total exact.
  $summary = Get-Body 9182 '/stats/summary' | ConvertFrom-Json
  $mem = [Win32]::Memory()
  $total = Get-Metric (Get-Body 9182 '/metrics') 'windows_memory_physical_total_bytes'
  if ($total -ne [double]$mem.ullTotalPhys) {
    $failures += "memory total: daemon $total, GlobalMemoryStatusEx $($mem.ullTotalPhys)"
  }
  $ws = [double]$summary.node.memory.workingSetBytes
  $used = [double]($mem.ullTotalPhys - $mem.ullAvailPhys)
  Write-Host "memory in use: daemon $ws, GlobalMemoryStatusEx $used"
  if ([math]::Abs($ws - $used) -gt 0.05 * $mem.ullTotalPhys) {
    $failures += "memory working set: daemon $ws, GlobalMemoryStatusEx $used"
  }
  if (-not ($summary.node.systemContainers | Where-Object { $_.name -eq 'windows-global-commit-memory' })) {
    $failures += 'no windows-global-commit-memory system container'
  }

  # Filesystem: the kubelet root's volume, capacity exact and available within 1 GiB (the runner writes).
  $available, $capacity = [Win32]::Disk($root)
  $fs = $summary.node.fs
  Write-Host "fs capacity: daemon $($fs.capacityBytes), API $capacity"
  Write-Host "fs available: daemon $($fs.availableBytes), API $available"
  if ([double]$fs.capacityBytes -ne [double]$capacity) {
    $failures += "fs capacity: daemon $($fs.capacityBytes), API $capacity"
  }
  if ([math]::Abs([double]$fs.availableBytes - [double]$available) -gt 1GB) {
    $failures += "fs available: daemon $($fs.availableBytes), API $available"
  }

  if ($failures.Count -gt 0) { $failures | ForEach-Object { Write-Host "::error::$_" }; throw "$($failures.Count) checks failed" }
  $passed = $true
} finally {
  Stop-Daemon $daemon -Passed:$passed
}
exit 0
