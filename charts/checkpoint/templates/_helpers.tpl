{{/*
Names, labels and the per-component settings shared by every template.
*/}}

{{- define "checkpoint.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* <release>-checkpoint, or the release name alone when it already says checkpoint. */}}
{{- define "checkpoint.fullname" -}}
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

{{- define "checkpoint.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels that never change for a release: the selector of its pods (with the component). */}}
{{- define "checkpoint.selectorLabels" -}}
app.kubernetes.io/name: {{ include "checkpoint.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "checkpoint.labels" -}}
helm.sh/chart: {{ include "checkpoint.chart" . }}
{{ include "checkpoint.selectorLabels" . }}
app.kubernetes.io/version: {{ include "checkpoint.imageTag" . | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: checkpoint
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Labels of one component's objects; call with (dict "root" $ "component" "identity"). */}}
{{- define "checkpoint.componentLabels" -}}
{{ include "checkpoint.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "checkpoint.componentSelectorLabels" -}}
{{ include "checkpoint.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/*
Name of a component's Deployment, Service, HPA, PDB and NetworkPolicy: <fullname>-<component>,
at most 63 characters (a Service name is a DNS label), cut at the end as releases have always
been named. Every component keeps at least its first two letters that way (all different) while
the fullname has at most 60 characters; beyond that, cut at the end, the components' objects would
share one name, so the fullname is shortened before the suffix instead. (dict "root" $ "component"
"identity" ["suffix" "-metrics"]): a further suffix, always kept whole (the metrics Service of an
exposed gateway, which did not fit at all with such names).
*/}}
{{- define "checkpoint.componentName" -}}
{{- $fullname := include "checkpoint.fullname" .root }}
{{- $suffix := printf "-%s%s" .component (.suffix | default "") }}
{{- if and (not .suffix) (le (len $fullname) 60) }}
{{- printf "%s%s" $fullname $suffix | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s%s" ($fullname | trunc (int (sub 63 (len $suffix))) | trimSuffix "-") $suffix }}
{{- end }}
{{- end }}

{{- define "checkpoint.imageTag" -}}
{{- default .Chart.AppVersion .Values.image.tag }}
{{- end }}

{{- define "checkpoint.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (include "checkpoint.imageTag" .) }}
{{- end }}
{{- end }}

{{- define "checkpoint.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "checkpoint.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The five services, in start order. */}}
{{- define "checkpoint.serviceNames" -}}
identity class assessment generation analytics integrations
{{- end }}

{{/*
The components this topology runs, as "<values key>:<name>" words: the name is the process the
image runs (its one argument), the component label and the suffix of the objects' names.
*/}}
{{- define "checkpoint.components" -}}
{{- if eq .Values.topology "all-in-one" -}}
allInOne:all-in-one
{{- else -}}
identity:identity class:class assessment:assessment generation:generation analytics:analytics integrations:integrations gateway:gateway
{{- end }}
{{- end }}

{{/* The component users reach (through the Service `checkpoint.publicServiceName`). */}}
{{- define "checkpoint.publicComponent" -}}
{{- if eq .Values.topology "all-in-one" }}all-in-one{{ else }}gateway{{ end }}
{{- end }}

{{- define "checkpoint.publicServiceName" -}}
{{- include "checkpoint.componentName" (dict "root" . "component" (include "checkpoint.publicComponent" .)) }}
{{- end }}

{{/*
A component's settings as YAML: components.defaults overridden key by key by the component's own
block. autoscaling, podDisruptionBudget, env and envFromSecrets merge one level deeper (a component may change one
field); every other key (resources, affinity…) is replaced whole. Written out rather than with
mergeOverwrite, which cannot override true with false. Call with (dict "root" $ "key" "identity").
*/}}
{{- define "checkpoint.componentValues" -}}
{{- $values := deepCopy .root.Values.components.defaults }}
{{- /* The chart's default budget is maxUnavailable: a minAvailable beside it in defaults is the operator's, and replaces it. */}}
{{- with $values.podDisruptionBudget }}
{{- if hasKey . "minAvailable" }}{{ $_ := unset . "maxUnavailable" }}{{ end }}
{{- end }}
{{- $own := index .root.Values.components .key | default dict }}
{{- range $k, $v := $own }}
{{- if and (has $k (list "autoscaling" "podDisruptionBudget" "env" "envFromSecrets")) (kindIs "map" $v) }}
{{- $merged := deepCopy (index $values $k | default dict) }}
{{- /* A budget's own minAvailable replaces the default maxUnavailable, and the other way round. */}}
{{- if eq $k "podDisruptionBudget" }}
{{- if hasKey $v "minAvailable" }}{{ $_ := unset $merged "maxUnavailable" }}{{ end }}
{{- if hasKey $v "maxUnavailable" }}{{ $_ := unset $merged "minAvailable" }}{{ end }}
{{- end }}
{{- range $k2, $v2 := $v }}
{{- $_ := set $merged $k2 $v2 }}
{{- end }}
{{- $_ := set $values $k $merged }}
{{- else }}
{{- $_ := set $values $k $v }}
{{- end }}
{{- end }}
{{- toYaml $values }}
{{- end }}

{{/* PUBLIC_URL: publicUrl, else the first ingress host, else the port-forward address. */}}
{{- define "checkpoint.publicUrl" -}}
{{- if .Values.publicUrl }}
{{- .Values.publicUrl | trimSuffix "/" }}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts }}
{{- $host := (first .Values.ingress.hosts).host }}
{{- $tls := false }}
{{- /* A TLS entry covers the host by name or by wildcard (*.district.org covers a.district.org). */}}
{{- $parent := printf ".%s" (rest (splitList "." $host) | join ".") }}
{{- range .Values.ingress.tls }}
{{- range .hosts }}
{{- if or (eq . $host) (and (hasPrefix "*." .) (eq (trimPrefix "*" .) $parent)) }}{{ $tls = true }}{{ end }}
{{- end }}
{{- end }}
{{- printf "%s://%s" (ternary "https" "http" $tls) $host }}
{{- else }}
{{- print "http://localhost:8080" }}
{{- end }}
{{- end }}

{{- define "checkpoint.postgresSecretName" -}}
{{- default (printf "%s-postgres" (include "checkpoint.fullname" .)) .Values.postgres.existingSecret }}
{{- end }}

{{- define "checkpoint.secretsName" -}}
{{- default (printf "%s-secrets" (include "checkpoint.fullname" .)) .Values.secrets.existingSecret }}
{{- end }}

{{- define "checkpoint.kafkaSecretName" -}}
{{- default (printf "%s-kafka" (include "checkpoint.fullname" .)) .Values.kafka.existingSecret }}
{{- end }}

{{/*
Refuses, with the value to set, a release that could not start: the connection values the
topology needs when no existing Secret holds them. Included by every template that uses them.
*/}}
{{- define "checkpoint.validate" -}}
{{- if not .Values.postgres.existingSecret }}
{{- if eq .Values.topology "all-in-one" }}
{{- if not .Values.postgres.urls.admin }}
{{- fail "topology all-in-one needs postgres.urls.admin (a URL of a role that may create roles) or postgres.existingSecret" }}
{{- end }}
{{- else }}
{{- range $service := splitList " " (include "checkpoint.serviceNames" .) }}
{{- if not (index $.Values.postgres.urls $service) }}
{{- fail (printf "topology microservices needs postgres.urls.%s (the %s service's own role) or postgres.existingSecret" $service $service) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- if and (eq .Values.topology "microservices") (not .Values.kafka.brokers) (not .Values.kafka.existingSecret) }}
{{- fail "topology microservices needs kafka.brokers (host:port,…) or kafka.existingSecret" }}
{{- end }}
{{- /* Behind an Ingress every request comes from the controller: without its addresses trusted, the
per-address rate limits (sign-in starts, sign-ups, SSO look-ups) would count a whole district as one client. */}}
{{- /* An exposed Service's clients come from outside the cluster: only an ipBlock (or no rule) admits them. */}}
{{- if and .Values.networkPolicy.enabled (ne .Values.service.type "ClusterIP") .Values.networkPolicy.ingressFrom }}
{{- $ipBlock := false }}
{{- range .Values.networkPolicy.ingressFrom }}{{ if .ipBlock }}{{ $ipBlock = true }}{{ end }}{{ end }}
{{- if not $ipBlock }}
{{- fail (printf "service.type %s: its clients come from outside the cluster, which networkPolicy.ingressFrom does not admit; add their ranges as an ipBlock (e.g. {ipBlock: {cidr: 0.0.0.0/0}}) or set it to [] for any source" .Values.service.type) }}
{{- end }}
{{- end }}
{{- if and .Values.ingress.enabled (not .Values.ingress.hosts) }}
{{- fail "ingress.enabled needs at least one entry in ingress.hosts (an Ingress without rules is refused by the API server)" }}
{{- end }}
{{- if eq (int .Values.metrics.port) 8080 }}
{{- fail "metrics.port 8080 is the port every process serves requests on: choose another (default 9464)" }}
{{- end }}
{{- /* The selector labels are the chart's: set elsewhere, a pod would no longer match its Deployment. */}}
{{- $selectorKeys := list "app.kubernetes.io/name" "app.kubernetes.io/instance" "app.kubernetes.io/component" }}
{{- range $key := keys (.Values.commonLabels | default dict) }}
{{- if has $key $selectorKeys }}{{ fail (printf "commonLabels.%s: the chart sets this selector label itself" $key) }}{{ end }}
{{- end }}
{{- range $component, $values := .Values.components }}
{{- range $key := keys ($values.podLabels | default dict) }}
{{- if has $key $selectorKeys }}{{ fail (printf "components.%s.podLabels.%s: the chart sets this selector label itself" $component $key) }}{{ end }}
{{- end }}
{{- end }}
{{- range $key := keys (.Values.migrate.podLabels | default dict) }}
{{- if has $key $selectorKeys }}{{ fail (printf "migrate.podLabels.%s: the chart sets this selector label itself" $key) }}{{ end }}
{{- end }}
{{- if and .Values.ingress.enabled (not .Values.gateway.trustedProxies) }}
{{- fail "ingress.enabled needs gateway.trustedProxies: the ingress controller's pod addresses (e.g. 10.0.0.0/8), whose X-Forwarded-For the gateway believes; without them every request seems to come from the controller and the per-address rate limits count the whole district as one client" }}
{{- end }}
{{- end }}

{{/* Env entry from a Secret key; (dict "name" "X" "secret" "s" "key" "k" "optional" true). */}}
{{- define "checkpoint.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ .key }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end }}

{{/*
Checksum of the Secrets the chart makes, as pod annotations: a changed value rolls the pods.
(A Secret named by existingSecret is the operator's: restart the pods after changing it.)
*/}}
{{- define "checkpoint.checksums" -}}
checksum/secrets: {{ include "checkpoint.secretsManifest" . | sha256sum }}
{{- end }}

{{/*
The volumes of a process that uses Postgres (or not: the gateway): the writable /tmp every
container gets (the root filesystem is read-only) and, when postgres.tls.caSecret names one, the
CA that signed the database's certificate (URLs then say sslrootcert=/etc/checkpoint/postgres-ca/ca.crt).
Call with (dict "root" $ "database" true).
*/}}
{{- define "checkpoint.volumes" -}}
- name: tmp
  emptyDir:
    {{- with .root.Values.tmpVolume.sizeLimit }}
    sizeLimit: {{ . }}
    {{- end }}
{{- with .root.Values.postgres.tls.caSecret }}
{{- if and $.database .name }}
- name: postgres-ca
  secret:
    secretName: {{ .name }}
    items:
      - key: {{ .key }}
        path: ca.crt
{{- end }}
{{- end }}
{{- end }}

{{- define "checkpoint.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if and .database .root.Values.postgres.tls.caSecret.name }}
- name: postgres-ca
  mountPath: /etc/checkpoint/postgres-ca
  readOnly: true
{{- end }}
{{- end }}

{{/*
"true" when the Prometheus Operator's object of this kind is rendered (metrics.prometheusOperator).
auto asks for the kind itself, not only its API group: a cluster may serve ServiceMonitor without
PrometheusRule (CRDs installed one by one, an OpenTelemetry target allocator), and an object of a
kind it does not serve fails the whole install. Call with (dict "root" $ "kind" "ServiceMonitor").
*/}}
{{- define "checkpoint.prometheusOperator" -}}
{{- $values := .root.Values.metrics }}
{{- $served := .root.Capabilities.APIVersions.Has (printf "monitoring.coreos.com/v1/%s" .kind) }}
{{- if and $values.enabled (or (eq $values.prometheusOperator "always") (and (eq $values.prometheusOperator "auto") $served)) }}true{{ end }}
{{- end }}
