#!/usr/bin/env bash
# run.sh runs bin/eos serve on its embedded default, for `make run`, with as many layers real as
# this machine allows:
# - Nomad: when the agent scripts/testenv/nomad.sh builds is in the cache, a single-node agent
#   (state in .eos/nomad-agent, kept between runs as the store and the simulated cloud are) runs
#   the blueprints' local jobs (EOS_NOMAD_ADDR).
# - Vault: when the server scripts/testenv/vault.sh builds is in the cache, one on loopback that
#   keeps its data in .eos/vault (initialised the first time, unsealed at each start), so the
#   secrets Eos generates are real and are there again next time (EOS_VAULT_ADDR).
# - Salt: when its tarball (../shared/vendor/salt) or an unpacked copy is at hand (the first
#   run unpacks it and installs Salt's Debian packages), a salt-master, a minion and salt-api (state in .eos/salt) run
#   the blueprints' local states, which manage files under .eos/salt/data (EOS_SALT_URL, ...).
# Each is stopped when eos exits, however it exits; a layer that cannot run is "not configured"
# and one line says how to get it. Arguments go to `eos serve`; the environment
# (EOS_TERRAFORM_MIRROR, EOS_LOG_LEVEL, a Nomad or Salt of the caller's own, ...) passes through.
set -euo pipefail
cd "$(dirname "$0")/.."

# One make run at a time in this folder: a second would stop the first's servers (each start
# below stops what an earlier run left running) and then find its store in use.
mkdir -p .eos
if [[ -f .eos/run.pid ]]; then
	other=$(cat .eos/run.pid)
	if [[ $other =~ ^[0-9]+$ ]] && kill -0 "$other" 2>/dev/null &&
		tr '\0' ' ' <"/proc/$other/cmdline" 2>/dev/null | grep -q 'run\.sh'; then
		echo "run.sh: another make run (pid $other) is using $(pwd)/.eos, its servers and its store: stop it first (/quit or Ctrl-C there)" >&2
		exit 1
	fi
fi
echo $$ >.eos/run.pid

nomad_bin=${XDG_CACHE_HOME:-$HOME/.cache}/eos/nomad/v1.4.1/bin/nomad
vault_bin=${XDG_CACHE_HOME:-$HOME/.cache}/eos/vault/v1.13.0/bin/vault
vault_state=.eos/vault
agent=.eos/nomad-agent
salt_state=.eos/salt
started=()

# server runs one of the server scripts without Eos's own EOS_* variables, where its tokens are
# best given (EOS_MATTERMOST_TOKEN=… make run, and the local Vault's token below): the Nomad
# agent passes its environment on to every raw_exec task, and a Salt minion to every command a
# state runs, so every local workload would see them. Only the scripts' own settings stay.
server() {
	local v unset=()
	for v in $(compgen -e); do
		case $v in
		EOS_SALT_VENDOR | EOS_SALT_TOKEN_EXPIRE) ;;
		EOS_*) unset+=(-u "$v") ;;
		esac
	done
	env "${unset[@]}" "$@"
}

stop_all() {
	local s
	for s in "${started[@]+"${started[@]}"}"; do
		case $s in
		# Its jobs stay in its data, as the store and the simulated cloud stay in .eos: the next
		# make run starts the agent again with them, and their allocations run again.
		nomad) server scripts/testenv/nomad.sh pause "$agent" >/dev/null 2>&1 || true ;;
		salt) server scripts/testenv/salt.sh stop "$salt_state" >/dev/null 2>&1 || true ;;
		vault) server scripts/testenv/vault.sh stop "$vault_state" >/dev/null 2>&1 || true ;;
		esac
	done
	rm -f .eos/run.pid
}
trap stop_all EXIT

if [[ -n ${EOS_VAULT_ADDR:-} ]]; then
	: # a Vault of the caller's own
elif [[ -x $vault_bin ]]; then
	server scripts/testenv/vault.sh stop "$vault_state" >/dev/null 2>&1 || true
	started+=(vault)
	if server scripts/testenv/vault.sh start-durable "$vault_state"; then
		# shellcheck disable=SC1091 # written by vault.sh start-durable
		source "$vault_state/env"
		# For eos only: the servers below start without EOS_* variables (server), so the Nomad
		# agent does not integrate with it (the local jobs do not read Vault).
		export EOS_VAULT_ADDR=$EOS_TEST_VAULT_ADDR EOS_VAULT_TOKEN=$EOS_TEST_VAULT_TOKEN
		echo "run.sh: Vault at $EOS_VAULT_ADDR (data in $vault_state, its unseal key and root token in $vault_state/init.json); it stops when eos does"
	else
		echo "run.sh: the Vault server in $vault_state could not start (see $vault_state/vault.log), so the Vault layer is skipped"
	fi
else
	echo "run.sh: no Vault server built, so the Vault layer is skipped and secrets are not generated; for it run scripts/testenv/vault.sh build (several minutes, once)"
fi

if [[ -n ${EOS_NOMAD_ADDR:-} ]]; then
	: # a Nomad of the caller's own: use it as is
elif [[ -x $nomad_bin ]]; then
	mkdir -p "$agent"
	started+=(nomad)
	if [[ -f $agent/durable ]]; then
		# The agent of an earlier make run, with its jobs (one left running by a run killed too
		# hard to clean up is stopped first).
		server scripts/testenv/nomad.sh pause "$agent" >/dev/null 2>&1 || true
		if ! server scripts/testenv/nomad.sh start-agent "$agent"; then
			echo "run.sh: the Nomad agent of the last make run could not start again (its ports are taken?): starting a new one, without the jobs deployed before; @eos drift shows them missing and @eos reconcile SERVICE starts them again"
			server scripts/testenv/nomad.sh stop "$agent" >/dev/null 2>&1 || true
			server scripts/testenv/nomad.sh start-durable "$agent"
		fi
	else
		# An agent of an older make run (-dev, nothing kept) would refuse to start.
		server scripts/testenv/nomad.sh stop "$agent" >/dev/null 2>&1 || true
		server scripts/testenv/nomad.sh start-durable "$agent"
	fi
	# shellcheck disable=SC1091 # written by nomad.sh start
	source "$agent/env"
	export EOS_NOMAD_ADDR=$EOS_TEST_NOMAD_ADDR
	echo "run.sh: Nomad agent at $EOS_NOMAD_ADDR (UI there too); it stops when eos does, and starts again with its jobs next time"
else
	echo "run.sh: no Nomad agent built, so the Nomad layer is skipped; for real workloads run scripts/testenv/nomad.sh build (several minutes, once)"
fi

if [[ -n ${EOS_SALT_URL:-} ]]; then
	: # a Salt of the caller's own
elif server scripts/testenv/salt.sh present 2>/dev/null || server scripts/testenv/salt.sh build; then
	# build: on a new machine, the first make run unpacks the tarball and installs Debian's
	# python3 packages (about a minute, once); without the tarball Salt is skipped below.
	mkdir -p "$salt_state"
	server scripts/testenv/salt.sh stop "$salt_state" >/dev/null 2>&1 || true
	started+=(salt)
	server scripts/testenv/salt.sh start "$salt_state"
	# shellcheck disable=SC1091 # written by salt.sh start
	source "$salt_state/env"
	export EOS_SALT_URL=$EOS_TEST_SALT_URL EOS_SALT_USERNAME=$EOS_TEST_SALT_USER \
		EOS_SALT_PASSWORD=$EOS_TEST_SALT_PASSWORD EOS_SALT_EAUTH=$EOS_TEST_SALT_EAUTH
	echo "run.sh: Salt master, minion $EOS_TEST_SALT_MINION and salt-api at $EOS_SALT_URL; the local states manage files under $EOS_TEST_SALT_DATA; they stop when eos does"
else
	echo "run.sh: no Salt at hand, so the Salt layer is skipped; for it run scripts/testenv/salt.sh build (unpacks ../shared/vendor/salt, installs Debian's python3 packages)"
fi

# Not exec: the trap above must run after eos exits. Ctrl-C reaches eos (same process group)
# and ends it; this shell survives it (a handled signal, unlike an ignored one, is not passed
# on as ignored to eos), waits for eos, then stops the servers (started in sessions of their
# own, so Ctrl-C never reaches them).
trap ':' INT TERM
# The log goes to a file, named when eos starts, so the console's chat is only the chat.
export EOS_LOG_FILE=${EOS_LOG_FILE:-.eos/eos.log}
# The status page listens on 127.0.0.1:9747 by default; when something listens there already
# (the make run of another checkout), it takes a free port instead, which eos prints.
if [[ -z ${EOS_LISTEN:-} && -z ${EOS_CONFIG:-} ]] && (exec 3<>/dev/tcp/127.0.0.1/9747) 2>/dev/null; then
	export EOS_LISTEN=127.0.0.1:0
	echo "run.sh: 127.0.0.1:9747 is taken (another make run?), so the status page takes a free port"
fi
status=0
./bin/eos serve "$@" || status=$?
exit "$status"
