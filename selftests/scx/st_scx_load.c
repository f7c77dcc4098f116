// SPDX-License-Identifier: GPL-2.0
/*
 * st_scx_load OBJ MAP PIN: loads the struct_ops map MAP of the BPF object
 * OBJ, attaches it (a sched_ext scheduler starts) and pins the link at
 * PIN in bpffs, so the scheduler outlives us; removing PIN stops it.
 */
#include <stdio.h>
#include <bpf/libbpf.h>

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_map *map;
	struct bpf_link *link;
	int err;

	if (argc != 4) {
		fprintf(stderr, "usage: %s OBJ MAP PIN\n", argv[0]);
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		perror("bpf_object__open_file");
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "bpf_object__load: %d\n", err);
		return 1;
	}
	map = bpf_object__find_map_by_name(obj, argv[2]);
	if (!map) {
		fprintf(stderr, "no map %s\n", argv[2]);
		return 1;
	}
	link = bpf_map__attach_struct_ops(map);
	if (!link) {
		perror("bpf_map__attach_struct_ops");
		return 1;
	}
	err = bpf_link__pin(link, argv[3]);
	if (err) {
		fprintf(stderr, "bpf_link__pin %s: %d\n", argv[3], err);
		return 1;
	}
	return 0;
}
