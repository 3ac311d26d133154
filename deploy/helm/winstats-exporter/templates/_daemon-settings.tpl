{{- /*
The daemon's settings, generated from its catalogue by io.winstats.exporter.ConfigSchema; do not edit:
mvn -pl dashboards -am verify -Dchart.update=true writes it again.
*/ -}}
{{- define "winstats-exporter.daemonSettings" -}}
web.listen-address: {switch: false, negatable: false, inFile: true, choices: []}
web.config.file: {switch: false, negatable: false, inFile: true, choices: []}
web.auth.bearer-token-file: {switch: false, negatable: false, inFile: true, choices: []}
web.max-header-bytes: {switch: false, negatable: false, inFile: true, choices: []}
web.max-body-bytes: {switch: false, negatable: false, inFile: true, choices: []}
web.request-timeout: {switch: false, negatable: false, inFile: true, choices: []}
web.idle-timeout: {switch: false, negatable: false, inFile: true, choices: []}
web.max-connections: {switch: false, negatable: false, inFile: true, choices: []}
web.telemetry-path: {switch: false, negatable: false, inFile: true, choices: []}
web.disable-exporter-metrics: {switch: true, negatable: false, inFile: true, choices: []}
web.node-page: {switch: true, negatable: true, inFile: true, choices: []}
metrics.include: {switch: false, negatable: false, inFile: true, choices: []}
metrics.exclude: {switch: false, negatable: false, inFile: true, choices: []}
collector.cri: {switch: true, negatable: true, inFile: true, choices: []}
collector.cgroup: {switch: true, negatable: true, inFile: true, choices: []}
collector.node: {switch: true, negatable: true, inFile: true, choices: []}
collector.windows.cpu: {switch: true, negatable: true, inFile: true, choices: []}
collector.windows.memory: {switch: true, negatable: true, inFile: true, choices: []}
collector.windows.net: {switch: true, negatable: true, inFile: true, choices: []}
collector.windows.logical_disk: {switch: true, negatable: true, inFile: true, choices: []}
collector.windows.physical_disk: {switch: true, negatable: true, inFile: true, choices: []}
collector.windows.system: {switch: true, negatable: true, inFile: true, choices: []}
collector.windows.os: {switch: true, negatable: true, inFile: true, choices: []}
collector.windows.service: {switch: true, negatable: true, inFile: true, choices: []}
collector.container: {switch: true, negatable: true, inFile: true, choices: []}
cri.endpoint: {switch: false, negatable: false, inFile: true, choices: []}
cri.timeout: {switch: false, negatable: false, inFile: true, choices: []}
cri.stats-call: {switch: false, negatable: false, inFile: true, choices: ['ListPodSandboxStats', 'ListContainerStats']}
cri.windows-stats: {switch: false, negatable: false, inFile: true, choices: ['tasks', 'cri']}
sampling.interval: {switch: false, negatable: false, inFile: true, choices: []}
node.source: {switch: false, negatable: false, inFile: true, choices: []}
node.memory.working-set: {switch: false, negatable: false, inFile: true, choices: ['kubelet', 'physical']}
node.kubelet-root-dir: {switch: false, negatable: false, inFile: true, choices: []}
node.service.include: {switch: false, negatable: false, inFile: true, choices: []}
node.service.exclude: {switch: false, negatable: false, inFile: true, choices: []}
node.name: {switch: false, negatable: false, inFile: true, choices: []}
record: {switch: false, negatable: false, inFile: true, choices: []}
otlp.enabled: {switch: true, negatable: false, inFile: true, choices: []}
otlp.interval: {switch: false, negatable: false, inFile: true, choices: []}
config.file: {switch: false, negatable: false, inFile: false, choices: []}
print-config: {switch: true, negatable: false, inFile: false, choices: []}
log.level: {switch: false, negatable: false, inFile: true, choices: ['debug', 'info', 'warn', 'error']}
log.format: {switch: false, negatable: false, inFile: true, choices: ['logfmt', 'json']}
{{- end }}

{{- define "winstats-exporter.bcrypt" -}}
^\$2[aby]?\$(0[4-9]|[12][0-9]|3[01])\$[./A-Za-z0-9]{53}$
{{- end }}
