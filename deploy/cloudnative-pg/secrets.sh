#!/bin/sh
# Prints the Secrets the CloudNativePG example needs, with fresh random passwords, as YAML:
#   ./secrets.sh <namespace> [cluster-name] | kubectl apply -f -
# - checkpoint-db-owner and checkpoint-db-cp-<service> (kubernetes.io/basic-auth): the roles'
#   passwords, which CloudNativePG sets in Postgres (cluster.yaml: bootstrap.initdb.secret, managed.roles);
# - checkpoint-postgres: the connection URLs the chart reads (postgres.existingSecret), one per
#   service role, plus admin-url, the database owner's (for an operator's psql; microservices
#   pods never read it).
# Run it once. Applying a second run's output rotates every password: CloudNativePG changes the
# roles at once, while the pods read the URLs at start, so restart them right after
# (kubectl rollout restart deployment -l app.kubernetes.io/name=checkpoint).
set -eu
namespace="${1:?usage: secrets.sh <namespace> [cluster-name]}"
cluster="${2:-checkpoint-db}"
case "$namespace$cluster" in
  *[!a-z0-9-]*) echo "secrets.sh: namespace and cluster name must be DNS labels" >&2; exit 2 ;;
esac
host="$cluster-rw.$namespace.svc"
# CloudNativePG serves TLS with a certificate from the cluster's own CA (Secret <cluster>-ca), which
# the chart mounts at this path (values.yaml: postgres.tls.caSecret): the server is verified.
tls="sslmode=verify-full&sslrootcert=/etc/checkpoint/postgres-ca/ca.crt"

password() {
  # 48 hex characters: nothing to escape inside the connection URLs.
  od -An -N24 -tx1 /dev/urandom | tr -d ' \n'
}

basic_auth() {
  cat <<YAML
---
apiVersion: v1
kind: Secret
metadata:
  name: $1
  namespace: $namespace
  labels:
    app.kubernetes.io/part-of: checkpoint
    cnpg.io/reload: "true"
type: kubernetes.io/basic-auth
stringData:
  username: $2
  password: $3
YAML
}

owner_password="$(password)"
basic_auth checkpoint-db-owner checkpoint "$owner_password"
urls="  admin-url: postgres://checkpoint:$owner_password@$host:5432/checkpoint?$tls"
for service in identity class assessment generation analytics integrations; do
  secret="$(password)"
  basic_auth "checkpoint-db-cp-$service" "cp_$service" "$secret"
  urls="$urls
  $service-url: postgres://cp_$service:$secret@$host:5432/checkpoint?$tls"
done
cat <<YAML
---
apiVersion: v1
kind: Secret
metadata:
  name: checkpoint-postgres
  namespace: $namespace
  labels:
    app.kubernetes.io/part-of: checkpoint
type: Opaque
stringData:
$urls
YAML
