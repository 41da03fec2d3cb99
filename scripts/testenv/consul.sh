#!/usr/bin/env bash
# consul.sh builds, starts and stops a real Consul v1.21.0 agent in -dev mode (a single server,
# in memory, its own leader) on free loopback ports, for the tests of Terraform's consul state
# backend (executor/terraform).
#
#   consul.sh build               build the agent into the cache (a no-op on a cache hit)
#   consul.sh start STATE_DIR     start the agent, wait for a leader, write STATE_DIR/env
#   consul.sh stop STATE_DIR      stop the agent; always safe to call
#
# STATE_DIR/env is a sourceable file exporting:
#   EOS_TEST_CONSUL_ADDR    127.0.0.1:PORT (the agent's HTTP API; no ACLs, no TLS)
#   EOS_TEST_CONSUL_STATE   STATE_DIR
# The agent serves HTTP, server RPC and Serf LAN on free loopback ports; DNS, gRPC, gRPC-TLS,
# HTTPS and Serf WAN are off.
# The cache lives in ${XDG_CACHE_HOME:-$HOME/.cache}/eos/consul/v1.21.0/bin/consul.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The newest 1.x that builds from the module proxy here: the proxy refuses the zips of v1.21.1
# to v1.21.4 (403), and v1.22.0 requires nested-module releases (proto-public v0.7.0,
# envoyextensions v0.9.0, troubleshoot v0.8.0) that the checksum database does not know. It
# builds with Go 1.26 as is (no -checklinkname=0).
CONSUL_VERSION=v1.21.0
CONSUL_MODULE=github.com/hashicorp/consul
CACHE_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/eos/consul/$CONSUL_VERSION


# compile builds the consul binary at $1, inside the module's copy (see build_module).
compile() {
	# The release's go.mod replaces its nested modules (api, sdk, proto-public, envoyextensions,
	# troubleshoot) with local directories that a module download does not carry. The versions
	# go.mod requires are the ones this release was cut with, so the proxy's copies build it.
	drop_local_replaces
	GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -o "$1" .
}

build() { build_module "$CONSUL_MODULE" "$CONSUL_VERSION" "$CACHE_DIR" consul compile; }

start() {
	local state=$1 start=$SECONDS http server serf addr
	build
	mkdir -p "$state"
	state=$(cd "$state" && pwd)
	alive "$state/consul.pid" && die "an agent is already running for $state"
	# On any failure below, leave nothing running.
	# shellcheck disable=SC2064 # expand $state now: it is local
	trap "stop '$state'" EXIT
	http=$(free_port)
	server=$(free_port)
	serf=$(free_port)
	addr=127.0.0.1:$http
	(
		export CHECKPOINT_DISABLE=1
		setsid "$CACHE_DIR/bin/consul" agent -dev -bind=127.0.0.1 -client=127.0.0.1 \
			-node=eos-test -disable-host-node-id -log-level=info \
			-http-port="$http" -server-port="$server" -serf-lan-port="$serf" -serf-wan-port=-1 \
			-dns-port=-1 -grpc-port=-1 -grpc-tls-port=-1 -https-port=-1 \
			>>"$state/consul.log" 2>&1 </dev/null &
		echo $! >"$state/consul.pid"
	)
	wait_ready consul "$state/consul.pid" "$addr" has_leader "$addr" || return 1
	cat >"$state/env" <<ENV
export EOS_TEST_CONSUL_ADDR=$addr
export EOS_TEST_CONSUL_STATE=$state
ENV
	trap - EXIT
	log "ready in $((SECONDS - start)) s at $addr (state in $state)"
}

# has_leader: the KV store and sessions (Terraform's lock) need a leader; until one is elected
# the endpoint answers "".
has_leader() { [[ $(curl -fsS "http://$1/v1/status/leader" 2>/dev/null) == \"?*\" ]]; }

stop() {
	local state=$1
	[[ -d $state ]] || return 0
	stop_pid "$state/consul.pid" INT
	rm -f "$state/env"
}

cmd=${1:-}
case "$cmd" in
build) build ;;
start | stop)
	[[ $# -eq 2 ]] || die "usage: $0 $cmd STATE_DIR"
	"$cmd" "$2"
	;;
*) die "usage: $0 build | start STATE_DIR | stop STATE_DIR" ;;
esac
