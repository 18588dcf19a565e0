# PostgreSQL and Redis for the tests that need them (the PostgreSQL store, the cluster).
# Sourced by scripts/test.sh and scripts/cluster.sh. When nothing answers on the standard local
# ports (5432, 6379) and we are root with apt-get, installs Debian's `postgresql` and
# `redis-server` when absent and starts them; creates the test role and database. Exports
# CHESSARBITER_TEST_PG and CHESSARBITER_TEST_REDIS (kept when already set); the tests that
# need a service they cannot reach are skipped, saying why. Quick when both already run.

source "$(dirname "${BASH_SOURCE[0]}")/apt.sh"  # apt_get

answering() {  # answering PORT: whether something accepts connections on 127.0.0.1:PORT
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

wait_for() {  # wait_for PORT NAME: up to SERVICES_WAIT_S seconds for PORT to answer
    local deadline=$((SECONDS + ${SERVICES_WAIT_S:-30}))
    until answering "$1"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "warning: $2 does not answer on port $1" >&2
            return 1
        fi
        sleep 0.2
    done
}

can_install() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && declare -F apt_get >/dev/null
}

services_updated=
install_debian() {  # install_debian PACKAGE...: apt-get install (update once first)
    if [ -z "$services_updated" ]; then
        apt_get update -qq || return 1
        services_updated=1
    fi
    echo "installing Debian packages: $*"
    DEBIAN_FRONTEND=noninteractive apt_get install -y -qq "$@"
}

start_postgres() {
    answering 5432 && return 0
    can_install || return 1
    command -v pg_ctlcluster >/dev/null || install_debian postgresql || return 1
    answering 5432 && return 0  # started by the package's installation
    local version cluster
    read -r version cluster _ < <(pg_lsclusters -h 2>/dev/null | awk '$3 == 5432')
    if [ -z "${version:-}" ]; then
        version="$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' \
            | sort -n | tail -1)"
        cluster=main
        pg_createcluster -p 5432 "$version" "$cluster" >/dev/null || return 1
    fi
    pg_ctlcluster "$version" "$cluster" start || return 1
    wait_for 5432 PostgreSQL
}

as_postgres() {  # as_postgres SQL: one value from psql as the postgres superuser (socket)
    runuser -u postgres -- psql -qtA -p 5432 -c "$1"
}

postgres_database() {  # postgres_database NAME: the role chessarbiter and its database NAME
    [ "$(id -u)" = 0 ] && command -v runuser >/dev/null || return 0
    if [ "$(as_postgres "SELECT 1 FROM pg_roles WHERE rolname = 'chessarbiter'")" != 1 ]; then
        as_postgres "CREATE ROLE chessarbiter LOGIN PASSWORD 'chessarbiter'" >/dev/null \
            || return 1
    fi
    if [ "$(as_postgres "SELECT 1 FROM pg_database WHERE datname = '$1'")" != 1 ]; then
        as_postgres "CREATE DATABASE $1 OWNER chessarbiter" >/dev/null || return 1
    fi
}

start_redis() {
    answering 6379 && return 0
    can_install || return 1
    command -v redis-server >/dev/null || install_debian redis-server || return 1
    answering 6379 && return 0
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no \
        --logfile '' >/dev/null || return 1
    wait_for 6379 Redis
}

if start_postgres && postgres_database chessarbiter_test; then
    export CHESSARBITER_TEST_PG="${CHESSARBITER_TEST_PG:-postgresql://chessarbiter:chessarbiter@127.0.0.1:5432/chessarbiter_test}"
else
    echo "warning: no PostgreSQL: the tests that need it are skipped" >&2
fi
if start_redis; then
    export CHESSARBITER_TEST_REDIS="${CHESSARBITER_TEST_REDIS:-redis://127.0.0.1:6379/0}"
else
    echo "warning: no Redis: the tests that need it are skipped" >&2
fi
