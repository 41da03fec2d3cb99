#!/usr/bin/env bash
# salt.sh unpacks, starts and stops a real Salt 3006.9: a salt-master, one salt-minion and
# salt-api (rest_cherrypy) on free loopback ports, for the tests of executor/salt and `make run`.
# Salt is in neither Debian's packages nor the Go module proxy; the official release tarball is
# vendored beside the repository (../shared/vendor/salt, whose README says what was verified)
# and runs from its tree with Debian's /usr/bin/python3 and Debian packages.
#
#   salt.sh build                unpack the tarball into the cache, install missing packages
#   salt.sh present              exit 0 when the packages are installed and Salt is unpacked or
#                                its tarball is at hand, so start needs no network
#   salt.sh start STATE_DIR      start the three daemons, wait until the minion answers
#                                test.ping through salt-api, write STATE_DIR/env
#   salt.sh stop STATE_DIR       stop them and remove their data; always safe to call
#   salt.sh minion start|stop STATE_DIR [ID]
#                                start or stop one minion of a running master (default: the
#                                first one), for tests of unreachable and added minions
#   salt.sh api start|stop STATE_DIR
#   salt.sh master start|stop STATE_DIR
#                                stop salt-api (or the master), or start it again with the
#                                same configuration, for tests of restarts while a job runs
#
# STATE_DIR/env is a sourceable file exporting:
#   EOS_TEST_SALT_URL        http://127.0.0.1:PORT (salt-api; no TLS)
#   EOS_TEST_SALT_USER       the salt-api user (eauth sharedsecret)
#   EOS_TEST_SALT_PASSWORD   its password (random per start; the master is on loopback)
#   EOS_TEST_SALT_EAUTH      sharedsecret
#   EOS_TEST_SALT_MINION     the minion's id
#   EOS_TEST_SALT_DATA       the minion's eos_data_dir: the blueprints' local Salt states
#                            manage files only under it
#   EOS_TEST_SALT_STATE      STATE_DIR
#   EOS_TEST_SALT_PILLAR_SECRET  the value of eos_test_db_password in the master's own
#                            pillar (random per start): a secret Eos never sees, which tests
#                            render into states to check it is masked
#
# Environment: EOS_SALT_VENDOR overrides where the tarball is; EOS_SALT_TOKEN_EXPIRE the
# tokens' lifetime in seconds (default 12 h). The cache lives in
# ${XDG_CACHE_HOME:-$HOME/.cache}/eos/salt/3006.9/ (tree/ and the looseversion stand-in, lib/).
set -euo pipefail

# The minion's eos_data_dir, below its state directory. Its parent is a name no state text
# says ("minion-7f3k"), so what Eos masks of a path under it (executor/salt/namemask.go:
# "<secret masked>/data/srv/webcfg/webcfg.conf") reads the same whatever directory the
# servers were started in.
DATA_DIR=minion-7f3k/data
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SALT_VERSION=3006.9
SALT_SHA256=1c0ff0c924a7b4551e471de330a69a3b47de59445ec9188df0ef841962b76344
CACHE_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/eos/salt/$SALT_VERSION
# Debian's python, not one from PATH (pyenv and the like lack the Debian packages).
PYTHON=/usr/bin/python3
PACKAGES=(python3-zmq python3-msgpack python3-yaml python3-jinja2 python3-markupsafe
	python3-requests python3-distro python3-jmespath python3-packaging python3-psutil
	python3-pycryptodome python3-cryptography python3-tornado python3-cherrypy3 python3-aiohttp
	python3-setproctitle python3-croniter python3-dateutil python3-gnupg python3-openssl
	python3-certifi python3-importlib-metadata)
API_USER=eos

vendor_dir() {
	if [[ -n ${EOS_SALT_VENDOR:-} ]]; then
		echo "$EOS_SALT_VENDOR"
		return
	fi
	local top
	top=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel 2>/dev/null) ||
		top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	echo "$top/../shared/vendor/salt"
}

missing_packages() {
	local p
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
	done
}

unpacked() { [[ -f $CACHE_DIR/tree/scripts/salt-master ]]; }

# present: the packages are installed and Salt is unpacked, or its tarball is at hand (start
# unpacks it, which needs no network).
present() { [[ -z $(missing_packages) ]] && { unpacked || [[ -f $(vendor_dir)/salt-$SALT_VERSION.tar.gz ]]; }; }

build() {
	local missing tarball
	mapfile -t missing < <(missing_packages)
	if ((${#missing[@]} > 0)); then
		log "installing ${missing[*]}"
		apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
			{ apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null; } ||
			die "could not install the Debian packages Salt needs"
	fi
	[[ -f $CACHE_DIR/tree/scripts/salt-master ]] && return 0
	tarball=$(vendor_dir)/salt-$SALT_VERSION.tar.gz
	[[ -f $tarball ]] || die "no $tarball (set EOS_SALT_VENDOR to the folder that holds it)"
	echo "$SALT_SHA256  $tarball" | sha256sum -c --quiet - >/dev/null || die "$tarball: checksum mismatch"
	local parent tmp
	parent=$(dirname "$CACHE_DIR")
	mkdir -p "$parent"
	exec 9>"$parent/.lock"
	flock 9
	if [[ ! -f $CACHE_DIR/tree/scripts/salt-master ]]; then
		tmp=$(mktemp -d "$parent/.unpack.XXXXXX")
		# shellcheck disable=SC2064 # expand $tmp now: it is local
		trap "rm -rf '$tmp'" EXIT
		mkdir -p "$tmp/tree" "$tmp/lib"
		tar -xzf "$tarball" -C "$tmp/tree"
		write_looseversion "$tmp/lib/looseversion.py"
		chmod -R a+rX "$tmp"
		rm -rf "$CACHE_DIR"
		mv "$tmp" "$CACHE_DIR"
		trap - EXIT
		log "unpacked Salt $SALT_VERSION into $CACHE_DIR"
	fi
	exec 9>&-
}

# write_looseversion writes the stand-in for the looseversion module (not packaged in
# bookworm): distutils' LooseVersion, with numbers ordered before words instead of raising.
write_looseversion() {
	cat >"$1" <<'PY'
"""Stand-in for the looseversion package: distutils' LooseVersion."""
import re

_component = re.compile(r"(\d+ | [a-z]+ | \.)", re.VERBOSE)


class LooseVersion:
    def __init__(self, vstring=None):
        if vstring:
            self.parse(vstring)

    def parse(self, vstring):
        self.vstring = vstring
        parts = [x for x in _component.split(vstring) if x and x != "."]
        self.version = [int(x) if x.isdigit() else x for x in parts]

    def __str__(self):
        return self.vstring

    def __repr__(self):
        return "LooseVersion ('%s')" % self

    def _key(self):
        return [(0, x, "") if isinstance(x, int) else (1, 0, x) for x in self.version]

    def _cmp(self, other):
        if isinstance(other, str):
            other = LooseVersion(other)
        elif not isinstance(other, LooseVersion):
            return NotImplemented
        a, b = self._key(), other._key()
        return 0 if a == b else (-1 if a < b else 1)

    def __eq__(self, other):
        c = self._cmp(other)
        return c if c is NotImplemented else c == 0

    def __lt__(self, other):
        c = self._cmp(other)
        return c if c is NotImplemented else c < 0

    def __le__(self, other):
        c = self._cmp(other)
        return c if c is NotImplemented else c <= 0

    def __gt__(self, other):
        c = self._cmp(other)
        return c if c is NotImplemented else c > 0

    def __ge__(self, other):
        c = self._cmp(other)
        return c if c is NotImplemented else c >= 0

    def __hash__(self):
        return hash(tuple(self._key()))
PY
}

# daemon NAME STATE CONFDIR PROGRAM starts a Salt program from the tree in a session of its
# own, its output in STATE/NAME.out, and records its pid in STATE/NAME.pid.
daemon() {
	local name=$1 state=$2 conf=$3 prog=$4
	(
		export PYTHONPATH=$CACHE_DIR/tree:$CACHE_DIR/lib PYTHONDONTWRITEBYTECODE=1
		setsid "$PYTHON" "$CACHE_DIR/tree/scripts/$prog" -c "$conf" >>"$state/$name.out" 2>&1 </dev/null &
		echo $! >"$state/$name.pid"
	)
}

start() {
	local state=$1 start=$SECONDS pub ret api url password minion=eos-minion pillar_secret
	{ unpacked && [[ -z $(missing_packages) ]]; } || build
	mkdir -p "$state"
	state=$(cd "$state" && pwd)
	alive "$state/master.pid" && die "a master is already running for $state"
	# shellcheck disable=SC2064 # expand $state now: it is local
	trap "stop '$state'" EXIT
	pub=$(free_port)
	ret=$(free_port)
	api=$(free_port)
	url=http://127.0.0.1:$api
	password=$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')
	mkdir -p "$state/conf" "$state/root" "$state/srv/salt" "$state/srv/pillar" "$state/$DATA_DIR"
	# A secret in the master's own pillar, a value Eos never sees: tests render it into a
	# state's result and check that it reaches neither a preview nor a policy's input document.
	pillar_secret=$(head -c 12 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')
	printf "base:\n  '*':\n    - eos_test_secret\n" >"$state/srv/pillar/top.sls"
	printf 'eos_test_db_password: %s\n' "$pillar_secret" >"$state/srv/pillar/eos_test_secret.sls"
	cat >"$state/conf/master" <<YAML
root_dir: $state/root
# Unix sockets live under root_dir, and a socket path has at most 107 bytes: a short sock_dir
# keeps a deep checkout or a long TMPDIR within it.
sock_dir: /s
user: $(id -un)
interface: 127.0.0.1
publish_port: $pub
ret_port: $ret
auto_accept: True
worker_threads: 3
log_level_logfile: info
file_roots:
  base: [$state/srv/salt]
pillar_roots:
  base: [$state/srv/pillar]
netapi_enable_clients: [local, local_async, runner, wheel]
sharedsecret: $password
external_auth:
  sharedsecret:
    $API_USER: ['.*', '@wheel', '@runner', '@jobs']
token_expire: ${EOS_SALT_TOKEN_EXPIRE:-43200}
# A login may ask for a shorter token (token_expire in its body); the tests of expiry do.
token_expire_user_override: True
rest_cherrypy:
  port: $api
  host: 127.0.0.1
  disable_ssl: True
YAML
	echo "$pub $ret" >"$state/ports"
	daemon master "$state" "$state/conf" salt-master
	daemon api "$state" "$state/conf" salt-api
	minion_start "$state" "$minion"
	# Salt puts every path of its configuration under root_dir, its logs too.
	WAIT_LOGS="$state/*.out $state/root/var/log/salt/* $state/minions/*/root/var/log/salt/*" \
		wait_ready salt "$state/master.pid" "$url" pings "$url" "$password" "$minion" || return 1
	cat >"$state/env" <<ENV
export EOS_TEST_SALT_URL=$url
export EOS_TEST_SALT_USER=$API_USER
export EOS_TEST_SALT_PASSWORD=$password
export EOS_TEST_SALT_EAUTH=sharedsecret
export EOS_TEST_SALT_MINION=$minion
export EOS_TEST_SALT_DATA=$state/$DATA_DIR
export EOS_TEST_SALT_STATE=$state
export EOS_TEST_SALT_PILLAR_SECRET=$pillar_secret
ENV
	trap - EXIT
	log "ready in $((SECONDS - start)) s at $url (state in $state)"
}

# minion_start STATE ID writes a minion configuration for the master of STATE and starts it.
minion_start() {
	local state=$1 id=$2 pub ret dir
	read -r pub ret <"$state/ports"
	dir=$state/minions/$id
	mkdir -p "$dir/conf"
	cat >"$dir/conf/minion" <<YAML
id: $id
root_dir: $dir/root
sock_dir: /s
user: $(id -un)
master: 127.0.0.1
master_port: $ret
publish_port: $pub
log_level_logfile: info
acceptance_wait_time: 1
random_reauth_delay: 0
enable_gpu_grains: False
# The blueprints' local Salt states manage files only under this directory.
eos_data_dir: $state/$DATA_DIR
YAML
	daemon "minion-$id" "$state" "$dir/conf" salt-minion
}

# pings: salt-api answers, and test.ping through it reaches the minion (before the minion has
# authenticated, the call returns {}).
pings() {
	local url=$1 password=$2 minion=$3 token
	token=$(curl -fsS "$url/login" -H 'Accept: application/json' -H 'Content-Type: application/json' \
		-d "{\"username\":\"$API_USER\",\"password\":\"$password\",\"eauth\":\"sharedsecret\"}" 2>/dev/null |
		$PYTHON -c 'import json,sys; print(json.load(sys.stdin)["return"][0]["token"])' 2>/dev/null) || return 1
	curl -fsS "$url/" -H 'Accept: application/json' -H 'Content-Type: application/json' -H "X-Auth-Token: $token" \
		-d "[{\"client\":\"local\",\"tgt\":\"$minion\",\"fun\":\"test.ping\"}]" 2>/dev/null |
		grep -q "\"$minion\": *true"
}

# end_session PIDFILE SIGNAL stops the daemon in PIDFILE and then anything left in its
# session (Salt's daemons fork workers; a killed parent leaves them behind).
end_session() {
	local pidfile=$1 sid pid
	[[ -f $pidfile ]] || return 0
	sid=$(cat "$pidfile")
	stop_pid "$pidfile" "$2"
	for pid in $(ps -e -o pid=,sid= | awk -v s="$sid" '$2 == s { print $1 }'); do
		kill -KILL "$pid" 2>/dev/null || true
	done
}

stop() {
	local state=$1 f
	[[ -d $state ]] || return 0
	for f in "$state"/minion-*.pid; do
		[[ -e $f ]] && end_session "$f" TERM
	done
	end_session "$state/api.pid" TERM
	end_session "$state/master.pid" TERM
	rm -rf "$state/root" "$state/minions" "$state/env"
}

minion() {
	local action=${1:-} state=${2:-} id=${3:-eos-minion}
	[[ -n $state ]] || die "usage: $0 minion start|stop STATE_DIR [ID]"
	state=$(cd "$state" && pwd)
	case "$action" in
	start)
		alive "$state/minion-$id.pid" && die "minion $id already runs"
		minion_start "$state" "$id"
		;;
	stop) end_session "$state/minion-$id.pid" TERM ;;
	*) die "usage: $0 minion start|stop STATE_DIR [ID]" ;;
	esac
}

# restart_cmd NAME PROGRAM ACTION STATE stops one of the master's daemons (api: salt-api,
# master: salt-master) or starts it again with the same configuration (its ports are in it).
restart_cmd() {
	local name=$1 prog=$2 action=${3:-} state=${4:-}
	[[ -n $state ]] || die "usage: $0 $name start|stop STATE_DIR"
	state=$(cd "$state" && pwd)
	case "$action" in
	start)
		alive "$state/$name.pid" && die "$prog already runs"
		daemon "$name" "$state" "$state/conf" "$prog"
		;;
	stop) end_session "$state/$name.pid" TERM ;;
	*) die "usage: $0 $name start|stop STATE_DIR" ;;
	esac
}
api() { restart_cmd api salt-api "$@"; }
master() { restart_cmd master salt-master "$@"; }

cmd=${1:-}
case "$cmd" in
build) build ;;
present) present ;;
start | stop)
	[[ $# -eq 2 ]] || die "usage: $0 $cmd STATE_DIR"
	"$cmd" "$2"
	;;
minion | api | master)
	shift
	"$cmd" "$@"
	;;
*) die "usage: $0 build | present | start STATE_DIR | stop STATE_DIR | minion start|stop STATE_DIR [ID] | api|master start|stop STATE_DIR" ;;
esac
