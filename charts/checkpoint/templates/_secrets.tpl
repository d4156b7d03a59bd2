{{/*
The Secrets the chart makes (templates/secrets.yaml renders them); a named template so that the
pods' checksum annotation hashes the same text.
*/}}
{{- define "checkpoint.secretsManifest" -}}
{{- include "checkpoint.validate" . }}
{{- if not .Values.postgres.existingSecret }}
# Each service's connection URL (and the admin URL), from postgres.urls.
apiVersion: v1
kind: Secret
metadata:
  name: {{ include "checkpoint.postgresSecretName" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "checkpoint.labels" . | nindent 4 }}
type: Opaque
data:
  {{- range $key, $url := .Values.postgres.urls }}
  {{- if $url }}
  {{ index $.Values.postgres.secretKeys $key }}: {{ $url | b64enc | quote }}
  {{- end }}
  {{- end }}
{{- end }}
{{- if not .Values.secrets.existingSecret }}
{{- $name := include "checkpoint.secretsName" . }}
{{- /* Generated once: an upgrade keeps what the cluster holds (lookup answers nothing under helm template). */}}
{{- $current := (lookup "v1" "Secret" .Release.Namespace $name).data | default dict }}
{{- /*
Nothing to keep (a first install, or a render that cannot look into the cluster: helm template,
Argo CD) means generating, which only secrets.generate asks for: under a GitOps render every sync
would otherwise make a new SECRETS_KEY (the stored SSO secrets no longer open) and roll every pod.
*/}}
{{- $missing := list }}
{{- range $key := list "service-token-secret" "secrets-key" }}
{{- if not (index $current $key) }}{{ $missing = append $missing $key }}{{ end }}
{{- end }}
{{- if and $missing (not .Values.secrets.generate) }}
{{- fail (printf "set secrets.existingSecret or secrets.generate: there is no %s in Secret %s to keep (a first install, or a render that cannot look into the cluster: helm template, Argo CD). secrets.existingSecret: a Secret you made with service-token-secret and secrets-key (deploy/district-oidc/secrets.sh prints one; the only choice for GitOps). secrets.generate=true: helm install generates them once and upgrades keep them" (join " or " $missing) $name) }}
{{- end }}
{{- /*
Generated values are made once per render and remembered in the values (a key the schema refuses
from users), so the pods' checksum hashes the values the Secret really gets: no needless roll at
the first upgrade.
*/}}
{{- if not (hasKey .Values "_generated") }}
{{- $_ := set .Values "_generated" (dict "service-token-secret" (randAlphaNum 64 | b64enc) "secrets-key" (randAlphaNum 32 | b64enc | b64enc)) }}
{{- end }}
{{- $serviceToken := index $current "service-token-secret" | default (index .Values._generated "service-token-secret") }}
{{- $secretsKey := index $current "secrets-key" | default (index .Values._generated "secrets-key") }}
---
# service-token-secret and secrets-key are generated at the first install and kept afterwards;
# this Secret outlives an uninstall (SECRETS_KEY seals the districts' SSO client secrets in the
# database: a reinstall must open them). Delete it by hand with the database.
apiVersion: v1
kind: Secret
metadata:
  name: {{ $name }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "checkpoint.labels" . | nindent 4 }}
  annotations:
    helm.sh/resource-policy: keep
type: Opaque
data:
  service-token-secret: {{ $serviceToken | quote }}
  secrets-key: {{ $secretsKey | quote }}
  {{- /* Rotation (docs/kubernetes.md): former values put here by hand stay until removed by hand. */}}
  {{- range $key := list "service-token-secret-previous" "secrets-key-previous" }}
  {{- with index $current $key }}
  {{ $key }}: {{ . | quote }}
  {{- end }}
  {{- end }}
  {{- with .Values.secrets.oidcClientSecret }}
  oidc-client-secret: {{ . | b64enc | quote }}
  {{- end }}
  {{- with .Values.secrets.openaiApiKey }}
  openai-api-key: {{ . | b64enc | quote }}
  {{- end }}
  {{- with .Values.secrets.smtpUrl }}
  smtp-url: {{ . | b64enc | quote }}
  {{- end }}
{{- end }}
{{- end }}
