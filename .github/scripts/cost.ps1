# cost job: what the daemon costs a Windows node, beside windows_exporter on the same runner in the same window.
# The daemon (java @deploy/jvm.options -jar, as the Windows image runs it; --node.source=pdh, the default 10 s
# interval) reads the containerd that install-containerd.ps1 started, with the HostProcess pods of run-pods.ps1;
# windows_exporter (the pinned release, [defaults] plus its container collector) listens on 9183. After a warm-up, for
# a steady window, every tick scrapes both /metrics alike (one GET each, as a Prometheus would); the processes'
# working set and private bytes are read every tick and their CPU from TotalProcessorTime across the window. Then,
# outside the window, SummaryRequests GETs of the daemon's /stats/summary, 100 ms apart, as kubelet-style consumers
# poll it, give its latency. The figures go to the job summary and to
# OutDir as cost.md (the shape of docs/PERFORMANCE.md's Linux table) and cost.json. Then, both still running, compare
# puts the daemon's windows_* series beside windows_exporter's (printed, and OutDir's compare.txt). Both processes are started,
# measured and stopped in this one script (why: daemon.ps1). Bounded: warm-up + window + start-up deadlines.
param(
  [Parameter(Mandatory)][int]$Pods,
  [Parameter(Mandatory)][string]$WindowsExporter,
  [Parameter(Mandatory)][string]$OutDir,
  [Parameter(Mandatory)][string]$Containerd,
  [int]$WarmupSeconds = 60,
  [int]$WindowSeconds = 300,
  [int]$TickSeconds = 10,
  [int]$SummaryRequests = 100
)
$ErrorActionPreference = 'Stop'
. "$PSScriptRoot/daemon.ps1"
. "$PSScriptRoot/containerd.ps1"

$http = [System.Net.Http.HttpClient]::new()
$http.Timeout = [timespan]::FromSeconds(30)
# One GET: milliseconds and bytes; throws on a non-2xx answer or a failed request.
function Measure-Get([string]$Url) {
  $watch = [Diagnostics.Stopwatch]::StartNew()
  $response = $http.GetAsync($Url).GetAwaiter().GetResult()
  $body = $response.Content.ReadAsByteArrayAsync().GetAwaiter().GetResult()
  $watch.Stop()
  if (-not $response.IsSuccessStatusCode) { throw "$Url answered $([int]$response.StatusCode)" }
  [pscustomobject]@{ Ms = $watch.Elapsed.TotalMilliseconds; Bytes = $body.Length }
}
function Get-Percentile([double[]]$Values, [double]$P) {
  $sorted = @($Values | Sort-Object)
  $sorted[[math]::Min($sorted.Count - 1, [math]::Ceiling($P / 100 * $sorted.Count) - 1)]
}
function Get-Stat([double[]]$Values) {
  [pscustomobject]@{
    Average = ($Values | Measure-Object -Average).Average
    Max = ($Values | Measure-Object -Maximum).Maximum
    P50 = Get-Percentile $Values 50
    P99 = Get-Percentile $Values 99
  }
}

$daemon = $null
$exporter = $null
$passed = $false
try {
  $daemon = Start-Daemon -Pod "idle-$Pods" -TimeoutSeconds 180 -DaemonArgs '--node.source=pdh',
    '--cri.endpoint=npipe:////./pipe/containerd-containerd'
  $exporter = Start-Logged -FilePath $WindowsExporter -Name windows_exporter -Port 9183 -Arguments `
    '--web.listen-address=127.0.0.1:9183', '--collectors.enabled=[defaults],container'
  Wait-Http $exporter
  $summary = (Get-Body 9182 '/stats/summary' | ConvertFrom-Json)
  if (@($summary.pods).Count -lt $Pods) { throw "the daemon lists $(@($summary.pods).Count) pods, expected $Pods" }

  $daemonMetrics = 'http://127.0.0.1:9182/metrics'
  $exporterMetrics = 'http://127.0.0.1:9183/metrics'
  $summaryUrl = 'http://127.0.0.1:9182/stats/summary'
  $warmupEnd = (Get-Date).AddSeconds($WarmupSeconds)
  while ((Get-Date) -lt $warmupEnd) {
    $null = Measure-Get $daemonMetrics; $null = Measure-Get $exporterMetrics; $null = Measure-Get $summaryUrl
    Start-Sleep -Seconds $TickSeconds
  }

  $processes = @{ daemon = $daemon.Process; windows_exporter = $exporter.Process }
  $cpu0 = @{}; $memory = @{}
  foreach ($k in $processes.Keys) {
    $cpu0[$k] = (Get-Process -Id $processes[$k].Id).TotalProcessorTime.TotalSeconds
    $memory[$k] = [pscustomobject]@{ Ws = [Collections.Generic.List[double]]::new(); Private = [Collections.Generic.List[double]]::new() }
  }
  $scrape = @{ daemon = [Collections.Generic.List[object]]::new(); windows_exporter = [Collections.Generic.List[object]]::new() }
  $summaries = [Collections.Generic.List[object]]::new()
  $watch = [Diagnostics.Stopwatch]::StartNew()
  while ($watch.Elapsed.TotalSeconds -lt $WindowSeconds) {
    $tick = $watch.Elapsed.TotalSeconds
    $scrape.daemon.Add((Measure-Get $daemonMetrics))
    $scrape.windows_exporter.Add((Measure-Get $exporterMetrics))
    foreach ($k in $processes.Keys) {
      $p = Get-Process -Id $processes[$k].Id
      $memory[$k].Ws.Add($p.WorkingSet64 / 1MB)
      $memory[$k].Private.Add($p.PrivateMemorySize64 / 1MB)
    }
    $rest = $TickSeconds - ($watch.Elapsed.TotalSeconds - $tick)
    if ($rest -gt 0) { Start-Sleep -Milliseconds ([int]($rest * 1000)) }
  }
  $window = $watch.Elapsed.TotalSeconds
  $mcpu = @{}
  foreach ($k in $processes.Keys) {
    $mcpu[$k] = ((Get-Process -Id $processes[$k].Id).TotalProcessorTime.TotalSeconds - $cpu0[$k]) / $window * 1000
  }
  for ($i = 0; $i -lt $SummaryRequests; $i++) {
    $summaries.Add((Measure-Get $summaryUrl))
    Start-Sleep -Milliseconds 100
  }
  $ws = @{}; $private = @{}
  foreach ($k in $processes.Keys) { $ws[$k] = Get-Stat $memory[$k].Ws; $private[$k] = Get-Stat $memory[$k].Private }
  $summaryMs = Get-Stat ($summaries | ForEach-Object { $_.Ms })
  $daemonMs = Get-Stat ($scrape.daemon | ForEach-Object { $_.Ms })
  $exporterMs = Get-Stat ($scrape.windows_exporter | ForEach-Object { $_.Ms })
  $os = Get-CimInstance Win32_OperatingSystem
  $cores = [Environment]::ProcessorCount
  $ram = [math]::Round($os.TotalVisibleMemorySize / 1MB, 1)
  $java = "java.exe $((Get-Item (Join-Path $env:JAVA_HOME 'bin\java.exe')).VersionInfo.ProductVersion)"
  $run = "$env:ImageOS $env:ImageVersion run $env:GITHUB_RUN_ID (``$($env:GITHUB_SHA.Substring(0, 7))``)"
  $f = [Globalization.CultureInfo]::InvariantCulture
  $n1 = { param($v) $v.ToString('0.0', $f) }
  $table = @"
**Machine:** GitHub-hosted runner $env:ImageOS, image $env:ImageVersion, $($os.Caption) build $($os.BuildNumber), $cores vCPU,
$ram GiB; containerd $Containerd, $Pods HostProcess pods; $java; window $([int]$window) s after $WarmupSeconds s of warm-up,
one scrape of each /metrics every $TickSeconds s; then $SummaryRequests GETs of /stats/summary, 100 ms apart.

| figure (Windows, $Pods pods) | $run |
|---|---|
| CPU, steady window | $(& $n1 $mcpu.daemon) mCPU; windows_exporter $(& $n1 $mcpu.windows_exporter): **$((& $n1 ($mcpu.daemon / [math]::Max($mcpu.windows_exporter, 0.001))))×** |
| working set, steady window (average / max) | **$(& $n1 $ws.daemon.Average)** / $(& $n1 $ws.daemon.Max) MiB; windows_exporter $(& $n1 $ws.windows_exporter.Average) / $(& $n1 $ws.windows_exporter.Max) MiB |
| private bytes, steady window (average / max) | **$(& $n1 $private.daemon.Average)** / $(& $n1 $private.daemon.Max) MiB; windows_exporter $(& $n1 $private.windows_exporter.Average) / $(& $n1 $private.windows_exporter.Max) MiB |
| ``/stats/summary`` latency p50 / p99 / max ($($summaries.Count) GETs after the window) | $(& $n1 $summaryMs.P50) / $(& $n1 $summaryMs.P99) / $(& $n1 $summaryMs.Max) ms |
| ``/metrics`` latency p50 / max, daemon vs windows_exporter | $(& $n1 $daemonMs.P50) / $(& $n1 $daemonMs.Max) ms vs $(& $n1 $exporterMs.P50) / $(& $n1 $exporterMs.Max) ms |
| for scale: bodies | daemon ``/metrics`` $($scrape.daemon[$scrape.daemon.Count - 1].Bytes) B, summary $($summaries[$summaries.Count - 1].Bytes) B; windows_exporter ``/metrics`` $($scrape.windows_exporter[$scrape.windows_exporter.Count - 1].Bytes) B |
"@
  New-Item -ItemType Directory -Force -Path $OutDir | Out-Null
  $table | Out-File -Encoding utf8 (Join-Path $OutDir 'cost.md')
  [pscustomobject]@{
    runner = $env:ImageOS; image = $env:ImageVersion; build = $os.BuildNumber; cores = $cores; ramGiB = $ram
    containerd = $Containerd; pods = $Pods; windowSeconds = $window; mcpu = $mcpu; workingSetMiB = $ws
    privateMiB = $private; summaryMs = $summaryMs; metricsMs = @{ daemon = $daemonMs; windows_exporter = $exporterMs }
  } | ConvertTo-Json -Depth 5 | Out-File -Encoding utf8 (Join-Path $OutDir 'cost.json')
  $table | Out-File -Append -Encoding utf8 $env:GITHUB_STEP_SUMMARY
  Write-Host $table
  # Both still run: the daemon's windows_* series against windows_exporter's, series by series (docs/COMPARE.md).
  $compareCode = Invoke-Compare -OutFile (Join-Path $OutDir 'compare.txt') -CompareArgs `
    "--daemon=$summaryUrl", "--daemon-metrics=$daemonMetrics", "--windows-exporter=$exporterMetrics"
  Write-Host "compare found: $(@{ 0 = 'every series agrees'; 3 = 'some series differ' }[$compareCode])"
  $passed = $true
} finally {
  Stop-Daemon $daemon, $exporter -Passed:$passed -Runtime
  $http.Dispose()
}
exit 0
