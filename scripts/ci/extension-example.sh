#!/usr/bin/env bash
# CI: the service as a package (docs/extending.md). Builds and packs it, copies examples/extension-app
# to a clean temporary folder, installs the tarball there (its other dependencies from the registry
# or the npm cache), type-checks the TypeScript variant against the package's types, runs the
# example's tests (both variants), then checks that `npx relayer-service` starts the service on its
# embedded defaults. About two minutes, most of it the install (from the npm cache when warm).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
# The Node the service runs on (the `node` devDependency), for the install scripts and the tests too.
export PATH="$root/node_modules/.bin:$PATH"
work=$(mktemp -d "${TMPDIR:-/tmp}/extension-example.XXXXXX")
service_pid=
cleanup() {
  # npx runs the service as its child: stop the whole process group started below.
  if [ -n "$service_pid" ]; then kill -- "-$service_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "extension example: build (when the sources changed since the last build) and pack the service"
# npm pack's prepack builds with scripts/build-if-stale.mjs: after npm test, dist/ is already fresh.
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)

echo "extension example: install $tarball into a clean copy of examples/extension-app"
mkdir "$work/app"
tar -C "$root/examples/extension-app" --exclude=node_modules --exclude=dist --exclude='*.tgz' -cf - . | tar -C "$work/app" -xf -
mv "$work/$tarball" "$work/app/relayer-management-service.tgz"
cd "$work/app"
npm install --no-audit --no-fund --prefer-offline --omit=optional

echo "extension example: type-check and build the TypeScript variant"
npm run build --silent
echo "extension example: its tests (plain JavaScript and TypeScript)"
npm test --silent

echo "extension example: npx relayer-service starts the service on its embedded defaults"
port=$(node -e "const s=require('node:net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})")
# Only the port is set (a free one): the database, the configuration file and the key are the defaults.
PORT=$port setsid npx --no-install relayer-service >"$work/service.log" 2>&1 &
service_pid=$!
for _ in $(seq 1 60); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/ready")" = 200 ]; then
    echo "extension example: passed (the service answers /api/v1/ready on port $port)"
    exit 0
  fi
  if ! kill -0 "$service_pid" 2>/dev/null; then break; fi
  sleep 0.5
done
echo "extension example: npx relayer-service did not become ready; its output:" >&2
cat "$work/service.log" >&2
exit 1
