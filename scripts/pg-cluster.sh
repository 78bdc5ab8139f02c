#!/usr/bin/env bash
# pg-cluster.sh: a private PostgreSQL cluster for the PostgreSQL ledger's
# tests and benchmarks. It never touches a system cluster: its own data
# directory, its own port on 127.0.0.1 and socket directory, run as the
# `postgres` user when we are root (initdb refuses root).
#
#   scripts/pg-cluster.sh start      start it (installs Debian's postgresql if missing)
#   scripts/pg-cluster.sh env        print `export AI_MEMORY_TEST_POSTGRES=<url>` for it
#   scripts/pg-cluster.sh stop       stop it and remove its data
#   scripts/pg-cluster.sh halt       stop it, keeping its data; resume starts it again
#   scripts/pg-cluster.sh run CMD... start a fresh one, run CMD with AI_MEMORY_TEST_POSTGRES
#                                    (and AI_MEMORY_TEST_POSTGRES_PID, the postmaster) set,
#                                    stop it however CMD ends (trap); CMD's exit code
#
# AI_MEMORY_PG_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/ai-memory-pg) holds the
# cluster of start/stop; `run` uses a temporary one of its own.
set -euo pipefail

die() { echo "pg-cluster: $*" >&2; exit 1; }

pgbin() {
	local d
	for d in /usr/lib/postgresql/*/bin; do
		[[ -x $d/initdb ]] && { echo "$d"; return; }
	done
	command -v initdb >/dev/null && { dirname "$(command -v initdb)"; return; }
	return 1
}

install_pg() {
	pgbin >/dev/null && return
	echo "pg-cluster: installing PostgreSQL (apt-get install postgresql)" >&2
	local sudo=""
	[[ $(id -u) -eq 0 ]] || sudo="sudo"
	command -v apt-get >/dev/null || die "PostgreSQL is not installed and apt-get is missing: install PostgreSQL 13+ (initdb, pg_ctl) and retry"
	$sudo apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
	pgbin >/dev/null || die "apt-get installed postgresql but no initdb was found under /usr/lib/postgresql"
}

# as runs a command as the cluster's owner: postgres when we are root.
as() {
	if [[ $(id -u) -eq 0 ]]; then
		(cd / && runuser -u postgres -- "$@") # from a directory postgres may enter
	else
		"$@"
	fi
}

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
	local dir=$1
	install_pg
	local bin
	bin=$(pgbin)
	[[ -f $dir/url ]] && as "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1 && return
	rm -rf "$dir"
	mkdir -p "$dir"
	chmod 0755 "$dir"
	[[ $(id -u) -eq 0 ]] && chown postgres "$dir"
	local pw port
	pw=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
	port=$(free_port)
	as bash -c "umask 077; echo '$pw' > '$dir/pw'"
	as "$bin/initdb" -D "$dir/data" -U aimem --pwfile="$dir/pw" --auth-local=trust --auth-host=scram-sha-256 \
		-E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
	mkdir -p "$dir/sock"
	[[ $(id -u) -eq 0 ]] && chown postgres "$dir/sock"
	serve "$dir" "$port"
	echo "postgres://aimem:$pw@127.0.0.1:$port/postgres?sslmode=disable" >"$dir/url"
	chmod 0600 "$dir/url"
}

# serve DIR PORT starts the server of DIR's data directory on PORT.
serve() {
	local dir=$1 port=$2 bin
	bin=$(pgbin)
	# fsync stays on: the figures measured here are for a durable ledger.
	as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
		-o "-p $port -k $dir/sock -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=256MB" start >/dev/null \
		|| { cat "$dir/server.log" >&2; die "the server did not start (log: $dir/server.log)"; }
}

# halt stops the server and keeps its data; resume starts it again on the
# same port (the e2e outage scenario: the server stopped mid-run).
halt() {
	local dir=$1
	[[ -f $dir/url ]] || die "no cluster in $dir"
	as "$(pgbin)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
}
resume() {
	local dir=$1
	[[ -f $dir/url ]] || die "no cluster in $dir"
	serve "$dir" "$(sed -E 's#^.*:([0-9]+)/.*$#\1#' "$dir/url")"
}

stop() {
	local dir=$1 bin
	bin=$(pgbin) || return 0
	[[ -d $dir/data ]] && as "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
	rm -rf "$dir"
}

DIR=${AI_MEMORY_PG_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ai-memory-pg}
case ${1:-} in
start) start "$DIR"; echo "export AI_MEMORY_TEST_POSTGRES='$(cat "$DIR/url")'" ;;
env) [[ -f $DIR/url ]] || die "no cluster running: scripts/pg-cluster.sh start"; echo "export AI_MEMORY_TEST_POSTGRES='$(cat "$DIR/url")'" ;;
stop) stop "$DIR" ;;
halt) halt "$DIR" ;;
resume) resume "$DIR" ;;
run)
	shift
	[[ $# -gt 0 ]] || die "usage: pg-cluster.sh run CMD..."
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/ai-memory-pg.XXXXXX")
	trap 'stop "$tmp"' EXIT
	trap 'exit 130' INT TERM
	start "$tmp"
	AI_MEMORY_TEST_POSTGRES=$(cat "$tmp/url") AI_MEMORY_TEST_POSTGRES_PID=$(as head -1 "$tmp/data/postmaster.pid") "$@"
	;;
*) die "usage: pg-cluster.sh start|stop|halt|resume|env|run CMD..." ;;
esac
