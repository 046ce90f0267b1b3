#!/usr/bin/env bash
# `npm run test:galera`: starts the 3-node Galera cluster (scripts/galera.sh), runs
# test/resilience/galera.e2e-spec.ts against it (one service instance per node), stops the cluster.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/galera.sh start || exit 1
start=$(date +%s)
GALERA_TEST_PORTS=3311,3312,3313 NODE_OPTIONS=--experimental-vm-modules \
  npx jest test/resilience/galera.e2e-spec.ts --selectProjects e2e-mysql --runInBand --verbose
status=$?
echo "galera suite: $(($(date +%s) - start)) s"
bash scripts/galera.sh stop
exit $status
