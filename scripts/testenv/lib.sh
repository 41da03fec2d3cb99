# lib.sh holds the helpers every testenv script uses; source it, do not run it.

# log writes a line to stderr, named after the script that sourced this file.
log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }

die() {
	log "$*"
	exit 1
}

# free_port asks the kernel for a free loopback port.
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# alive reports whether the process in pid file $1 runs.
alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

# READY_TRIES bounds wait_ready: 240 × 0.5 s.
READY_TRIES=240

# wait_ready NAME PIDFILE WHERE CHECK... polls the command CHECK every half second until it
# succeeds, for at most READY_TRIES tries and only while the process in PIDFILE lives. On
# failure it says so, shows the last lines of the logs in $WAIT_LOGS (NAME.log in the pid
# file's directory by default) and returns 1.
wait_ready() {
	local name=$1 pidfile=$2 where=$3 i f
	shift 3
	for ((i = 0; i < READY_TRIES; i++)); do
		"$@" && return 0
		alive "$pidfile" || break
		sleep 0.5
	done
	log "$name did not become ready at $where; last lines of its log:"
	for f in ${WAIT_LOGS:-$(dirname "$pidfile")/$name.log}; do
		tail -30 "$f" >&2 || true
	done
	return 1
}

# stop_pid PIDFILE SIGNAL sends SIGNAL to the process in PIDFILE, waits up to 30 s for it to
# end, kills it if it has not, and removes PIDFILE.
stop_pid() {
	local pidfile=$1 signal=$2 pid i
	[[ -f $pidfile ]] || return 0
	pid=$(cat "$pidfile")
	if kill -0 "$pid" 2>/dev/null; then
		kill "-$signal" "$pid" 2>/dev/null || true
		for ((i = 0; i < 60; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.5
		done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -f "$pidfile"
}

# as_pg runs a command as the postgres user when running as root (PostgreSQL refuses root).
as_pg() {
	if [[ $EUID -eq 0 ]]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# build_module MODULE VERSION CACHE_DIR BINARY COMPILE [keep-src] builds a server from its Go
# module into CACHE_DIR/bin/BINARY on a cache miss. It downloads MODULE@VERSION through the
# module proxy, copies it somewhere writable, and runs the function COMPILE inside the copy with
# the path of the binary to write as $1. The build happens in a temporary directory next to the
# cache and is renamed into place, so an interrupted build never leaves a half-filled cache; a
# lock keeps two concurrent builds from racing. The copied source is removed afterwards unless
# keep-src is given (Mattermost serves files from it).
build_module() {
	local module=$1 version=$2 cache=$3 binary=$4 compile=$5 keep=${6:-}
	[[ -x $cache/bin/$binary ]] && return 0
	local parent
	parent=$(dirname "$cache")
	mkdir -p "$parent"
	exec 9>"$parent/.lock"
	flock 9
	if [[ -x $cache/bin/$binary ]]; then
		exec 9>&-
		return 0
	fi
	command -v go >/dev/null || die "go is not installed"
	local tmp dir start=$SECONDS
	tmp=$(mktemp -d "$parent/.build.XXXXXX")
	chmod 755 "$tmp"
	# shellcheck disable=SC2064 # expand $tmp now: it is local
	trap "rm -rf '$tmp'" EXIT
	log "downloading $module@$version"
	dir=$(cd "$tmp" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "$module@$version" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
	[[ -d $dir ]] || die "go mod download gave no module directory"
	cp -r "$dir" "$tmp/src"
	chmod -R u+w "$tmp/src"
	mkdir -p "$tmp/bin"
	log "compiling $binary (several minutes on two cores)"
	(cd "$tmp/src" && "$compile" "$tmp/bin/$binary")
	[[ $keep == keep-src ]] || rm -rf "$tmp/src"
	rm -rf "$cache"
	mv "$tmp" "$cache"
	trap - EXIT
	exec 9>&-
	[[ -x $cache/bin/$binary ]] || die "build finished but the cache is incomplete"
	log "built and cached in $((SECONDS - start)) s: $cache"
}

# drop_local_replaces drops the go.mod replace directives that point into the module's own tree
# (its nested modules, which a module download does not carry); run it in the module's copy.
drop_local_replaces() {
	local old
	for old in $(GOTOOLCHAIN=local go mod edit -json |
		python3 -c 'import json,sys
for r in json.load(sys.stdin).get("Replace") or []:
    if r["New"]["Path"].startswith("./") or r["New"]["Path"].startswith("../"):
        print(r["Old"]["Path"])'); do
		GOTOOLCHAIN=local go mod edit -dropreplace "$old"
	done
}
