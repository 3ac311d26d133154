{{/* The chart's name, and the release's full name (63 characters at most, DNS label). */}}
{{- define "winstats-exporter.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "winstats-exporter.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The namespace of every namespaced object: namespaceOverride, else the release's (as the community charts). */}}
{{- define "winstats-exporter.namespace" -}}
{{- .Values.namespaceOverride | default .Release.Namespace }}
{{- end }}

{{/* The name of an object of one operating system: <fullname>-windows, <fullname>-linux. */}}
{{- define "winstats-exporter.osName" -}}
{{- printf "%s-%s" (include "winstats-exporter.fullname" .root | trunc 55 | trimSuffix "-") .os }}
{{- end }}

{{- define "winstats-exporter.selectorLabels" -}}
app.kubernetes.io/name: {{ include "winstats-exporter.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "winstats-exporter.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{ include "winstats-exporter.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: winstats-exporter
{{- if .Values.releaseLabel }}
release: {{ .Release.Name }}
{{- end }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Labels of the objects of one operating system; {root, os}. */}}
{{- define "winstats-exporter.osLabels" -}}
{{ include "winstats-exporter.labels" .root }}
app.kubernetes.io/component: {{ .os }}
{{- end }}

{{- define "winstats-exporter.osSelectorLabels" -}}
{{ include "winstats-exporter.selectorLabels" .root }}
app.kubernetes.io/component: {{ .os }}
{{- end }}

{{- define "winstats-exporter.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "winstats-exporter.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The image of one operating system, registry/repository:tag[@digest]; {root, os}. */}}
{{- define "winstats-exporter.image" -}}
{{- $v := .root.Values }}
{{- $own := dict }}
{{- if eq .os "windows" }}{{ $own = $v.windows.image }}{{ end }}
{{- $registry := $v.global.imageRegistry | default $own.registry | default $v.image.registry }}
{{- $repository := $v.image.repository }}
{{- if eq .os "windows" }}{{ $repository = $own.repository | default (printf "%s-windows" $v.image.repository) }}{{ end }}
{{- $tag := $own.tag | default $v.image.tag | default .root.Chart.AppVersion }}
{{- $digest := ternary $own.digest $v.image.digest (eq .os "windows") }}
{{- printf "%s/%s:%s" $registry $repository $tag }}{{ with $digest }}@{{ . }}{{ end }}
{{- end }}

{{- define "winstats-exporter.imagePullSecrets" -}}
{{- range (concat .Values.global.imagePullSecrets .Values.imagePullSecrets) }}
{{- if kindIs "map" . }}
- name: {{ .name }}
{{- else }}
- name: {{ . }}
{{- end }}
{{- end }}
{{- end }}

{{/* The web configuration's Secret: the chart's own, or existingSecret; empty when there is none. */}}
{{- define "winstats-exporter.webConfigSecret" -}}
{{- if .Values.webConfig.existingSecret }}
{{- .Values.webConfig.existingSecret }}
{{- else if .Values.webConfig.config }}
{{- printf "%s-web-config" (include "winstats-exporter.fullname" .) }}
{{- end }}
{{- end }}

{{/* HTTPS when the web configuration serves TLS. */}}
{{- define "winstats-exporter.scheme" -}}
{{- if or .Values.webConfig.tlsSecret (hasKey .Values.webConfig.config "tls_server_config") }}HTTPS{{ else }}HTTP{{ end }}
{{- end }}

{{/* The scheme a scraper of one operating system's pods uses: kube-rbac-proxy (Linux) always serves HTTPS. */}}
{{- define "winstats-exporter.osScheme" -}}
{{- if and (eq .os "linux") .root.Values.kubeRBACProxy.enabled }}HTTPS{{ else }}{{ include "winstats-exporter.scheme" .root }}{{ end }}
{{- end }}

{{/* kube-rbac-proxy in front of the Linux daemon, which then listens on loopback only. */}}
{{- define "winstats-exporter.proxied" -}}
{{- if and (eq .os "linux") .root.Values.kubeRBACProxy.enabled }}true{{ end }}
{{- end }}

{{/* The class the chart creates is cluster-scoped: named after the release and its namespace so that two releases
of one name in two namespaces do not collide. */}}
{{- define "winstats-exporter.priorityClassName" -}}
{{- if .Values.priorityClassName }}
{{- .Values.priorityClassName }}
{{- else if .Values.priorityClass.create }}
{{- list (include "winstats-exporter.namespace" .) (include "winstats-exporter.fullname" .) | compact | join "-" | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/* Where the chart mounts its files in the daemon container, and what the daemon sees there; {root, os}. */}}
{{- define "winstats-exporter.etc" -}}
/etc/winstats-exporter
{{- end }}

{{/* A path under the mount as the daemon opens it: HostProcess containers see their mounts under the sandbox mount
point, which containerd expands in the command line. */}}
{{- define "winstats-exporter.daemonPath" -}}
{{- if eq .os "windows" }}%CONTAINER_SANDBOX_MOUNT_POINT%{{ end }}{{ include "winstats-exporter.etc" . }}/{{ .file }}
{{- end }}

{{/*
The flags the chart sets itself, each with the value that sets it: the same flag in extraArgs makes the daemon exit 2
("given twice"), so every pod of the DaemonSet would crash-loop. Refused at render instead.
*/}}
{{- define "winstats-exporter.chartFlags" -}}
--web.listen-address: service.port (or kubeRBACProxy.port behind kube-rbac-proxy)
--cri.endpoint: windows.criEndpoint or linux.criSocket
--node.source: nothing (the chart sets pdh on Windows and procfs:/host/proc on Linux)
--config.file: config (the daemon's configuration, as YAML)
--web.config.file: webConfig.config or webConfig.existingSecret
{{- end }}

{{- /*
Every daemon flag in the three extraArgs: the chart's own flags refused with the value to set; a flag the daemon does
not have refused with the nearest ones; a switch with a value (--collector.cri=false, as node_exporter users type it)
refused with the daemon's form (--no-collector.cri), since the daemon takes a switch alone; a flag with choices refused
with them. The flags come from the daemon's catalogue (_daemon-settings.tpl).
*/ -}}
{{- define "winstats-exporter.checkExtraArgs" -}}
{{- $owned := include "winstats-exporter.chartFlags" . | fromYaml }}
{{- $settings := include "winstats-exporter.daemonSettings" . | fromYaml }}
{{- range $where := list "extraArgs" "windows.extraArgs" "linux.extraArgs" }}
{{- $args := $.Values.extraArgs }}
{{- if eq $where "windows.extraArgs" }}{{ $args = $.Values.windows.extraArgs }}{{ end }}
{{- if eq $where "linux.extraArgs" }}{{ $args = $.Values.linux.extraArgs }}{{ end }}
{{- range $args }}
{{- $arg := toString . }}
{{- $flag := regexReplaceAll "=.*$" $arg "" }}
{{- if hasKey $owned $flag }}
{{- fail (printf "%s: %s is set by the chart; set %s instead" $where $flag (get $owned $flag)) }}
{{- end }}
{{- $name := trimPrefix "--" $flag }}
{{- $valued := contains "=" $arg }}
{{- $value := regexReplaceAll "^[^=]*=" $arg "" }}
{{- if and (hasPrefix "no-" $name) (not (hasKey $settings $name)) (hasKey $settings (trimPrefix "no-" $name)) }}
{{- $on := get $settings (trimPrefix "no-" $name) }}
{{- if not $on.negatable }}
{{- fail (printf "%s: %s: --%s is off by default and has no --no- form; leave it out" $where $flag (trimPrefix "no-" $name)) }}
{{- end }}
{{- if $valued }}
{{- fail (printf "%s: %s takes no value" $where $flag) }}
{{- end }}
{{- else if not (hasKey $settings $name) }}
{{- $near := include "winstats-exporter.nearest" (dict "word" $name "names" (keys $settings | sortAlpha)) }}
{{- fail (printf "%s: %s is not a flag of the daemon%s (every flag: java -jar winstats-exporter.jar --help)" $where $flag (ternary (printf "; did you mean --%s?" $near) "" (ne $near ""))) }}
{{- else }}
{{- $setting := get $settings $name }}
{{- if and $setting.switch $valued }}
{{- if $setting.negatable }}
{{- fail (printf "%s: %s: a switch takes no value; --%s is on by default and --no-%s turns it off" $where $arg $name $name) }}
{{- else }}
{{- fail (printf "%s: %s: a switch takes no value; --%s turns it on (it is off by default)" $where $arg $name) }}
{{- end }}
{{- end }}
{{- if and (not $setting.switch) (not $valued) }}
{{- fail (printf "%s: %s takes a value: --%s=VALUE, in one item" $where $flag $name) }}
{{- end }}
{{- if and $setting.choices (not (has $value $setting.choices)) }}
{{- fail (printf "%s: %s: %s is not one of %s" $where $flag (quote $value) (join ", " $setting.choices)) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{- /*
Every key of config, the daemon's configuration file, nested or dotted: one the daemon does not take refused with the
nearest ones (the schema types the known ones), and one the chart sets as a flag refused with the value to set, since
the flag would win over the file.
*/ -}}
{{- define "winstats-exporter.checkConfig" -}}
{{- $owned := include "winstats-exporter.chartFlags" . | fromYaml }}
{{- $settings := include "winstats-exporter.daemonSettings" . | fromYaml }}
{{- $inFile := list }}
{{- range $name, $s := $settings }}{{ if $s.inFile }}{{ $inFile = append $inFile $name }}{{ end }}{{ end }}
{{- $keys := include "winstats-exporter.configKeys" (dict "prefix" "" "map" (omit (.Values.config | default dict) "perfcounters")) | fromYamlArray }}
{{- range $key := $keys }}
{{- if hasKey $owned (printf "--%s" $key) }}
{{- fail (printf "config: %s is set by the chart as a flag, which wins over the file; set %s instead" $key (get $owned (printf "--%s" $key))) }}
{{- end }}
{{- if not (has $key $inFile) }}
{{- $near := include "winstats-exporter.nearest" (dict "word" $key "names" ($inFile | sortAlpha)) }}
{{- fail (printf "config: %s is not a setting of the daemon's configuration file%s (every setting: java -jar winstats-exporter.jar --help)" $key (ternary (printf "; did you mean %s?" $near) "" (ne $near ""))) }}
{{- end }}
{{- end }}
{{- end }}

{{/* The dotted names of a nested mapping's leaves, as a YAML list; {prefix, map}. */}}
{{- define "winstats-exporter.configKeys" -}}
{{- $out := list }}
{{- range $k, $v := .map }}
{{- if kindIs "map" $v }}
{{- $out = concat $out (include "winstats-exporter.configKeys" (dict "prefix" (printf "%s%s." $.prefix $k) "map" $v) | fromYamlArray) }}
{{- else }}
{{- $out = append $out (printf "%s%s" $.prefix $k) }}
{{- end }}
{{- end }}
{{- toYaml $out }}
{{- end }}

{{/* Of {names}, those that share the longest start with {word}, at least 3 characters, comma-separated. */}}
{{- define "winstats-exporter.nearest" -}}
{{- $word := .word }}
{{- $best := 2 }}
{{- $found := list }}
{{- range $name := .names }}
{{- $n := 0 }}
{{- range $i := until (min (len $name) (len $word) | int) }}
{{- if and (eq $n $i) (eq (substr $i (add1 $i | int) $name) (substr $i (add1 $i | int) $word)) }}{{ $n = add1 $i | int }}{{ end }}
{{- end }}
{{- if gt $n $best }}{{ $best = $n }}{{ $found = list $name }}{{ else if and (eq $n $best) (gt $n 2) }}{{ $found = append $found $name }}{{ end }}
{{- end }}
{{- join ", " $found }}
{{- end }}

{{- /* Each basic auth user of webConfig.config has a bcrypt hash, as the daemon requires. */ -}}
{{- define "winstats-exporter.checkBasicAuthUsers" -}}
{{- $pattern := include "winstats-exporter.bcrypt" . }}
{{- range $user, $hash := ((.Values.webConfig).config).basic_auth_users | default dict }}
{{- if not (regexMatch $pattern (toString $hash)) }}
{{- fail (printf "webConfig.config.basic_auth_users.%s: not a bcrypt hash; the daemon takes $2y$10$... as htpasswd -nBC 10 %s writes it (after the colon), never the password" $user $user) }}
{{- end }}
{{- end }}
{{- end }}

{{/* The daemon's arguments common to both operating systems; {root, os}. */}}
{{- define "winstats-exporter.commonArgs" -}}
{{- if include "winstats-exporter.proxied" . }}
- --web.listen-address=127.0.0.1:{{ .root.Values.kubeRBACProxy.port }}
{{- else }}
- --web.listen-address=:{{ .root.Values.service.port }}
{{- end }}
{{- if .root.Values.config }}
- --config.file={{ include "winstats-exporter.daemonPath" (dict "os" .os "file" "config/config.yml") }}
{{- end }}
{{- if include "winstats-exporter.webConfigSecret" .root }}
- --web.config.file={{ include "winstats-exporter.daemonPath" (dict "os" .os "file" "web/web-config.yml") }}
{{- end }}
{{- with .root.Values.extraArgs }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Probes of /healthz (through kube-rbac-proxy when it is in front); {root, os, which: readinessProbe|livenessProbe}. */}}
{{- define "winstats-exporter.probe" -}}
httpGet:
  path: /healthz
  port: {{ .root.Values.service.port }}
  scheme: {{ include "winstats-exporter.osScheme" . }}
{{ toYaml (get .root.Values .which) }}
{{- end }}

{{/* Volume mounts of the config file, the web config and its TLS secret; {root}. */}}
{{- define "winstats-exporter.volumeMounts" -}}
{{- if .root.Values.config }}
- name: config
  mountPath: {{ include "winstats-exporter.etc" . }}/config
  readOnly: true
{{- end }}
{{- if or (include "winstats-exporter.webConfigSecret" .root) .root.Values.webConfig.tlsSecret }}
- name: web
  mountPath: {{ include "winstats-exporter.etc" . }}/web
  readOnly: true
{{- end }}
{{- with .root.Values.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "winstats-exporter.volumes" -}}
{{- if .Values.config }}
- name: config
  configMap:
    name: {{ include "winstats-exporter.fullname" . }}-config
{{- end }}
{{- if or (include "winstats-exporter.webConfigSecret" .) .Values.webConfig.tlsSecret }}
{{- /* One volume: the TLS keys sit beside web-config.yml, so its relative paths (cert_file: tls.crt) find them. */}}
- name: web
  projected:
    sources:
      {{- with include "winstats-exporter.webConfigSecret" . }}
      - secret:
          name: {{ . }}
      {{- end }}
      {{- with .Values.webConfig.tlsSecret }}
      - secret:
          name: {{ . }}
      {{- end }}
{{- end }}
{{- with .Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Pod annotations: the user's, and checksums that roll the pods when their configuration changes. */}}
{{- define "winstats-exporter.podAnnotations" -}}
{{- if .Values.config }}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
{{- end }}
{{- if .Values.webConfig.config }}
checksum/web-config: {{ include (print .Template.BasePath "/secret-web-config.yaml") . | sha256sum }}
{{- end }}
{{- with .Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
The scrape endpoints of one operating system's monitor; {root, os, m: prometheus.monitor or .podMonitor, drop: the
operator's target labels to drop}. The first is the monitor's own job; on Windows, prometheus.stockJobs adds the
windows_* series under the stock Windows job and /metrics/cadvisor under the kubelet's job.
*/}}
{{- define "winstats-exporter.endpoints" -}}
{{- $m := .m }}
{{- $stock := .root.Values.prometheus.stockJobs }}
{{- $base := printf "- sourceLabels: [__meta_kubernetes_pod_node_name]\n  targetLabel: instance\n- sourceLabels: [__meta_kubernetes_pod_label_app_kubernetes_io_component]\n  targetLabel: os\n- action: labeldrop\n  regex: %s" .drop }}
{{- $endpoints := list (dict "path" "/metrics" "relabelings" $base "metricRelabelings" "") }}
{{- if and (eq .os "windows") $stock.windowsExporter.enabled }}
{{- $endpoints = append $endpoints (dict "path" "/metrics"
  "relabelings" (printf "%s\n- targetLabel: job\n  replacement: %s" $base $stock.windowsExporter.job)
  "metricRelabelings" "- sourceLabels: [__name__]\n  action: keep\n  regex: windows_.+") }}
{{- end }}
{{- if and (eq .os "windows") $stock.cadvisor.enabled }}
{{- $endpoints = append $endpoints (dict "path" "/metrics/cadvisor"
  "relabelings" (printf "%s\n- targetLabel: job\n  replacement: %s\n- sourceLabels: [__metrics_path__]\n  targetLabel: metrics_path\n- sourceLabels: [__meta_kubernetes_pod_node_name]\n  targetLabel: node" $base $stock.cadvisor.job)
  "metricRelabelings" "- sourceLabels: [__name__]\n  action: keep\n  regex: container_.+\n- sourceLabels: [__name__]\n  action: drop\n  regex: container_scrape_error\n- sourceLabels: [id, pod]\n  action: drop\n  regex: .+;") }}
{{- end }}
{{- range $endpoints }}
- port: {{ $.root.Values.service.portName }}
  path: {{ .path }}
  {{- with $m.interval }}
  interval: {{ . }}
  {{- end }}
  {{- with $m.scrapeTimeout }}
  scrapeTimeout: {{ . }}
  {{- end }}
  scheme: {{ $m.scheme | default (include "winstats-exporter.osScheme" $ | lower) }}
  {{- with $m.tlsConfig }}
  tlsConfig:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $m.basicAuth }}
  basicAuth:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $m.authorization }}
  authorization:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  relabelings:
    {{- .relabelings | nindent 4 }}
    {{- with $m.relabelings }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- if or .metricRelabelings $m.metricRelabelings }}
  metricRelabelings:
    {{- with .metricRelabelings }}
    {{- . | nindent 4 }}
    {{- end }}
    {{- with $m.metricRelabelings }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- end }}
{{- end }}
{{- end }}
