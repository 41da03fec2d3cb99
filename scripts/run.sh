#!/usr/bin/env bash
# run.sh runs bin/eos serve on its embedded default, for `make run`. When the Nomad agent that
# scripts/testenv/nomad.sh builds is in the cache, it starts a dev agent (state in
# .eos/nomad-agent), points Eos's Nomad layer at it (EOS_NOMAD_ADDR), so the blueprints' local
# jobs run for real, and stops the agent when eos exits, however it exits. Without the agent,
# eos runs with Nomad "not configured" and one line says how to get it. Arguments go to
# `eos serve`; the environment (EOS_TERRAFORM_MIRROR, EOS_LOG_LEVEL, ...) passes through.
set -euo pipefail
cd "$(dirname "$0")/.."

nomad_bin=${XDG_CACHE_HOME:-$HOME/.cache}/eos/nomad/v1.4.1/bin/nomad
agent=.eos/nomad-agent

if [[ -n ${EOS_NOMAD_ADDR:-} ]]; then
	: # a Nomad of the caller's own: use it as is
elif [[ -x $nomad_bin ]]; then
	mkdir -p "$agent"
	# An agent left by a run that was killed too hard to clean up would refuse to start.
	scripts/testenv/nomad.sh stop "$agent" >/dev/null 2>&1 || true
	trap 'scripts/testenv/nomad.sh stop "$agent" >/dev/null 2>&1 || true' EXIT
	scripts/testenv/nomad.sh start "$agent"
	# shellcheck disable=SC1091 # written by nomad.sh start
	source "$agent/env"
	export EOS_NOMAD_ADDR=$EOS_TEST_NOMAD_ADDR
	echo "run.sh: Nomad dev agent at $EOS_NOMAD_ADDR (UI there too); it stops when eos does"
else
	echo "run.sh: no Nomad agent built, so the Nomad layer is skipped; for real workloads run scripts/testenv/nomad.sh build (several minutes, once)"
fi

# Not exec: the trap above must run after eos exits. Ctrl-C reaches eos (same process group)
# and ends it; this shell survives it (a handled signal, unlike an ignored one, is not passed
# on as ignored to eos), waits for eos, then stops the agent (started in a session of its own,
# so Ctrl-C never reaches it).
trap ':' INT TERM
status=0
./bin/eos serve "$@" || status=$?
exit "$status"
