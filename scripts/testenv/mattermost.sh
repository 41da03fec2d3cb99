#!/usr/bin/env bash
# mattermost.sh builds, starts and stops a real Mattermost v6.7.2 server, with its own
# PostgreSQL 15 cluster, on free loopback ports, for the end-to-end tests of adapters/mattermost.
#
#   mattermost.sh build               build the server into the cache (a no-op on a cache hit)
#   mattermost.sh start STATE_DIR     start postgres + mattermost, write STATE_DIR/env
#   mattermost.sh restart STATE_DIR   restart mattermost only, on the same port (reconnect tests)
#   mattermost.sh stop STATE_DIR      stop both and remove the database; always safe to call
#
# STATE_DIR/env is a sourceable file exporting:
#   EOS_TEST_MATTERMOST_URL             http://127.0.0.1:PORT
#   EOS_TEST_MATTERMOST_ADMIN_USER      the system admin the tests create (the first user of a
#   EOS_TEST_MATTERMOST_ADMIN_PASSWORD  fresh server becomes system admin)
#   EOS_TEST_MATTERMOST_STATE           STATE_DIR, so a test can restart the server
# The cache lives in ${XDG_CACHE_HOME:-$HOME/.cache}/eos/mattermost/v6.7.2 (bin/ and src/).
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MM_VERSION=v6.7.2
MM_MODULE=github.com/mattermost/mattermost-server/v6
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
CACHE_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/eos/mattermost/$MM_VERSION
ADMIN_USER=admin
ADMIN_PASSWORD='Admin-Passw0rd!'

# cache_ok reports whether the cache holds a complete build.
cache_ok() {
	[[ -x $CACHE_DIR/bin/mattermost && -d $CACHE_DIR/src/i18n && -d $CACHE_DIR/src/templates && -d $CACHE_DIR/src/fonts ]]
}

# compile builds the mattermost binary at $1, inside the module's copy (see build_module).
compile() {
	GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -ldflags=-checklinkname=0 -o "$1" ./cmd/mattermost
}

build() {
	# A cache whose source lacks the files the server reads at start is built again.
	cache_ok || rm -rf "$CACHE_DIR/bin"
	build_module "$MM_MODULE" "$MM_VERSION" "$CACHE_DIR" mattermost compile keep-src
}

start_postgres() {
	local state=$1 pgdir port
	# The cluster lives outside STATE_DIR: STATE_DIR's parents need not be readable by postgres.
	pgdir=$(mktemp -d /tmp/eos-mm-pg.XXXXXX)
	echo "$pgdir" >"$state/pgdir"
	[[ $EUID -eq 0 ]] && chown postgres: "$pgdir"
	port=$(free_port)
	echo "$port" >"$state/pgport"
	as_pg "$PG_BIN/initdb" -D "$pgdir/data" -A trust -U postgres --no-sync >"$state/initdb.log" 2>&1 ||
		die "initdb failed: $(tail -5 "$state/initdb.log")"
	as_pg "$PG_BIN/pg_ctl" -D "$pgdir/data" -w -l "$pgdir/log" \
		-o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off" start >/dev/null ||
		die "postgres did not start: $(tail -5 "$pgdir/log")"
	as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres mattermost
}

start_mattermost() {
	local state=$1 pgport port url
	pgport=$(cat "$state/pgport")
	port=$(cat "$state/port")
	url=http://127.0.0.1:$port
	mkdir -p "$state/files" "$state/logs" "$state/plugins" "$state/client-plugins"
	(
		cd "$CACHE_DIR/src"
		export MM_SQLSETTINGS_DRIVERNAME=postgres \
			MM_SQLSETTINGS_DATASOURCE="postgres://postgres@127.0.0.1:$pgport/mattermost?sslmode=disable" \
			MM_SERVICESETTINGS_LISTENADDRESS="127.0.0.1:$port" \
			MM_SERVICESETTINGS_SITEURL="$url" \
			MM_SERVICESETTINGS_ENABLEBOTACCOUNTCREATION=true \
			MM_SERVICESETTINGS_ENABLEUSERACCESSTOKENS=true \
			MM_SERVICESETTINGS_ENABLELOCALMODE=false \
			MM_TEAMSETTINGS_ENABLEOPENSERVER=true \
			MM_TEAMSETTINGS_MAXUSERSPERTEAM=100000 \
			MM_PLUGINSETTINGS_ENABLE=false \
			MM_PLUGINSETTINGS_DIRECTORY="$state/plugins" \
			MM_PLUGINSETTINGS_CLIENTDIRECTORY="$state/client-plugins" \
			MM_FILESETTINGS_DIRECTORY="$state/files" \
			MM_RATELIMITSETTINGS_ENABLE=false \
			MM_LOGSETTINGS_ENABLEDIAGNOSTICS=false \
			MM_SERVICESETTINGS_ENABLESECURITYFIXALERT=false \
			MM_LOGSETTINGS_ENABLEFILE=true \
			MM_LOGSETTINGS_FILELOCATION="$state/logs" \
			MM_LOGSETTINGS_CONSOLELEVEL=ERROR \
			MM_NOTIFICATIONLOGSETTINGS_ENABLEFILE=false \
			MM_EMAILSETTINGS_SENDEMAILNOTIFICATIONS=false \
			MM_EMAILSETTINGS_REQUIREEMAILVERIFICATION=false
		setsid "$CACHE_DIR/bin/mattermost" server --config "$state/config.json" >>"$state/mattermost.log" 2>&1 </dev/null &
		echo $! >"$state/mattermost.pid"
	)
	WAIT_LOGS="$state/mattermost.log $state/logs/mattermost.log" \
		wait_ready mattermost "$state/mattermost.pid" "$url" pings "$url"
}

# pings: the server answers its health check with status OK.
pings() { curl -fsS "$1/api/v4/system/ping" 2>/dev/null | grep -q '"status":"OK"'; }

stop_mattermost() { stop_pid "$1/mattermost.pid" TERM; }

stop_postgres() {
	local state=$1 pgdir
	[[ -f $state/pgdir ]] || return 0
	pgdir=$(cat "$state/pgdir")
	if [[ -f $pgdir/data/postmaster.pid ]]; then
		as_pg "$PG_BIN/pg_ctl" -D "$pgdir/data" -m fast -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$pgdir"
	rm -f "$state/pgdir"
}

start() {
	local state=$1 start=$SECONDS
	build
	mkdir -p "$state"
	state=$(cd "$state" && pwd)
	alive "$state/mattermost.pid" && die "a server is already running for $state"
	# On any failure below, leave nothing running.
	# shellcheck disable=SC2064 # expand $state now: it is local
	trap "stop '$state'" EXIT
	start_postgres "$state"
	free_port >"$state/port"
	start_mattermost "$state"
	cat >"$state/env" <<ENV
export EOS_TEST_MATTERMOST_URL=http://127.0.0.1:$(cat "$state/port")
export EOS_TEST_MATTERMOST_ADMIN_USER=$ADMIN_USER
export EOS_TEST_MATTERMOST_ADMIN_PASSWORD='$ADMIN_PASSWORD'
export EOS_TEST_MATTERMOST_STATE=$state
ENV
	trap - EXIT
	log "ready in $((SECONDS - start)) s at http://127.0.0.1:$(cat "$state/port") (state in $state)"
}

restart() {
	local state=$1 start=$SECONDS
	[[ -f $state/port ]] || die "no server was started in $state"
	stop_mattermost "$state"
	start_mattermost "$state"
	log "restarted in $((SECONDS - start)) s"
}

stop() {
	local state=$1
	[[ -d $state ]] || return 0
	stop_mattermost "$state"
	stop_postgres "$state"
}

cmd=${1:-}
case "$cmd" in
build) build ;;
start | restart | stop)
	[[ $# -eq 2 ]] || die "usage: $0 $cmd STATE_DIR"
	"$cmd" "$2"
	;;
*) die "usage: $0 build | start STATE_DIR | restart STATE_DIR | stop STATE_DIR" ;;
esac
