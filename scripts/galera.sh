#!/usr/bin/env bash
# A 3-node MariaDB Galera cluster on loopback, for the tests (issue 16): three mariadbd processes
# from Debian's packages (galera-4 gives /usr/lib/galera/libgalera_smm.so; rsync does the state
# transfer), each with its own data folder, never touching the machine's own MariaDB on 3306.
#
#   scripts/galera.sh start            start the cluster (installs galera-4 and rsync if missing, as root)
#   scripts/galera.sh stop             stop every node (data folders kept)
#   scripts/galera.sh status           one line per node: port, up or down, cluster size seen
#   scripts/galera.sh kill N           SIGKILL node N (1..3), as a lost server
#   scripts/galera.sh restart N        start node N again: it rejoins through the others
#   scripts/galera.sh isolate N        cut node N off from the others (a network partition): it stays
#                                      up but leaves the primary component and refuses every table
#   scripts/galera.sh rejoin N         end the partition of node N: it catches up (IST) and is Synced
#   scripts/galera.sh destroy          stop and remove the data folders
#
# Nodes: MySQL ports 3311..3313 (GALERA_BASE_PORT + 1..3), group ports 4571..4573, IST 4581..4583,
# SST 4591..4593; data in $GALERA_DIR (default /tmp/relayer-galera). Administered as root through each
# node's socket; the test user relayer_test/relayer_test may use relayer_test* databases, as on 3306.
set -euo pipefail

BASE_PORT=${GALERA_BASE_PORT:-3310}
DIR=${GALERA_DIR:-/tmp/relayer-galera}
PROVIDER=/usr/lib/galera/libgalera_smm.so
NODES=(1 2 3)

port() { echo $((BASE_PORT + $1)); }
gport() { echo $((4570 + $1)); }
istport() { echo $((4580 + $1)); }
sstport() { echo $((4590 + $1)); }
datadir() { echo "$DIR/node$1/data"; }
cnf() { echo "$DIR/node$1/my.cnf"; }
pidfile() { echo "$DIR/node$1/mariadbd.pid"; }
sock() { echo "$DIR/node$1/mariadbd.sock"; }
logfile() { echo "$DIR/node$1/error.log"; }

client() { # node, sql...
  local n=$1
  shift
  # The node's socket: root is authenticated as the OS user (unix_socket), as on any Debian MariaDB.
  mariadb --no-defaults --socket="$(sock "$n")" -uroot --connect-timeout=2 -N -e "$*"
}

ensure_packages() {
  local missing=()
  [[ -f $PROVIDER ]] || missing+=(galera-4)
  command -v rsync >/dev/null || missing+=(rsync)
  if ((${#missing[@]})); then
    echo "galera: installing ${missing[*]} from Debian's packages"
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q "${missing[@]}" >/dev/null ||
      { apt-get -o DPkg::Lock::Timeout=300 update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q "${missing[@]}" >/dev/null; }
  fi
}

write_cnf() {
  local n=$1 members
  members="$(gport 1),$(gport 2),$(gport 3)"
  members="127.0.0.1:${members//,/,127.0.0.1:}"
  cat >"$(cnf "$n")" <<EOF
[mariadbd]
datadir=$(datadir "$n")
socket=$(sock "$n")
pid-file=$(pidfile "$n")
log-error=$(logfile "$n")
port=$(port "$n")
bind-address=127.0.0.1
user=mysql
skip-name-resolve
innodb_buffer_pool_size=64M
innodb_log_file_size=48M
max_connections=200
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
innodb_flush_log_at_trx_commit=2
wsrep_on=ON
wsrep_provider=$PROVIDER
wsrep_cluster_name=relayer_test_cluster
wsrep_cluster_address=gcomm://$members
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$(gport "$n")
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$(gport "$n");ist.recv_addr=127.0.0.1:$(istport "$n");gcache.size=64M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$(sstport "$n")
EOF
}

is_up() { client "$1" 'SELECT 1' >/dev/null 2>&1; }

wait_synced() { # node
  local n=$1
  for _ in $(seq 1 120); do
    if [[ $(client "$n" "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | awk '{print $2}') == Synced ]]; then
      return 0
    fi
    sleep 0.5
  done
  echo "galera: node $n did not reach Synced in 60 s; its log:" >&2
  tail -n 30 "$(logfile "$n")" >&2 || true
  return 1
}

start_node() { # node, extra args...
  local n=$1
  shift
  if is_up "$n"; then return 0; fi
  rm -f "$(pidfile "$n")"
  start-stop-daemon --start --background --pidfile "$(pidfile "$n")" --exec "$(command -v mariadbd)" -- \
    --defaults-file="$(cnf "$n")" "$@"
  wait_synced "$n"
}

init_node() {
  local n=$1
  mkdir -p "$DIR/node$n"
  write_cnf "$n"
  if [[ ! -d $(datadir "$n")/mysql ]]; then
    mariadb-install-db --no-defaults --datadir="$(datadir "$n")" --user=mysql --skip-test-db >/dev/null
  fi
  chown -R mysql:mysql "$DIR/node$n"
}

cluster_size() { client "$1" "SHOW STATUS LIKE 'wsrep_cluster_size'" 2>/dev/null | awk '{print $2}'; }

start() {
  ensure_packages
  mkdir -p "$DIR"
  chmod 755 "$DIR"
  for n in "${NODES[@]}"; do init_node "$n"; done
  if ! is_up 1 && ! is_up 2 && ! is_up 3; then
    # No node runs: the first bootstraps a new cluster (safe_to_bootstrap after a clean stop).
    sed -i 's/^safe_to_bootstrap: 0/safe_to_bootstrap: 1/' "$(datadir 1)/grastate.dat" 2>/dev/null || true
    start_node 1 --wsrep-new-cluster
  fi
  for n in "${NODES[@]}"; do start_node "$n"; done
  # RELOAD: the Galera suite holds FLUSH TABLES WITH READ LOCK on a node to make it apply writes late.
  client 1 "CREATE USER IF NOT EXISTS 'relayer_test'@'127.0.0.1' IDENTIFIED BY 'relayer_test';
    CREATE USER IF NOT EXISTS 'relayer_test'@'localhost' IDENTIFIED BY 'relayer_test';
    GRANT ALL PRIVILEGES ON \`relayer\\_test%\`.* TO 'relayer_test'@'127.0.0.1';
    GRANT ALL PRIVILEGES ON \`relayer\\_test%\`.* TO 'relayer_test'@'localhost';
    GRANT RELOAD ON *.* TO 'relayer_test'@'127.0.0.1';"
  status
}

stop_node() { # a clean shutdown (TERM), waited for up to 30 s, then KILL
  local n=$1 pid
  [[ -f $(pidfile "$n") ]] || return 0
  pid=$(cat "$(pidfile "$n")")
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.5
  done
  kill -KILL "$pid" 2>/dev/null || true
}

stop() {
  # The last node stopped is the one that may bootstrap next time: stop 3, 2, then 1.
  for n in 3 2 1; do stop_node "$n"; done
}

status() {
  for n in "${NODES[@]}"; do
    if is_up "$n"; then
      echo "node$n 127.0.0.1:$(port "$n") up, cluster size $(cluster_size "$n")"
    else
      echo "node$n 127.0.0.1:$(port "$n") down"
    fi
  done
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  kill) [[ -f $(pidfile "$2") ]] && kill -9 "$(cat "$(pidfile "$2")")" ;;
  restart) start_node "$2" ;;
  isolate) client "$2" "SET GLOBAL wsrep_provider_options='gmcast.isolate=1'" ;;
  rejoin)
    client "$2" "SET GLOBAL wsrep_provider_options='gmcast.isolate=0'"
    wait_synced "$2"
    ;;
  destroy)
    stop
    rm -rf "$DIR"
    ;;
  *)
    echo "usage: $0 start|stop|status|kill N|restart N|isolate N|rejoin N|destroy" >&2
    exit 2
    ;;
esac
