# Fails unless each named test class ran here with every test executed: a Windows-only test that is skipped or never
# selected would otherwise leave the job green without having tested anything.
# Usage: assert-tests-ran.ps1 <surefire-reports dir> <ClassSimpleName> [...]
param([Parameter(Mandatory)][string]$Reports, [Parameter(Mandatory, ValueFromRemainingArguments)][string[]]$Classes)
$ErrorActionPreference = 'Stop'
$failures = @()
foreach ($class in $Classes) {
  $file = Get-ChildItem -Path $Reports -Filter "TEST-*.$class.xml" -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($null -eq $file) { $failures += "$class did not run (no report in $Reports)"; continue }
  $suite = ([xml](Get-Content -Raw -LiteralPath $file.FullName)).testsuite
  Write-Host "$class`: tests=$($suite.tests) skipped=$($suite.skipped) failures=$($suite.failures) errors=$($suite.errors)"
  if ([int]$suite.tests -eq 0 -or [int]$suite.skipped -ne 0) { $failures += "$class ran $($suite.tests) tests, skipped $($suite.skipped)" }
}
if ($failures.Count -gt 0) { $failures | ForEach-Object { Write-Host "::error::$_" }; exit 1 }
