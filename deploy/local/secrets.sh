#!/bin/sh
# Prints the local Postgres's Secret with fresh passwords, as YAML (deploy/local/skaffold.yaml runs
# it once, when the Secret is missing: the Postgres volume keeps the first passwords):
#   ./secrets.sh <namespace> | kubectl apply -n <namespace> -f -
# Keys: password (the postgres superuser's) and admin-url, read by the all-in-one (it provisions
# its cp_<service> roles itself); <service>-password (postgres.yaml's init script makes the role
# cp_<service> with it) and <service>-url, read by the microservices topology.
set -eu
namespace="${1:?usage: secrets.sh <namespace>}"
case "$namespace" in
  *[!a-z0-9-]*) echo "secrets.sh: the namespace must be a DNS label (got \"$namespace\")" >&2; exit 2 ;;
esac
host="checkpoint-local-postgres.$namespace.svc:5432"
password() { od -An -N24 -tx1 /dev/urandom | tr -d ' \n'; }

admin="$(password)"
cat <<YAML
apiVersion: v1
kind: Secret
metadata:
  name: checkpoint-local-postgres
  namespace: $namespace
  labels:
    app.kubernetes.io/part-of: checkpoint
type: Opaque
stringData:
  password: $admin
  admin-url: postgres://postgres:$admin@$host/checkpoint?sslmode=disable
YAML
for service in identity class assessment generation analytics integrations; do
  secret="$(password)"
  echo "  $service-password: $secret"
  echo "  $service-url: postgres://cp_$service:$secret@$host/checkpoint?sslmode=disable"
done
