#!/usr/bin/env bash
# Makes chats-v8.sqlite and export-v1.json from v8-source-chats.json.
#
# These fixtures were made by Agent at chat-database schema 8 (git commit 3380be5), with
# that version's own agent-cli: --import writes the database, --export writes the JSON.
# They stand for databases and exports users already have, so they must NOT be regenerated
# by a later version of Agent — a later version only reads them (the migration tests).
# This script is kept to show how they were made.
#
# Usage: Tests/Fixtures/make-v8-fixtures.sh PATH/TO/agent-cli   (built at commit 3380be5)
# Needs: sqlite3.
set -euo pipefail

cli=${1:?usage: $0 PATH/TO/agent-cli (of schema 8, commit 3380be5)}
cli=$(realpath "$cli")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
app=io.github.agentdesktop.Agent

# agent-cli in a private home: its own data, config, cache and state folders.
run_cli() {
    local root=$1; shift
    HOME="$root/home" XDG_DATA_HOME="$root/data" XDG_CONFIG_HOME="$root/config" \
        XDG_CACHE_HOME="$root/cache" XDG_STATE_HOME="$root/state" "$cli" "$@"
}

# 1. The database: import the source chats, then fold the WAL in and make it one file.
mkdir -p "$work/a/home"
run_cli "$work/a" --import "$here/v8-source-chats.json"
db="$work/a/data/$app/chats.sqlite"
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE; VACUUM;" >/dev/null
[ "$(sqlite3 "$db" "PRAGMA user_version")" = 8 ] || { echo "not schema 8" >&2; exit 1; }
[ "$(sqlite3 "$db" "PRAGMA integrity_check")" = ok ] || { echo "integrity check failed" >&2; exit 1; }
cp "$db" "$here/chats-v8.sqlite"
chmod 644 "$here/chats-v8.sqlite"

# 2. The export: agent-cli's JSON of every chat, read from a copy of that very file.
mkdir -p "$work/b/home" "$work/b/data/$app"
cp "$here/chats-v8.sqlite" "$work/b/data/$app/chats.sqlite"
run_cli "$work/b" --export all --format json > "$here/export-v1.json"

echo "wrote $here/chats-v8.sqlite ($(wc -c < "$here/chats-v8.sqlite") bytes) and $here/export-v1.json"
