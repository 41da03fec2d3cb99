#!/usr/bin/env bash
# postgres.sh starts and stops a throwaway PostgreSQL 15 cluster on a free loopback port, for
# the tests of Terraform's pg state backend (executor/terraform, cmd/eos).
#
#   postgres.sh build             nothing to build (PostgreSQL comes from Debian); checks the binaries
#   postgres.sh start STATE_DIR   initialise and start the cluster, create eos_state, write STATE_DIR/env
#   postgres.sh restart STATE_DIR stop the cluster and start it again on the same port (a failover test)
#   postgres.sh stop STATE_DIR    stop the cluster and remove its files; always safe to call
#
# STATE_DIR/env is a sourceable file exporting:
#   EOS_TEST_PG_CONN   postgres://postgres@127.0.0.1:PORT/eos_state?sslmode=disable
# The cluster trusts every local connection: it is for tests on loopback only.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
DB_NAME=eos_state

build() {
	local b
	for b in initdb pg_ctl createdb; do
		[[ -x $PG_BIN/$b ]] || die "$PG_BIN/$b is missing: install postgresql-15 or set PG_BIN"
	done
}

start() {
	local state=$1 start=$SECONDS pgdir port
	build
	mkdir -p "$state"
	state=$(cd "$state" && pwd)
	[[ -f $state/pgdir ]] && die "a cluster is already running for $state"
	# On any failure below, leave nothing running.
	# shellcheck disable=SC2064 # expand $state now: it is local
	trap "stop '$state'" EXIT
	# The cluster lives outside STATE_DIR: STATE_DIR's parents need not be readable by postgres.
	pgdir=$(mktemp -d /tmp/eos-pg.XXXXXX)
	echo "$pgdir" >"$state/pgdir"
	[[ $EUID -eq 0 ]] && chown postgres: "$pgdir"
	port=$(free_port)
	as_pg "$PG_BIN/initdb" -D "$pgdir/data" -A trust -U postgres --no-sync >"$state/initdb.log" 2>&1 ||
		die "initdb failed: $(tail -5 "$state/initdb.log")"
	as_pg "$PG_BIN/pg_ctl" -D "$pgdir/data" -w -l "$pgdir/log" \
		-o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off" start >/dev/null ||
		die "postgres did not start: $(tail -5 "$pgdir/log")"
	as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres "$DB_NAME" ||
		die "createdb $DB_NAME failed: $(tail -5 "$pgdir/log")"
	cat >"$state/env" <<ENV
export EOS_TEST_PG_CONN='postgres://postgres@127.0.0.1:$port/$DB_NAME?sslmode=disable'
ENV
	trap - EXIT
	log "ready in $((SECONDS - start)) s on 127.0.0.1:$port (state in $state)"
}

stop() {
	local state=$1 pgdir
	[[ -f $state/pgdir ]] || return 0
	pgdir=$(cat "$state/pgdir")
	if [[ -f $pgdir/data/postmaster.pid ]]; then
		as_pg "$PG_BIN/pg_ctl" -D "$pgdir/data" -m fast -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$pgdir"
	rm -f "$state/pgdir" "$state/env"
}

restart() {
	local state=$1 pgdir
	[[ -f $state/pgdir ]] || die "no cluster is running for $state"
	pgdir=$(cat "$state/pgdir")
	as_pg "$PG_BIN/pg_ctl" -D "$pgdir/data" -m fast -w -l "$pgdir/log" restart >/dev/null ||
		die "postgres did not restart: $(tail -5 "$pgdir/log")"
}

cmd=${1:-}
case "$cmd" in
build) build ;;
start | stop | restart)
	[[ $# -eq 2 ]] || die "usage: $0 $cmd STATE_DIR"
	"$cmd" "$2"
	;;
*) die "usage: $0 build | start STATE_DIR | restart STATE_DIR | stop STATE_DIR" ;;
esac
