{{/*
The environment of one process; call with (dict "root" $ "name" "identity" "values" $componentValues).
Names and meanings: README.md "Environment variables" and each service's src/config.ts. A name the
component's env or envFromSecrets sets replaces the chart's entry of that name: each name once (a
container with a name twice is refused by some patches on upgrade).
*/}}
{{- define "checkpoint.env" -}}
{{- $own := merge (dict) (.values.env | default dict) (.values.envFromSecrets | default dict) }}
{{- $kept := list }}
{{- range include "checkpoint.chartEnv" . | fromYamlArray }}
{{- if not (hasKey $own .name) }}
{{- $kept = append $kept . }}
{{- end }}
{{- end }}
{{- with $kept }}
{{ toYaml . }}
{{- end }}
{{- range $key, $value := .values.env }}
- name: {{ $key }}
  value: {{ $value | quote }}
{{- end }}
{{- range $key, $ref := .values.envFromSecrets }}
{{ include "checkpoint.secretEnv" (dict "name" $key "secret" $ref.secretName "key" $ref.key) }}
{{- end }}
{{- end }}

{{/* What the chart itself sets in a process's environment (see checkpoint.env). */}}
{{- define "checkpoint.chartEnv" -}}
{{- $root := .root }}
{{- $name := .name }}
{{- $secrets := include "checkpoint.secretsName" $root }}
{{- $postgres := include "checkpoint.postgresSecretName" $root }}
{{- $allInOne := eq $name "all-in-one" }}
- name: PORT
  value: "8080"
- name: HOST
  value: {{ $root.Values.listenAddress | quote }}
{{- if $root.Values.metrics.enabled }}
- name: METRICS_PORT
  value: {{ $root.Values.metrics.port | quote }}
{{- else }}
{{- /* The image sets METRICS_PORT=9464, and the processes read no value as "off" (unset: 9464; "" or
0: any free port, on HOST): the metrics server listens on the pod's loopback only, so no scrape (each
one queries Postgres and Kafka) reaches it from the network, whatever the NetworkPolicy. */}}
- name: METRICS_HOST
  value: "127.0.0.1"
{{- end }}
- name: LOG_LEVEL
  value: {{ $root.Values.logLevel | quote }}
- name: SHUTDOWN_TIMEOUT_MS
  value: {{ mul $root.Values.shutdownTimeoutSeconds 1000 | quote }}
# The migrate hook Job applied the migrations before this release's pods start.
- name: MIGRATE_ON_START
  value: "false"
{{ include "checkpoint.secretEnv" (dict "name" "SERVICE_TOKEN_SECRET" "secret" $secrets "key" "service-token-secret") }}
{{ include "checkpoint.secretEnv" (dict "name" "SERVICE_TOKEN_SECRET_PREVIOUS" "secret" $secrets "key" "service-token-secret-previous" "optional" true) }}
{{- with $root.Values.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- /* Database: a service's own role, or the admin URL the all-in-one provisions the roles with. */}}
{{- if ne $name "gateway" }}
{{ include "checkpoint.secretEnv" (dict "name" "DATABASE_URL" "secret" $postgres "key" (index $root.Values.postgres.secretKeys (ternary "admin" $name $allInOne))) }}
{{- /* The all-in-one keeps its own small default (4 per service, five pools in one process). */}}
{{- if not $allInOne }}
- name: DATABASE_POOL_SIZE
  value: {{ $root.Values.postgres.poolSize | quote }}
{{- end }}
{{- end }}
{{- if and (ne $name "gateway") (not $allInOne) }}
{{- if $root.Values.kafka.existingSecret }}
{{ include "checkpoint.secretEnv" (dict "name" "KAFKA_BROKERS" "secret" $root.Values.kafka.existingSecret "key" $root.Values.kafka.existingSecretKey) }}
{{- else }}
- name: KAFKA_BROKERS
  value: {{ $root.Values.kafka.brokers | quote }}
{{- end }}
{{- include "checkpoint.kafkaSecurityEnv" $root }}
{{- end }}
{{- if has $name (list "identity" "analytics" "integrations" "gateway" "all-in-one") }}
- name: PUBLIC_URL
  value: {{ include "checkpoint.publicUrl" $root | quote }}
{{- end }}
{{- if has $name (list "identity" "analytics" "all-in-one") }}
{{ include "checkpoint.secretEnv" (dict "name" "SMTP_URL" "secret" $secrets "key" "smtp-url" "optional" true) }}
{{- with $root.Values.identity.mailFrom }}
- name: MAIL_FROM
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- if has $name (list "identity" "all-in-one") }}
- name: DEMO_SEED
  value: {{ and $allInOne $root.Values.allInOne.demoSeed | toString | quote }}
- name: OIDC_ISSUER
  value: {{ $root.Values.identity.oidc.issuer | quote }}
{{- with $root.Values.identity.oidc.clientId }}
- name: OIDC_CLIENT_ID
  value: {{ . | quote }}
{{- end }}
{{ include "checkpoint.secretEnv" (dict "name" "OIDC_CLIENT_SECRET" "secret" $secrets "key" "oidc-client-secret" "optional" true) }}
{{ include "checkpoint.secretEnv" (dict "name" "SECRETS_KEY" "secret" $secrets "key" "secrets-key") }}
{{ include "checkpoint.secretEnv" (dict "name" "SECRETS_KEY_PREVIOUS" "secret" $secrets "key" "secrets-key-previous" "optional" true) }}
{{- end }}
{{- if has $name (list "generation" "all-in-one") }}
- name: GENERATION_PROVIDER
  value: {{ $root.Values.generation.provider | quote }}
{{ include "checkpoint.secretEnv" (dict "name" "OPENAI_API_KEY" "secret" $secrets "key" "openai-api-key" "optional" true) }}
{{- with $root.Values.generation.openaiBaseUrl }}
- name: OPENAI_BASE_URL
  value: {{ . | quote }}
{{- end }}
- name: OPENAI_MODEL
  value: {{ $root.Values.generation.openaiModel | quote }}
{{- end }}
{{- if $allInOne }}
# Where the all-in-one keeps its local mailbox while no smtp-url is given (the writable /tmp).
- name: DATA_DIR
  value: /tmp/checkpoint
{{- end }}
{{- if eq $name "gateway" }}
{{- range $service := splitList " " (include "checkpoint.serviceNames" $root) }}
- name: {{ upper $service }}_URL
  value: {{ printf "http://%s:8080" (include "checkpoint.componentName" (dict "root" $root "component" $service)) | quote }}
{{- end }}
{{- end }}
{{- if eq $name "integrations" }}
{{- /* A verified LTI launch signs the LMS user in (identity) and reaches the course's class (class): their internal routes. */}}
{{- range $service := list "identity" "class" }}
- name: {{ upper $service }}_URL
  value: {{ printf "http://%s:8080" (include "checkpoint.componentName" (dict "root" $root "component" $service)) | quote }}
{{- end }}
{{- end }}
{{- if and (has $name (list "gateway" "all-in-one")) $root.Values.gateway.trustedProxies }}
- name: TRUSTED_PROXIES
  value: {{ $root.Values.gateway.trustedProxies | quote }}
{{- end }}
{{- end }}

{{/*
The Kafka connection's TLS and SASL variables (kafka.tls, kafka.sasl) of a process that uses
Kafka; refuses a half-given setting with the value to set.
*/}}
{{- define "checkpoint.kafkaSecurityEnv" -}}
{{- $tls := .Values.kafka.tls | default dict }}
{{- $sasl := .Values.kafka.sasl | default dict }}
{{- $ca := $tls.caSecret | default dict }}
{{- if and $ca.name (not $tls.enabled) }}
{{- fail "kafka.tls.caSecret.name is set but kafka.tls.enabled is not: set kafka.tls.enabled=true" }}
{{- end }}
{{- if and $sasl.mechanism (not $sasl.existingSecret) }}
{{- fail (printf "kafka.sasl.mechanism %s needs kafka.sasl.existingSecret: a Secret with the password under kafka.sasl.passwordKey" $sasl.mechanism) }}
{{- end }}
{{- if and $sasl.existingSecret (not $sasl.mechanism) }}
{{- fail "kafka.sasl.existingSecret is set but kafka.sasl.mechanism is not: set scram-sha-512, scram-sha-256 or plain" }}
{{- end }}
{{- if $tls.enabled }}
- name: KAFKA_TLS
  value: "true"
{{- if $ca.name }}
- name: KAFKA_TLS_CA_FILE
  value: /etc/checkpoint/kafka-ca/ca.crt
{{- end }}
{{- end }}
{{- if $sasl.mechanism }}
- name: KAFKA_SASL_MECHANISM
  value: {{ $sasl.mechanism | quote }}
{{- if $sasl.username }}
- name: KAFKA_SASL_USERNAME
  value: {{ $sasl.username | quote }}
{{- else }}
{{ include "checkpoint.secretEnv" (dict "name" "KAFKA_SASL_USERNAME" "secret" $sasl.existingSecret "key" $sasl.usernameKey) }}
{{- end }}
{{ include "checkpoint.secretEnv" (dict "name" "KAFKA_SASL_PASSWORD" "secret" $sasl.existingSecret "key" $sasl.passwordKey) }}
{{- end }}
{{- end }}

{{/*
The Secret volume of the Kafka brokers' CA (kafka.tls.caSecret), mounted read-only at
/etc/checkpoint/kafka-ca in the processes that use Kafka (the services, not the gateway or the
all-in-one). (dict "root" $ "name" "identity" "part" "volume"|"mount").
*/}}
{{- define "checkpoint.kafkaCaVolume" -}}
{{- $tls := .root.Values.kafka.tls | default dict }}
{{- $ca := $tls.caSecret | default dict }}
{{- if and $tls.enabled $ca.name (not (has .name (list "gateway" "all-in-one"))) }}
{{- if eq .part "volume" }}
- name: kafka-ca
  secret:
    secretName: {{ $ca.name }}
    items:
      - key: {{ $ca.key }}
        path: ca.crt
{{- else }}
- name: kafka-ca
  mountPath: /etc/checkpoint/kafka-ca
  readOnly: true
{{- end }}
{{- end }}
{{- end }}
