# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Shared by the bench's guest scripts (busybox ash, after /st/lib.sh).
# shellcheck disable=SC2034 # used by the scripts that source this
BENCH=/usr/bin/sched-tune-bench
export PYTHONDONTWRITEBYTECODE=1

# tbench talks over loopback, which nobody brought up in the initramfs
bench_net() { ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up; }

# bench_send DIR: DIR as tar.gz, base64, between markers, on stdout
bench_send() {
	echo "-----BEGIN STBENCH RESULTS-----"
	tar -C "$1" -czf - . | base64
	echo "-----END STBENCH RESULTS-----"
}

# Every knob of the module (or "unloaded"), one "name=value" a line.
knob_snapshot() {
	if [ ! -d "$ST" ]; then echo unloaded; return; fi
	for f in "$ST"/*; do
		# owner-writable files are the knobs (root may write anything)
		case $(stat -c %A "$f") in -rw*) ;; *) continue ;; esac
		echo "$(basename "$f")=$(cat "$f")"
	done
}
