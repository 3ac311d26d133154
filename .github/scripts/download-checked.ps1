# Downloads a file and fails unless its SHA-256 is the expected one: given (pinned in the workflow), or read from a
# checksum file published beside it ("<hex>" or "<hex>  <name>", as containerd's .sha256sum and cri-tools' .sha256).
# Usage: download-checked.ps1 -Url URL -OutFile FILE (-Sha256 HEX | -Sha256Url URL)
param(
  [Parameter(Mandatory)][string]$Url,
  [Parameter(Mandatory)][string]$OutFile,
  [string]$Sha256,
  [string]$Sha256Url
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'  # the progress bar slows Invoke-WebRequest down many times over
if ([string]::IsNullOrEmpty($Sha256) -eq [string]::IsNullOrEmpty($Sha256Url)) {
  throw 'give either -Sha256 or -Sha256Url'
}
if ($Sha256Url) {
  $published = Invoke-WebRequest -UseBasicParsing -Uri $Sha256Url
  $text = if ($published.Content -is [byte[]]) { [Text.Encoding]::ASCII.GetString($published.Content) } else { $published.Content }
  $Sha256 = ($text.Trim() -split '\s+')[0]
}
if ($Sha256 -notmatch '^[0-9a-fA-F]{64}$') { throw "not a SHA-256: '$Sha256'" }
Invoke-WebRequest -UseBasicParsing -Uri $Url -OutFile $OutFile
$actual = (Get-FileHash -LiteralPath $OutFile -Algorithm SHA256).Hash
if ($actual -ne $Sha256.ToUpperInvariant()) {
  Remove-Item -LiteralPath $OutFile
  throw "$Url`: SHA-256 $actual, expected $Sha256"
}
Write-Host "$OutFile sha256 $actual (checked)"
