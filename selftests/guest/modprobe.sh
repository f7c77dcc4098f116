# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash: dash is the nearest shell shellcheck checks
# Guest test of loading by name, as on a server: settings in
# /etc/modprobe.d reach the knobs at modprobe time (sourced by tests.sh,
# test t_modprobe).  The initramfs holds the module where DKMS puts it,
# under /lib/modules/<kver>/updates with depmod's indexes, and as
# /etc/modprobe.d/sched_tune.conf the example the package ships (every
# line commented out).  On Debian 12's kernels that module is the one the
# package stage's DKMS built and signed, whose signature the host
# verified against DKMS's key (pkg.sh): /st/dkms.sha256 names its bytes.

MP_CONF=/etc/modprobe.d/sched_tune.conf
# kmod's modprobe, not busybox's applet (lib.sh: full paths)
mp_load() { /sbin/modprobe sched_tune "$@"; }
mp_unload() { /sbin/modprobe -r sched_tune; }
# only comments and blank lines
mp_all_commented() { ! grep -qvE '^[[:space:]]*(#|$)' "$1"; }
mp_no_feature_active() {
	for f in ratelimit cache_level numa_scan; do
		[ "$(feature_state $f)" != active ] || return 1
	done
}

t_modprobe() {
	group "modprobe and /etc/modprobe.d"
	dmesg_mark
	mp_mark=$ST_DMARK
	want_ver=$(cat /st/version 2>/dev/null)
	if ! check "modprobe.d: the packaged example is /etc/modprobe.d/sched_tune.conf" test -f "$MP_CONF"; then
		return 1
	fi
	cp "$MP_CONF" /tmp/mp.conf.example
	check "modprobe.d: the example, as shipped, sets nothing (every line commented out)" \
		mp_all_commented "$MP_CONF"
	check_eq "modinfo sched_tune (by name, depmod's index): version" \
		"$(/sbin/modinfo -F version sched_tune 2>/dev/null)" "$want_ver"
	# the file modprobe loads by name is the one whose signature the host
	# checked; the guest kernel cannot (DKMS's key is in none of its
	# keyrings), so the same bytes are what is asserted
	mp_file=$(/sbin/modprobe --show-depends sched_tune 2>/dev/null | awk '$1 == "insmod" { print $2; exit }')
	if [ -f /st/dkms.sha256 ]; then
		diag "  $mp_file: signer '$(/sbin/modinfo -F signer "$mp_file" 2>/dev/null)', sig_key $(/sbin/modinfo -F sig_key "$mp_file" 2>/dev/null)"
		check_eq "modprobe loads the DKMS-built module whose signature the host verified (sha256 of ${mp_file:-nothing})" \
			"$(sha256sum "$mp_file" 2>/dev/null)" "$(cat /st/dkms.sha256)"
	else
		ktap_skip "modprobe loads the DKMS-built module whose signature the host verified" \
			"$(cat /st/dkms.why 2>/dev/null || echo 'no /st/dkms.why')"
	fi
	if ! check "modprobe sched_tune, with the example as shipped" mp_load; then
		dmesg_new | tail -n 20 | sed 's/^/#   /'
		return 1
	fi
	check_eq "/sys/module/sched_tune/version (MODULE_VERSION)" \
		"$(cat /sys/module/sched_tune/version 2>/dev/null)" "$want_ver"
	feat_detect
	check_eq "example as shipped: enabled is the default, 1" "$(knob enabled)" 1
	check_eq "example as shipped: ratelimit_window_ns is the default, 2000000" \
		"$(knob ratelimit_window_ns)" 2000000
	check "modprobe -r sched_tune" mp_unload
	check "module gone after modprobe -r" not is_loaded

	# every option of the file reaches its knob (non-stock values only
	# for features this kernel supports)
	opts="enabled=0 ratelimit_window_ns=100000000 ratelimit_burst=3 ratelimit_mode=adaptive ratelimit_quota=4 ratelimit_quota_replenish=2"
	supported cache_level && opts="$opts cache_share_level=smt cache_share_auto_llc_max=16"
	supported numa_scan && opts="$opts numa_scan_threshold=75 numa_scan_renew=32"
	{ cat /tmp/mp.conf.example; echo "options sched_tune $opts"; } >"$MP_CONF"
	if check "modprobe sched_tune with 'options sched_tune $opts' in $MP_CONF" mp_load; then
		for p in $opts; do
			check_eq "modprobe.d: ${p%%=*} reads ${p#*=}" "$(knob_value "${p%%=*}")" "${p#*=}"
		done
		check "modprobe.d: enabled=0 from the file leaves nothing hooked" not ours_in_ftrace
		mp_unload
	fi
	# the command line adds to the file and wins over it
	if check "modprobe sched_tune ratelimit_window_ns=5000, the file still there" \
		mp_load ratelimit_window_ns=5000; then
		check_eq "command line wins: ratelimit_window_ns reads 5000" "$(knob ratelimit_window_ns)" 5000
		check_eq "the file still applies: ratelimit_burst reads 3" "$(knob ratelimit_burst)" 3
		mp_unload
	fi

	# a bad value in the file fails the load, with one line naming it
	echo "options sched_tune ratelimit_burst=0" >"$MP_CONF"
	dmesg_mark
	if mp_load 2>/dev/null; then
		ktap_fail "modprobe.d: ratelimit_burst=0 in the file fails modprobe"
		mp_unload
	else
		ktap_ok "modprobe.d: ratelimit_burst=0 in the file fails modprobe"
	fi
	check "modprobe.d: after the failed load, no module and no sysfs dir" \
		sh -c '! grep -q "^sched_tune " /proc/modules && [ ! -e /sys/kernel/sched_tune ]'
	check_eq "modprobe.d: one dmesg line names ratelimit_burst" \
		"$(dmesg_new | grep -c ratelimit_burst)" 1

	# to look first: loaded, every hook off, nothing changed
	cp /tmp/mp.conf.example "$MP_CONF"
	if check "modprobe sched_tune enabled=0 (load without changing anything)" mp_load enabled=0; then
		check_eq "enabled=0: enabled reads 0" "$(knob enabled)" 0
		check "enabled=0: nothing of ours in enabled_functions" not ours_in_ftrace
		check "enabled=0: no feature active" mp_no_feature_active
		mp_unload
	fi
	check "module gone at the end" not is_loaded
	ST_DMARK=$mp_mark
}
