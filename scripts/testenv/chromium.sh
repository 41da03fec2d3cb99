#!/usr/bin/env bash
# chromium.sh provides the headless Chromium that the status page's browser tests (bot/web)
# drive through chromedp. Chromium is a program the tests start themselves, on loopback, so
# it has nothing to start or stop here.
#
#   chromium.sh build   install Debian's chromium when /usr/bin/chromium is missing
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CHROMIUM=/usr/bin/chromium

build() {
	[[ -x $CHROMIUM ]] && return
	log "installing chromium"
	apt-get install -y -qq chromium >/dev/null ||
		{ apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } ||
		die "could not install chromium: the status page's browser tests need $CHROMIUM"
	[[ -x $CHROMIUM ]] || die "chromium is installed but $CHROMIUM is missing"
}

case "${1:-}" in
build) build ;;
*) die "usage: $0 build" ;;
esac
