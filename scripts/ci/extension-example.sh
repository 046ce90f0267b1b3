#!/usr/bin/env bash
# CI: the service as a package (docs/extending.md). Builds and packs it, copies examples/extension-app
# to a clean temporary folder, installs the tarball there with no `overrides`, as a consumer would (its other dependencies from the registry
# or the npm cache), type-checks the TypeScript variant against the package's types, runs the
# example's tests (both variants), then checks that `npx relayer-service` starts the service on its
# embedded defaults. Also: the tarball's contents, no test-only package installed with it, one
# @nestjs/common, and the refusal on a Node older than the one it needs. About two minutes, most of it
# the install (from the npm cache when warm).
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
tar -tzf relayer-management-service.tgz >"$work/contents"
# A plain install, as docs/extending.md tells a consumer: the example declares no `overrides`.
if grep -q '"overrides"' package.json; then
  echo "extension example: examples/extension-app/package.json declares overrides; a consumer needs none" >&2
  exit 1
fi
npm install --no-audit --no-fund --prefer-offline

echo "extension example: the tarball holds LICENSE, CHANGELOG.md and the built console, no source map and no dist/package.json"
for file in LICENSE CHANGELOG.md index.cjs dist/console/index.html dist/console/manifest.json; do
  grep -qx "package/$file" "$work/contents" || { echo "extension example: $file missing from the tarball" >&2; exit 1; }
done
if grep -E '\.map$|^package/dist/package\.json$' "$work/contents" >&2; then
  echo "extension example: the tarball ships the files above (source maps without sources, a copy of package.json)" >&2
  exit 1
fi

echo "extension example: nothing only the service's tests use is installed, and one @nestjs/common"
# Without overrides npm ls reports two things it may: @nest-lab/throttler-storage-redis's peer range
# stops at Nest 11 (it runs on the one Nest 12 installed), and the better-sqlite3 12 npm places for
# typeorm's optional peer (extraneous: the service hands TypeORM its own 13). Anything else fails.
npm ls --all --parseable >"$work/installed" 2>"$work/ls.log" || true
if grep -E '^npm error (missing|invalid):' "$work/ls.log" | grep -vE '^npm error invalid: @nestjs/(common|core)@' >&2; then
  echo "extension example: npm ls finds problems in the installed tree (above)" >&2
  exit 1
fi
if grep -E '/node_modules/(@foundry-rs/[^/]+|@solana/[^/]+|@openzeppelin/relayer-sdk|jest|ts-jest|supertest|@types/supertest|viem|fast-check|autocannon|node)(/|$)' "$work/installed" >&2; then
  echo "extension example: test-only packages installed with the service (above)" >&2
  exit 1
fi
if [ "$(grep -c '/node_modules/@nestjs/common$' "$work/installed")" != 1 ]; then
  npm ls @nestjs/common >&2 || true
  echo "extension example: more than one @nestjs/common installed" >&2
  exit 1
fi

# The system Node, outside node_modules/.bin (Node 20 on this machine): the entry and the command
# must stop with both versions named, before any of the service's modules loads.
old_node=$(PATH=/usr/local/bin:/usr/bin:/bin command -v node || true)
if [ -n "$old_node" ] && [ "$("$old_node" -p 'Number(process.versions.node.split(".")[0]) < 24')" = true ]; then
  old_version=$("$old_node" -p process.versions.node)
  echo "extension example: Node $old_version ($old_node) is refused, naming both versions"
  expected="relayer-management-service needs Node 24 or newer; this is Node $old_version"
  refused() {
    if "$old_node" "$@" >"$work/old-node.log" 2>&1; then
      echo "extension example: on Node $old_version, node $* did not fail" >&2
      exit 1
    fi
    if ! grep -qF "$expected" "$work/old-node.log"; then
      cat "$work/old-node.log" >&2
      echo "extension example: on Node $old_version, node $* did not say: $expected" >&2
      exit 1
    fi
  }
  refused -e "require('relayer-management-service')"
  refused node_modules/.bin/relayer-service
else
  echo "extension example: no Node older than 24 outside node_modules: the version refusal is not checked"
fi

echo "extension example: type-check (strict, the package's own .d.ts too) and build the TypeScript variant"
npm run build --silent
echo "extension example: its tests (plain JavaScript and TypeScript; the tutorial on SQLite and MySQL)"
# The tutorial's suite makes its own relayer_test_ext_* databases on this server (the MariaDB of scripts/ci/services.sh).
EXAMPLE_MYSQL_URL=${MYSQL_TEST_URL:-mysql://relayer_test:relayer_test@127.0.0.1:3306} npm test --silent

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
