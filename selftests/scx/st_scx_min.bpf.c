// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest sched_ext scheduler: no callbacks, so every task runs FIFO
 * from the global queue.  The selftests load it on 7.x kernels to show
 * what sched_tune's fair-class hooks see while a BPF scheduler holds
 * every task (nothing).
 */
#define SEC(name) __attribute__((section(name), used))

char _license[] SEC("license") = "GPL";

/*
 * Only the member we set: libbpf matches members by name against the
 * kernel's struct sched_ext_ops and zeroes the rest.
 */
struct sched_ext_ops {
	char name[128];
};

SEC(".struct_ops.link")
struct sched_ext_ops st_scx_min = {
	.name = "st_scx_min",
};
