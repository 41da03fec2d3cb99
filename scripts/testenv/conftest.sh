#!/usr/bin/env bash
# conftest.sh provides conftest, the policy tool Atlantis runs once per plan, for the benchmark
# that compares it with Eos's own policy evaluation (bot: BenchmarkConftestOverABigPlan). It is
# built from the Go module proxy into the cache, keyed by version, on the first call.
#
#   conftest.sh build   install conftest when the cache lacks it
#   conftest.sh path    print where the binary is (after build)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VERSION=${CONFTEST_VERSION:-v0.71.1}
DIR=${XDG_CACHE_HOME:-$HOME/.cache}/eos/conftest/$VERSION

build() {
	[[ -x $DIR/conftest ]] && return
	log "building conftest $VERSION from the Go module proxy (a few minutes on two cores)"
	mkdir -p "$DIR"
	GOBIN="$DIR" GOTOOLCHAIN=local go install "github.com/open-policy-agent/conftest@$VERSION" ||
		die "could not build conftest $VERSION: the benchmark comparing it with Eos skips"
}

case "${1:-}" in
build) build ;;
path) echo "$DIR/conftest" ;;
*) die "usage: $0 build|path" ;;
esac
