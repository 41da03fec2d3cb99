#!/usr/bin/env bash
# test.sh runs every test of Eos with the real servers they need: it builds (or takes from the
# cache under ~/.cache/eos) Mattermost with its PostgreSQL, a Nomad agent, a Vault dev server, a
# Consul dev agent, a PostgreSQL for Terraform's consul and pg backends, and a Salt master, minion
# and salt-api (from the tarball in ../shared/vendor/salt), starts them on loopback, exports where
# they listen, runs `go vet` and `go test ./...`, and stops the servers whatever happens. Called by
# `make test`; arguments go to `go test`. `test.sh --bench [ARGS]` runs the benchmarks instead
# (`make bench`), with the same servers, so the ones that need Mattermost run too.
set -euo pipefail
cd "$(dirname "$0")/.."

export GOTOOLCHAIN=local CHECKPOINT_DISABLE=1
# CI goes to the tests as the caller set it, never changed: set to anything, it makes a test that
# lacks its server or tool fail instead of skip, and below it makes any other skip fail the run.
export CI=${CI:-}
bench=false
if [[ ${1:-} == --bench ]]; then
	bench=true
	shift
fi
# Vault before Nomad: nomad.sh integrates the agent with the Vault whose env is exported then.
servers=(mattermost vault nomad consul postgres salt)
state=$(mktemp -d "${TMPDIR:-/tmp}/eos-test.XXXXXX")
chmod 755 "$state"
cleanup() {
	for s in "${servers[@]}"; do
		scripts/testenv/$s.sh stop "$state/$s" >/dev/null 2>&1 || true
	done
	rm -rf "$state"
}
trap cleanup EXIT

# The Salt-state tests render Jinja with python3; Debian's packages provide it on a machine
# whose python lacks the modules.
if ! python3 -c 'import jinja2, yaml' 2>/dev/null; then
	echo "test.sh: installing python3-jinja2 and python3-yaml"
	apt-get install -y -qq python3-jinja2 python3-yaml >/dev/null || { apt-get update -qq && apt-get install -y -qq python3-jinja2 python3-yaml >/dev/null; }
	export PATH=/usr/bin:$PATH
fi
# The status page's browser tests drive Debian's chromium (bot/web); it has no server to start.
scripts/testenv/chromium.sh build

# Builds only happen on a cache miss (Mattermost ~10 minutes, Nomad and Vault several each on
# two cores); one at a time, so they do not starve each other.
for s in "${servers[@]}"; do
	echo "test.sh: preparing $s" >&2
	scripts/testenv/$s.sh build
done
for s in "${servers[@]}"; do
	mkdir -p "$state/$s"
	scripts/testenv/$s.sh start "$state/$s"
	set -a
	# shellcheck disable=SC1090
	source "$state/$s/env"
	set +a
done

# A mirror of this run's own: the shared one in the cache keeps one version at a time, and
# another checkout rebuilding it must not pull the provider from under these tests.
scripts/eoslab-mirror.sh "$state/providers" >/dev/null
export EOS_TEST_PROVIDER_MIRROR="$state/providers"
if $bench; then
	# conftest is only for the benchmark comparing it with Eos's policy evaluation: without it
	# that benchmark skips and says why, the others run.
	if scripts/testenv/conftest.sh build; then
		export EOS_CONFTEST=$(scripts/testenv/conftest.sh path)
	fi
	echo "test.sh: go test -bench ./..." >&2
	go test -run '^$' -bench . -benchmem -timeout 60m "$@" ./...
	exit
fi
echo "test.sh: go vet and go test ./..."
go vet ./...
if [[ -z $CI ]]; then
	go test -count=1 -timeout 45m "$@" ./...
	exit
fi
# In CI a skipped test fails the run, whatever made it skip. The only skips allowed are the
# conformance cases that do not apply to a platform: the console has no connection to drop.
allowed_skips='^(TestConformanceReconnectionKeepsTheConversation|TestConformanceApprovalAcrossADrop)/console$'
go test -count=1 -timeout 45m -v "$@" ./... 2>&1 | tee "$state/go-test.log"
skipped=$(sed -nE 's/^ *--- SKIP: ([^ ]+) .*/\1/p' "$state/go-test.log" | grep -Ev "$allowed_skips" || true)
if [[ -n $skipped ]]; then
	echo "test.sh: CI is set, and these tests skipped (see their reasons above):" >&2
	echo "$skipped" | sed 's/^/  /' >&2
	exit 1
fi
