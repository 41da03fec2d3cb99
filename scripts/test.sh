#!/usr/bin/env bash
# test.sh runs every test of Eos with the real servers they need: it builds (or takes from the
# cache) and starts Mattermost with its PostgreSQL on loopback, exports where they listen, runs
# `go test ./...`, and stops the servers whatever happens. Called by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."

export GOTOOLCHAIN=local CHECKPOINT_DISABLE=1
state=$(mktemp -d "${TMPDIR:-/tmp}/eos-test.XXXXXX")
chmod 755 "$state"
cleanup() {
	scripts/testenv/mattermost.sh stop "$state/mattermost" >/dev/null 2>&1 || true
	rm -rf "$state"
}
trap cleanup EXIT

echo "test.sh: preparing Mattermost (the first build takes ~10 minutes; later runs use the cache)"
scripts/testenv/mattermost.sh build
mkdir -p "$state/mattermost"
scripts/testenv/mattermost.sh start "$state/mattermost"
# shellcheck disable=SC1091
source "$state/mattermost/env"

export EOS_TEST_PROVIDER_MIRROR="${EOS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/eos}/providers"
echo "test.sh: running go test ./..."
go vet ./...
go test -count=1 -timeout 40m "$@" ./...
