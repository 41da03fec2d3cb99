#!/usr/bin/env bash
# vault.sh builds, starts and stops a real Vault v1.13.0 server in -dev mode (in memory, already
# unsealed, KV v2 mounted at secret/) on a free loopback port, for the tests of executor/vault.
#
#   vault.sh build               build the server into the cache (a no-op on a cache hit)
#   vault.sh start STATE_DIR     start the server, wait for /v1/sys/health, write STATE_DIR/env
#   vault.sh stop STATE_DIR      stop the server; always safe to call
#   vault.sh start-durable STATE_DIR
#                                for make run: a server that keeps its data in STATE_DIR/data
#                                (file storage, KV v2 at secret/), initialised the first time
#                                with one unseal key and unsealed at each start, so the secrets
#                                Eos generated are there again next time. The key and the root
#                                token stay in STATE_DIR/init.json (mode 0600): a local server
#                                on loopback, for trying Eos, not for production.
#
# STATE_DIR/env is a sourceable file exporting:
#   EOS_TEST_VAULT_ADDR    http://127.0.0.1:PORT (no TLS)
#   EOS_TEST_VAULT_TOKEN   the dev server's root token
#   EOS_TEST_VAULT_STATE   STATE_DIR
# The cache lives in ${XDG_CACHE_HOME:-$HOME/.cache}/eos/vault/v1.13.0/bin/vault.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VAULT_VERSION=v1.13.0
VAULT_MODULE=github.com/hashicorp/vault
CACHE_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/eos/vault/$VAULT_VERSION
# A throwaway root token: the dev server holds nothing but test data and listens on loopback.
ROOT_TOKEN=eos-test-root


# compile builds the vault binary at $1, inside the module's copy (see build_module).
compile() {
	# The release's go.mod replaces its nested modules (api, sdk, ...) with local directories
	# that a module download does not carry. The versions go.mod requires (api v1.9.0, sdk
	# v0.8.1) are the ones this release was cut with, so the proxy's copies build it.
	drop_local_replaces
	GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -ldflags=-checklinkname=0 -o "$1" .
}

build() { build_module "$VAULT_MODULE" "$VAULT_VERSION" "$CACHE_DIR" vault compile; }

# claim builds the server and readies the caller's STATE_DIR ($state, made absolute), on a free
# port ($port, $url), stopping whatever starts there if the caller fails before it is ready.
claim() {
	build
	mkdir -p "$state"
	state=$(cd "$state" && pwd)
	alive "$state/vault.pid" && die "a server is already running for $state"
	# shellcheck disable=SC2064 # expand $state now
	trap "stop '$state'" EXIT
	port=$(free_port)
	url=http://127.0.0.1:$port
}

# launch runs the server of STATE_DIR ($1) with the arguments that follow, in a session of its
# own, with STATE_DIR as its home: a dev server writes the root token to ~/.vault-token unless
# told otherwise; keep the operator's home untouched.
launch() {
	local state=$1
	shift
	(
		export CHECKPOINT_DISABLE=1 HOME=$state
		setsid "$CACHE_DIR/bin/vault" server "$@" >>"$state/vault.log" 2>&1 </dev/null &
		echo $! >"$state/vault.pid"
	)
}

start() {
	local state=$1 start=$SECONDS port url
	claim
	launch "$state" -dev -dev-root-token-id="$ROOT_TOKEN" -dev-listen-address="127.0.0.1:$port"
	wait_ready vault "$state/vault.pid" "$url" healthy "$url" || return 1
	cat >"$state/env" <<ENV
export EOS_TEST_VAULT_ADDR=$url
export EOS_TEST_VAULT_TOKEN=$ROOT_TOKEN
export EOS_TEST_VAULT_STATE=$state
ENV
	trap - EXIT
	log "ready in $((SECONDS - start)) s at $url (state in $state)"
}

# start_durable starts the server of STATE_DIR ($1) on its file storage, initialises it the
# first time, unseals it, and mounts KV v2 at secret/ the first time.
start_durable() {
	local state=$1 start=$SECONDS port url key token
	claim
	mkdir -p "$state/data"
	cat >"$state/vault.hcl" <<HCL
storage "file" {
  path = "$state/data"
}
listener "tcp" {
  address     = "127.0.0.1:$port"
  tls_disable = true
}
api_addr      = "$url"
disable_mlock = true
HCL
	launch "$state" -config="$state/vault.hcl"
	wait_ready vault "$state/vault.pid" "$url" answers "$url" || return 1
	# Whether to initialise is the server's answer, not whether init.json exists: a data folder
	# removed by hand leaves an init.json whose key opens nothing.
	if curl -fsS "$url/v1/sys/init" | jq -e '.initialized == false' >/dev/null; then
		(umask 077 && curl -fsS -X PUT -d '{"secret_shares":1,"secret_threshold":1}' \
			"$url/v1/sys/init" >"$state/init.json.new") || die "vault init failed (see $state/vault.log)"
		mv "$state/init.json.new" "$state/init.json"
	elif [[ ! -s $state/init.json ]]; then
		die "the Vault in $state was initialised but its unseal key ($state/init.json) is gone: remove $state to start a new one (the secrets it held are lost)"
	fi
	key=$(jq -er '.keys_base64[0]' "$state/init.json") || die "no unseal key in $state/init.json"
	token=$(jq -er '.root_token' "$state/init.json") || die "no root token in $state/init.json"
	jq -n --arg key "$key" '{key: $key}' | curl -fsS -X PUT -d @- "$url/v1/sys/unseal" >/dev/null ||
		die "vault unseal failed (see $state/vault.log)"
	wait_ready vault "$state/vault.pid" "$url" healthy "$url" || return 1
	if ! curl -fsS -H "X-Vault-Token: $token" "$url/v1/sys/mounts" | jq -e '.data["secret/"]' >/dev/null; then
		curl -fsS -H "X-Vault-Token: $token" -X POST -d '{"type":"kv","options":{"version":"2"}}' \
			"$url/v1/sys/mounts/secret" || die "mounting KV v2 at secret/ failed"
	fi
	(
		umask 077
		cat >"$state/env" <<ENV
export EOS_TEST_VAULT_ADDR=$url
export EOS_TEST_VAULT_TOKEN=$token
export EOS_TEST_VAULT_STATE=$state
ENV
	)
	trap - EXIT
	log "ready in $((SECONDS - start)) s at $url (state in $state)"
}

# answers: the server is up, whether or not it is initialised and unsealed (/v1/sys/health
# answers 501 before init, 503 while sealed).
answers() { [[ $(curl -sS -o /dev/null -w '%{http_code}' "$1/v1/sys/health" 2>/dev/null) =~ ^(200|429|501|503)$ ]]; }

# healthy: /v1/sys/health answers 200 only when initialised, unsealed and active.
healthy() { curl -fsS "$1/v1/sys/health" >/dev/null 2>&1; }

stop() {
	local state=$1
	[[ -d $state ]] || return 0
	stop_pid "$state/vault.pid" INT
	rm -f "$state/env" "$state/.vault-token"
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
	start_durable "$2"
	;;
*) die "usage: $0 build | start STATE_DIR | start-durable STATE_DIR | stop STATE_DIR" ;;
esac
