#!/bin/sh
# Prints the application Secret of the district install (values.yaml: secrets.existingSecret) as YAML:
#   OIDC_CLIENT_SECRET=… SMTP_URL=smtps://user:pass@smtp.district.example.org:465 \
#     [OPENAI_API_KEY=…] ./secrets.sh checkpoint | kubectl apply -f -
# service-token-secret (services' tokens to one another) and secrets-key (seals the districts' SSO
# client secrets at rest) are generated here. Run it ONCE: a new secrets-key makes the stored SSO
# secrets unreadable. To rotate, keep the old values under service-token-secret-previous and
# secrets-key-previous (kubectl edit secret checkpoint-app) before putting new ones in place.
set -eu
namespace="${1:?usage: secrets.sh <namespace>}"
case "$namespace" in
  *[!a-z0-9-]*) echo "secrets.sh: the namespace must be a DNS label (got \"$namespace\")" >&2; exit 2 ;;
esac
: "${OIDC_CLIENT_SECRET:?set OIDC_CLIENT_SECRET to the OAuth client secret of identity.oidc.clientId}"
: "${SMTP_URL:?set SMTP_URL to the outgoing mail server, e.g. smtps://user:password@smtp.example.org:465}"
case "$SMTP_URL" in
  smtp://* | smtps://*) ;;
  *) echo "secrets.sh: SMTP_URL must start with smtp:// or smtps://" >&2; exit 2 ;;
esac

# YAML single-quoted scalars: a quote inside is written twice.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }

cat <<YAML
apiVersion: v1
kind: Secret
metadata:
  name: checkpoint-app
  namespace: $namespace
  labels:
    app.kubernetes.io/part-of: checkpoint
type: Opaque
stringData:
  service-token-secret: $(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
  secrets-key: $(head -c 32 /dev/urandom | base64)
  oidc-client-secret: $(quote "$OIDC_CLIENT_SECRET")
  smtp-url: $(quote "$SMTP_URL")
YAML
if [ -n "${OPENAI_API_KEY:-}" ]; then
  echo "  openai-api-key: $(quote "$OPENAI_API_KEY")"
fi
