# Downloads a file and fails unless its SHA-256 is the expected one. The expected value is the pin given with -Sha256
# (from the workflow, which names the record it was taken from), the checksum file published beside it (-Sha256Url),
# or, given both, the pin AND the published file, which must then agree with each other and with the download: the
# pin is the workflow's record, the published file the release's own, fetched at run time.
# A checksum file is "<hex>" or lines of "<hex>  <name>" (containerd's .sha256sum, cri-tools' .sha256,
# windows_exporter's sha256sums.txt); with several lines the one naming the downloaded file is used.
# Usage: download-checked.ps1 -Url URL -OutFile FILE [-Sha256 HEX] [-Sha256Url URL]   (at least one of the two)
param(
  [Parameter(Mandatory)][string]$Url,
  [Parameter(Mandatory)][string]$OutFile,
  [string]$Sha256,
  [string]$Sha256Url
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'  # the progress bar slows Invoke-WebRequest down many times over
if ([string]::IsNullOrEmpty($Sha256) -and [string]::IsNullOrEmpty($Sha256Url)) {
  throw 'give -Sha256, -Sha256Url or both'
}
$expected = @()
if ($Sha256) {
  if ($Sha256 -notmatch '^[0-9a-fA-F]{64}$') { throw "pinned value is not a SHA-256: '$Sha256'" }
  $expected += $Sha256.ToUpperInvariant()
}
if ($Sha256Url) {
  $published = Invoke-WebRequest -UseBasicParsing -TimeoutSec 120 -Uri $Sha256Url
  $text = if ($published.Content -is [byte[]]) { [Text.Encoding]::ASCII.GetString($published.Content) } else { $published.Content }
  $name = [IO.Path]::GetFileName(([Uri]$Url).AbsolutePath)
  $lines = @($text -split "`n" | ForEach-Object { $_.Trim() } | Where-Object { $_ })
  $line = if ($lines.Count -eq 1) { $lines[0] } else {
    $lines | Where-Object { ($_ -split '\s+', 2)[1] -replace '^\*', '' -eq $name } | Select-Object -First 1
  }
  if (-not $line) { throw "$Sha256Url names no $name" }
  $value = ($line -split '\s+')[0]
  if ($value -notmatch '^[0-9a-fA-F]{64}$') { throw "$Sha256Url`: not a SHA-256: '$value'" }
  $expected += $value.ToUpperInvariant()
}
if (@($expected | Select-Object -Unique).Count -ne 1) {
  throw "$Url`: the pinned SHA-256 $Sha256 differs from the published $($expected[-1]) ($Sha256Url)"
}
Invoke-WebRequest -UseBasicParsing -TimeoutSec 600 -Uri $Url -OutFile $OutFile
$actual = (Get-FileHash -LiteralPath $OutFile -Algorithm SHA256).Hash
if ($actual -ne $expected[0]) {
  Remove-Item -LiteralPath $OutFile
  throw "$Url`: SHA-256 $actual, expected $($expected[0])"
}
Write-Host "$OutFile sha256 $actual (checked against $(@($Sha256, $Sha256Url | Where-Object { $_ }) -join ' and '))"
