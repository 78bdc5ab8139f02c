#!/usr/bin/env bash
# Runs every acceptance script against the real CLIs (installed from npm into a
# cache outside the clone) and a mock model server on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
status=0
for s in scripts/acceptance-*.sh; do
	echo "== $s"
	if ! bash "$s"; then
		echo "FAIL: $s"
		status=1
	fi
done
exit $status
