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

# as_pg runs a command as the postgres user when running as root (PostgreSQL refuses root).
as_pg() {
	if [[ $EUID -eq 0 ]]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}
