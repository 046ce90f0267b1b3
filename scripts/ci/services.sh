#!/usr/bin/env bash
# Makes sure MariaDB and Redis answer on this machine (starting them as ../shared/services.md
# says when they do not) and creates the test user, which may only touch relayer_test* databases.
set -euo pipefail

wait_for() { # name, command...
  local name=$1; shift
  for _ in $(seq 1 60); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "services: $name does not answer after 30 s" >&2
  return 1
}

if ! mariadb-admin ping >/dev/null 2>&1; then
  echo "services: starting MariaDB"
  start-stop-daemon --start --oknodo --background --exec "$(command -v mariadbd)" -- --user=mysql
fi
wait_for MariaDB mariadb-admin ping

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "services: starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
fi
wait_for Redis redis-cli -h 127.0.0.1 -p 6379 ping

mariadb -uroot <<'SQL'
CREATE USER IF NOT EXISTS 'relayer_test'@'localhost' IDENTIFIED BY 'relayer_test';
CREATE USER IF NOT EXISTS 'relayer_test'@'127.0.0.1' IDENTIFIED BY 'relayer_test';
GRANT ALL PRIVILEGES ON `relayer\_test%`.* TO 'relayer_test'@'localhost';
GRANT ALL PRIVILEGES ON `relayer\_test%`.* TO 'relayer_test'@'127.0.0.1';
FLUSH PRIVILEGES;
SQL
echo "services: MariaDB and Redis answer; user relayer_test is ready"
