#!/usr/bin/env bash
# nomad.sh builds, starts and stops a real Nomad v1.4.1 agent (server + client, -dev mode) on
# free loopback ports, for the end-to-end tests of executor/nomad. The client enables the
# raw_exec driver so test jobs run without a container engine.
#
#   nomad.sh build               build the agent into the cache (a no-op on a cache hit)
#   nomad.sh start STATE_DIR     start the agent, wait for a ready node, write STATE_DIR/env
#   nomad.sh stop STATE_DIR      stop the agent and remove its data; always safe to call
#   nomad.sh start-durable STATE_DIR
#                                start a single-node agent that is not in -dev mode: its server
#                                and client keep their state in STATE_DIR/data, so the agent
#                                can be stopped and started again with the jobs, allocations
#                                and deployments it had (-dev keeps them in memory)
#   nomad.sh stop-agent STATE_DIR
#                                stop a durable agent's process only, as an upgrade or a systemd
#                                restart does: its data and its tasks stay
#   nomad.sh start-agent STATE_DIR
#                                start a durable agent again on the same ports and data, and
#                                wait until its node is ready
#   nomad.sh pause STATE_DIR     stop a durable agent and the tasks it runs, keeping its data:
#                                started again (start-agent), it has its jobs and runs their
#                                allocations again (make run, between two sessions)
#
# When EOS_TEST_VAULT_ADDR and EOS_TEST_VAULT_TOKEN are set at start (vault.sh's env sourced
# first), the agent runs with Vault integration on that server and token, so jobs with a vault
# stanza get tokens and their templates read secrets.
#
# STATE_DIR/env is a sourceable file exporting:
#   EOS_TEST_NOMAD_ADDR        http://127.0.0.1:PORT (the agent's HTTP API; no ACLs, no TLS)
#   EOS_TEST_NOMAD_STATE       STATE_DIR
#   EOS_TEST_NOMAD_VAULT_ADDR  the Vault the agent integrates with; "" without one
# The cache lives in ${XDG_CACHE_HOME:-$HOME/.cache}/eos/nomad/v1.4.1/bin/nomad.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NOMAD_VERSION=v1.4.1
NOMAD_MODULE=github.com/hashicorp/nomad
# The api module at exactly the v1.4.1 release commit. The release's go.mod replaces it with
# the ./api directory, which a module download does not carry as a separate module.
NOMAD_API_VERSION=v0.0.0-20221006174558-2aa7e66bdb52
CACHE_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/eos/nomad/$NOMAD_VERSION


# compile builds the nomad binary at $1, inside the module's copy (see build_module).
compile() {
	GOTOOLCHAIN=local go mod edit -dropreplace "$NOMAD_MODULE/api" -require "$NOMAD_MODULE/api@$NOMAD_API_VERSION"
	GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -ldflags=-checklinkname=0 -o "$1" .
}

build() { build_module "$NOMAD_MODULE" "$NOMAD_VERSION" "$CACHE_DIR" nomad compile; }

start() {
	local state=$1 durable=${2:-} start=$SECONDS http rpc serf url
	build
	mkdir -p "$state"
	state=$(cd "$state" && pwd)
	alive "$state/nomad.pid" && die "an agent is already running for $state"
	# On any failure below, leave nothing running.
	# shellcheck disable=SC2064 # expand $state now: it is local
	trap "stop '$state'" EXIT
	http=$(free_port)
	rpc=$(free_port)
	serf=$(free_port)
	url=http://127.0.0.1:$http
	mkdir -p "$state/data"
	cat >"$state/agent.hcl" <<HCL
$(if [[ -n $durable ]]; then durable_config "$state"; fi)
ports {
  http = $http
  rpc  = $rpc
  serf = $serf
}
client {
  enabled           = true
  network_interface = "lo"
}
plugin "raw_exec" {
  config {
    enabled = true
  }
}
HCL
	local vault_addr=${EOS_TEST_VAULT_ADDR:-}
	if [[ -n $vault_addr && -n ${EOS_TEST_VAULT_TOKEN:-} ]]; then
		# The dev server's root token: Nomad derives the tasks' tokens from it.
		cat >>"$state/agent.hcl" <<HCL
vault {
  enabled = true
  address = "$vault_addr"
  token   = "$EOS_TEST_VAULT_TOKEN"
}
HCL
	else
		vault_addr=
	fi
	if [[ -n $durable ]]; then
		echo "$url" >"$state/durable"
	fi
	launch "$state" "$url" || return 1
	cat >"$state/env" <<ENV
export EOS_TEST_NOMAD_ADDR=$url
export EOS_TEST_NOMAD_STATE=$state
export EOS_TEST_NOMAD_VAULT_ADDR=$vault_addr
ENV
	trap - EXIT
	log "ready in $((SECONDS - start)) s at $url (state in $state${vault_addr:+, Vault at $vault_addr})"
}

# durable_config is the agent configuration that replaces -dev for start-durable: one server
# that elects itself, with the client (on the loopback interface, as -dev's) keeping its state
# in STATE_DIR/data too.
durable_config() {
	cat <<HCL
data_dir  = "$1/data"
bind_addr = "127.0.0.1"
advertise {
  http = "127.0.0.1"
  rpc  = "127.0.0.1"
  serf = "127.0.0.1"
}
server {
  enabled          = true
  bootstrap_expect = 1
}
HCL
}

# launch runs the agent of STATE_DIR ($1) and waits until its node at URL ($2) is ready.
launch() {
	local state=$1 url=$2 mode=(-dev -bind=127.0.0.1 -network-interface=lo -data-dir="$1/data")
	[[ -f $state/durable ]] && mode=()
	(
		# EOS_NOMAD_STATE marks the agent and the helpers it forks (executor, logmon), so stop
		# can find them if the agent dies without cleaning up.
		export CHECKPOINT_DISABLE=1 EOS_NOMAD_STATE=$state
		setsid "$CACHE_DIR/bin/nomad" agent "${mode[@]}" -config="$state/agent.hcl" \
			>>"$state/nomad.log" 2>&1 </dev/null &
		echo $! >"$state/nomad.pid"
	)
	wait_ready nomad "$state/nomad.pid" "$url" node_ready "$url"
}

# stop_agent stops a durable agent's process, leaving its data and its tasks.
stop_agent() {
	local state=$1
	[[ -f $state/durable ]] || die "$state is not a durable agent (start-durable)"
	stop_pid "$state/nomad.pid" TERM
}

# pause stops a durable agent and kills what its tasks run, leaving its data; safe to call when
# nothing runs.
pause() {
	local state=$1
	[[ -f $state/durable ]] || die "$state is not a durable agent (start-durable)"
	state=$(cd "$state" && pwd) # reap matches absolute paths (/proc's cwd, mount points)
	stop_pid "$state/nomad.pid" TERM
	reap "$state/data"
}

# start_agent starts a durable agent stopped by stop_agent again.
start_agent() {
	local state=$1 start=$SECONDS url
	[[ -f $state/durable ]] || die "$state is not a durable agent (start-durable)"
	state=$(cd "$state" && pwd) # the marker reap looks for (EOS_NOMAD_STATE) is absolute
	alive "$state/nomad.pid" && die "the agent of $state is running"
	url=$(cat "$state/durable")
	launch "$state" "$url" || return 1
	log "started again in $((SECONDS - start)) s at $url"
}

# node_ready: the agent answers and its one client node is ready for work.
node_ready() {
	curl -fsS "$1/v1/agent/self" >/dev/null 2>&1 &&
		curl -fsS "$1/v1/nodes" 2>/dev/null | grep -q '"Status":"ready"'
}

stop() {
	local state=$1
	[[ -d $state ]] || return 0
	state=$(cd "$state" && pwd) # reap matches absolute paths (/proc's cwd, mount points)
	# -dev agents leave on SIGINT; SIGTERM also works but INT is the documented way.
	stop_pid "$state/nomad.pid" INT
	reap "$state/data"
	rm -rf "$state/data" "$state/env" "$state/durable"
}

# reap kills what the agent's tasks left behind: a -dev agent stops its allocations when it
# leaves, but one that had to be killed leaves raw_exec tasks, executors and log monitors
# running, and (as root) the tasks' secrets directories mounted. They are found by the
# EOS_NOMAD_STATE marker in their environment, or by their working directory or command line
# under the agent's data dir.
reap() {
	local data=$1 state dir pid mnt
	state=$(dirname "$data")
	[[ -d $data ]] || return 0
	for dir in /proc/[0-9]*; do
		pid=${dir#/proc/}
		if [[ $(readlink "$dir/cwd" 2>/dev/null) == "$data"/* ]] ||
			{ tr '\0' '\n' <"$dir/environ"; } 2>/dev/null | grep -qxF -- "EOS_NOMAD_STATE=$state" ||
			{ tr '\0' ' ' <"$dir/cmdline"; } 2>/dev/null | grep -qF -- "$data/"; then
			kill -KILL "$pid" 2>/dev/null || true
		fi
	done
	# Deepest first, so nested mounts come off before their parents.
	awk -v p="$data/" 'index($2, p) == 1 { print $2 }' /proc/self/mounts | sort -r |
		while read -r mnt; do
			umount -l "$mnt" 2>/dev/null || true
		done
}

cmd=${1:-}
case "$cmd" in
build) build ;;
start | stop)
	[[ $# -eq 2 ]] || die "usage: $0 $cmd STATE_DIR"
	"$cmd" "$2"
	;;
start-durable)
	[[ $# -eq 2 ]] || die "usage: $0 $cmd STATE_DIR"
	start "$2" durable
	;;
stop-agent | start-agent | pause)
	[[ $# -eq 2 ]] || die "usage: $0 $cmd STATE_DIR"
	"${cmd/-/_}" "$2"
	;;
*) die "usage: $0 build | start STATE_DIR | stop STATE_DIR | start-durable STATE_DIR | stop-agent STATE_DIR | start-agent STATE_DIR | pause STATE_DIR" ;;
esac
