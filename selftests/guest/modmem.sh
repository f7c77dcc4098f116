# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Memory the module's code allocated, sourced by tests.sh after lib.sh:
# the soak (soak.sh) and the nothing-left units (claims.sh) both ask
# which live objects some load of the module allocated.
#
# Use: mm_begin before the first load, mm_text_note after each load,
# then mm_objects while loaded (a positive control) or mm_after once
# the module is gone.

# --- the module's own objects, from SLUB's and KFENCE's records ------------------
# slub_debug=FZPU turns store_user on: every live slab object keeps its
# allocation stack, and debugfs slab/<cache>/alloc_traces lists the live
# ones grouped: "COUNT SITE waste=... age=... pid=..." then the stack, a
# frame a line, then a blank line.  KFENCE (sample_interval=1) takes
# some allocations out of the slab; debugfs kfence/objects lists those,
# with "freed by" once freed.  An object the module allocated, itself or
# through the kernel, has a frame in the module's code: named
# "[sched_tune]" while it is loaded, a bare 0xffffffff... address after
# rmmod, which mm_text_note's record of every load's code matches.
MM_SLABDBG=/sys/kernel/debug/slab
MM_KFENCE=/sys/kernel/debug/kfence/objects
MM_TEXT=/tmp/mm.text
MM_SEEN=/tmp/mm.text.seen
MM_PRE=/tmp/mm.pre
# awk: hex("c05ae000") (module addresses differ only in their low 32 bits)
MM_AWK_HEX='function hex(s,  i, n) {
	n = 0
	for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n
}'

# mm_text_note: adds the loaded module's code to MM_TEXT, "START END KIND"
# in low 32-bit addresses: each section named *text* up to the next
# section (or the module's size), KIND text; and st_task_numa_work (and
# st_task_numa_work_copy, where the compiler kept it apart: 7.3) up to
# the next symbol, KIND numab.  Once per load address.  The copy runs,
# and hangs a numab_state on a VMA, only with NUMA balancing on: without
# it no symbol is needed, and /proc/kallsyms (4-6 s a read under TCG)
# is not read.
mm_text_note() {
	local t sz f
	t=$(cat /sys/module/sched_tune/sections/.text 2>/dev/null) || return 0
	grep -qx "$t" "$MM_SEEN" 2>/dev/null && return 0
	echo "$t" >>"$MM_SEEN"
	sz=$(awk '$1 == "sched_tune" { print $2 }' /proc/modules)
	{
		for f in /sys/module/sched_tune/sections/.* /sys/module/sched_tune/sections/*; do
			[ -f "$f" ] && echo "s ${f##*/} $(cat "$f")"
		done
		if [ "$(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo 0)" != 0 ]; then
			grep '\[sched_tune\]$' /proc/kallsyms | awk '{ print "k", $3, "0x" $1 }'
		fi
	} | awk -v size="${sz:-0}" "$MM_AWK_HEX"'
		$3 !~ /^0xffffffff/ || length($3) != 18 { next }
		{ a = hex(substr($3, 11)) }
		$1 == "s" { n++; name[n] = $2; at[n] = a }
		$1 == "k" { m++; sym[m] = $2; sa[m] = a }
		END {
			for (i = 1; i <= n; i++) {
				if (name[i] !~ /text/) continue
				e = at[i] + size
				for (j = 1; j <= n; j++) if (at[j] > at[i] && at[j] < e) e = at[j]
				print at[i], e - 1, "text"
			}
			for (i = 1; i <= m; i++) {
				# the copy is inlined into st_task_numa_work or not
				if (sym[i] !~ /^st_task_numa_work(_copy)?$/) continue
				e = sa[i] + 65536
				for (j = 1; j <= m; j++) if (sa[j] > sa[i] && sa[j] < e) e = sa[j]
				print sa[i], e - 1, "numab"
			}
		}' >>"$MM_TEXT"
}

# mm_objects: "KIND COUNT CACHE SITE" for each group of live objects
# (slab) or live KFENCE object with a frame in the module's code, and for
# each vmalloc area (/proc/vmallocinfo, CACHE "vmalloc") the module's code
# asked for.  Not the vmap_area cache: vfree leaves its object to a lazy
# purge (see soak.sh, sk_slab_kb), and a vmalloc leak is an area.  KIND:
#  - numab: allocated at st_task_numa_work's own site, i.e. the
#    vma->numab_state that the copy of stock code gives a VMA, which the
#    kernel frees with the VMA;
#  - ftrace: state ftrace keeps after the module's calls made it: the
#    table of direct calls (alloc_ftrace_hash under
#    register_ftrace_direct*), replaced by each registration and kept
#    between them, and the trampoline of the kprobes' shared ftrace_ops
#    (arch_ftrace_update_trampoline under arm_kprobe), made once a boot;
#  - index: a node of a kernel index (idr, xarray, maple tree: kernfs
#    inode numbers, ftrace's trampoline list) allocated inside the kernel
#    while our code called it; the index keeps and shares its nodes;
#  - module: anything else; after rmmod, a leak.
mm_objects() {
	local f
	touch "$MM_TEXT"
	{
		for f in $(mm_traces_with "sched_tune\\|$(mm_text_pattern)"); do
			f=${f%/alloc_traces}
			echo "@slab ${f##*/}"
			cat "$f/alloc_traces"
			echo
		done
		if [ -r "$MM_KFENCE" ]; then echo "@kfence"; cat "$MM_KFENCE"; echo "-----"; fi
		echo "@vmalloc"
		cat /proc/vmallocinfo
	} | awk -v ranges="$MM_TEXT" "$MM_AWK_HEX"'
		# the KIND of the module code a frame is in, or ""
		function ours(line,  w, n, i, j, v, k) {
			if (line !~ /sched_tune|0xffffffff/) return ""
			if (line ~ /\[sched_tune\]/)
				return line ~ /(^|[ \t])st_task_numa_work(_copy)?\+/ ? "numab" : "text"
			n = split(line, w, /[ \t]+/)
			for (i = 1; i <= n; i++) {
				if (length(w[i]) != 18 || substr(w[i], 1, 10) != "0xffffffff") continue
				v = hex(substr(w[i], 11)); k = ""
				for (j = 1; j <= nr; j++)
					if (v >= lo[j] && v <= hi[j] && k != "numab") k = kd[j]
				if (k != "") return k
			}
			return ""
		}
		function start(c, line, name) {
			cnt = c; sname = name; sk = ours(line); any = sk != ""; live = 1
			ahash = name ~ /^alloc_ftrace_hash\+/; regd = 0; tramp = 0; kprobe = 0
		}
		function frame(l) {
			if (ours(l) != "") any = 1
			if (l ~ /register_ftrace_direct/) regd = 1
			if (l ~ /arch_ftrace_update_trampoline\+/) tramp = 1
			if (l ~ /arm_kprobe\+/) kprobe = 1
		}
		function done(  k) {
			if (cnt && live && any && cache != "kfence:vmap_area") {
				k = "module"
				if (sk == "numab") k = "numab"
				else if (sk == "" && ((ahash && regd) || (tramp && kprobe))) k = "ftrace"
				else if (sk == "" && cache ~ /(radix_tree|maple)_node$/) k = "index"
				print k, cnt, cache, sname
			}
			cnt = 0
		}
		FILENAME == ranges { nr++; lo[nr] = $1; hi[nr] = $2; kd[nr] = $3; next }
		/^@slab / { done(); mode = $2 == "vmap_area" ? "skip" : "slab"; cache = $2; next }
		/^@kfence$/ { done(); mode = "kfence"; next }
		/^@vmalloc$/ { done(); mode = "vmalloc"; next }
		mode == "skip" { next }
		mode == "vmalloc" { if (ours($0) != "") print "module", 1, "vmalloc", $3; next }
		mode == "slab" && /^ *[0-9]+ / { done(); start($1, $0, $2); next }
		mode == "slab" && /^$/ { done(); next }
		mode == "slab" { if (cnt) frame($0); next }
		/^kfence-#/ { done(); alloc = 0; cache = $0; sub(/.*cache=/, "kfence:", cache); next }
		/^allocated by task/ { alloc = 1; next }
		/^freed by task/ { alloc = 0; live = 0; next }
		/^-+$/ { done(); next }
		/^$/ { alloc = 0; next }
		alloc && !cnt { start(1, $0, $1); next }
		alloc { frame($0) }
		END { done() }
	' "$MM_TEXT" -
}
# mm_text_pattern: a pattern for the raw addresses in MM_TEXT's ranges:
# 0xffffffff and the possible next hex digits (c-f for modules on a
# KASLR kernel), so that the raw frames of freed __init code
# (0xffffffff8...), in most caches, do not match.
mm_text_pattern() {
	awk 'BEGIN { h = "0123456789abcdef" }
		{ for (d = int($1 / 268435456); d <= int($2 / 268435456); d++) c[d] = 1 }
		END {
			for (d = 0; d < 16; d++) if (d in c) s = s substr(h, d + 1, 1)
			print "0xffffffff" (s == "" ? "" : "[" s "]")
		}' "$MM_TEXT"
}
# mm_traces_with PATTERN: the alloc_traces files with a line matching
# PATTERN.  A frame of our code prints as "[sched_tune]" or, once the
# module is gone, as a raw address: the few caches that have either are
# all the parsers need to read.  One grep over the 200-odd files takes
# 0.4 s under TCG; a cat per file in a shell loop took 6 s, and awk over
# all 76,000 lines 9 s (6.12.95, 2026-12-02).
mm_traces_with() { grep -l "$1" "$MM_SLABDBG"/*/alloc_traces 2>/dev/null; }
# mm_count FILE KIND: objects of KIND in mm_objects' output
mm_count() { awk -v k="$2" '$1 == k { s += $2 } END { print s + 0 }' "$1"; }
# The traces need store_user (slub_debug's U) and debugfs.
mm_traces_on() { [ -r "$MM_SLABDBG/kmalloc-64/alloc_traces" ]; }

# mm_raw_sites: "CACHE SITE COUNT" of live slab and KFENCE objects whose
# allocation site prints as a raw address: code no longer loaded.  CACHE
# and SITE as mm_objects names them.
mm_raw_sites() {
	local f c
	for f in $(mm_traces_with '^ *[0-9][0-9]* 0xffffffff'); do
		c=${f%/alloc_traces}
		c=${c##*/}
		awk -v c="$c" '$2 ~ /^0xffffffff/ && length($2) == 18 { print c, $2, $1 }' "$f"
	done
	[ -r "$MM_KFENCE" ] || return 0
	awk 'function done() {
			if (live && site ~ /^0xffffffff/ && length(site) == 18) n[cache " " site]++
			live = 0; site = ""
		}
		/^kfence-#/ { done(); cache = $0; sub(/.*cache=/, "kfence:", cache); live = /cache=/; alloc = 0; next }
		/^allocated by task/ { alloc = 1; next }
		/^freed by task/ { live = 0; alloc = 0; next }
		/^$/ { alloc = 0; next }
		alloc && site == "" { site = $1 }
		END { done(); for (k in n) print k, n[k] }' "$MM_KFENCE"
}

# mm_begin: forgets the loads noted so far, and keeps the live objects at
# raw addresses now: code gone before, an earlier unit's load, maybe at
# an address a load after this one will cover.
mm_begin() {
	rm -f "$MM_TEXT" "$MM_SEEN"
	touch "$MM_TEXT" "$MM_SEEN"
	mm_raw_sites >"$MM_PRE"
}

# mm_settled OUT: mm_after OUT again every 3 s, the dentry and inode
# caches dropped, while OUT counts objects of kind "module", for at most
# 30 s: the kernel frees some of them late (a kernfs node when its
# inode is evicted, then after an RCU grace period; kfree_rcu;
# RCU-tasks), later still on a starved guest.  A leak stays.  Sets
# MM_FIRST (the first count) and MM_WAITED (seconds).
mm_settled() {
	local n
	MM_WAITED=0
	mm_after "$1"
	MM_FIRST=$(mm_count "$1" module)
	n=$MM_FIRST
	while [ "$n" != 0 ] && [ "$MM_WAITED" -lt 30 ]; do
		echo 2 >/proc/sys/vm/drop_caches
		sleep 3
		MM_WAITED=$((MM_WAITED + 3))
		mm_after "$1"
		n=$(mm_count "$1" module)
	done
}

# mm_after OUT: mm_objects into OUT, a "module" line kept by mm_begin's
# record (same cache and site, no more objects) relabelled "earlier".
# The record is often empty: FILENAME, not NR == FNR, tells the files
# apart (with an empty first file, NR == FNR holds for the second one,
# whose lines all went into pre: a blind check until 2026-12-02).
mm_after() {
	mm_objects >"$1.all"
	awk -v pre_file="$MM_PRE" 'FILENAME == pre_file { pre[$1 " " $2] += $3; next }
		$1 == "module" && ($3 " " $4) in pre {
			if (pre[$3 " " $4] >= $2) $1 = "earlier"; else $2 -= pre[$3 " " $4]
		}
		{ print }' "$MM_PRE" "$1.all" >"$1"
}
