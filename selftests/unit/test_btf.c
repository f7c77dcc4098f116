// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of module/wrapper/btf.c: a hand-built BTF blob with the
 * shapes the module relies on (anonymous unions, bit fields, enums), then
 * the running kernel's own /sys/kernel/btf/vmlinux.
 */
#include <stdlib.h>
#include <string.h>

#include "ktap.h"
#include "../../module/wrapper/btf.c"

/*
 * struct outer { int a; union { int b; struct { int c; int d; }; };
 *                unsigned int e:3; };  enum { E_ONE = 1, E_BIG = 40 };
 */
static const char strs[] = "\0int\0outer\0a\0b\0c\0d\0e\0E_ONE\0E_BIG";
#define S_INT 1
#define S_OUTER 5
#define S_A 11
#define S_B 13
#define S_C 15
#define S_D 17
#define S_E 19
#define S_ONE 21
#define S_BIG 27

struct blob {
	struct btf_header hdr;
	u32 types[64];
	char strs[sizeof(strs)];
};

static size_t build(struct blob *b)
{
	u32 *t = b->types;
	size_t n = 0;

#define W(x) (t[n++] = (x))
	/* 1: int */
	W(S_INT); W(BTF_KIND_INT << 24); W(4); W(32);
	/* 2: struct { int c; int d; } */
	W(0); W(BTF_KIND_STRUCT << 24 | 2); W(8);
	W(S_C); W(1); W(0);
	W(S_D); W(1); W(32);
	/* 3: union { int b; struct 2; } */
	W(0); W(BTF_KIND_UNION << 24 | 2); W(8);
	W(S_B); W(1); W(0);
	W(0); W(2); W(0);
	/* 4: struct outer, kflag set for the bit field */
	W(S_OUTER); W(1u << 31 | BTF_KIND_STRUCT << 24 | 3); W(16);
	W(S_A); W(1); W(0);
	W(0); W(3); W(32);
	W(S_E); W(1); W(3u << 24 | 96);
	/* 5: enum */
	W(0); W(BTF_KIND_ENUM << 24 | 2); W(4);
	W(S_ONE); W(1);
	W(S_BIG); W(40);
#undef W
	memset(&b->hdr, 0, sizeof(b->hdr));
	b->hdr.magic = BTF_MAGIC;
	b->hdr.version = BTF_VERSION;
	b->hdr.hdr_len = sizeof(b->hdr);
	b->hdr.type_off = 0;
	b->hdr.type_len = n * sizeof(u32);
	b->hdr.str_off = sizeof(b->types);
	b->hdr.str_len = sizeof(strs);
	memcpy(b->strs, strs, sizeof(strs));
	return sizeof(*b);
}

static void test_synthetic(void)
{
	struct blob b;
	struct st_btf btf;
	size_t size = build(&b);
	u32 off = 99, sz = 99;
	s64 v = 0;

	ktap_check(!st_btf_init(&btf, &b, size), "synthetic: init");
	ktap_check(!st_btf_member(&btf, "outer", "a", &off, &sz) && off == 0 &&
		   sz == 4, "synthetic: plain member");
	ktap_check(!st_btf_member(&btf, "outer", "b", &off, &sz) && off == 4,
		   "synthetic: member of an anonymous union");
	ktap_check(!st_btf_member(&btf, "outer", "d", &off, &sz) && off == 8 &&
		   sz == 4, "synthetic: member of a struct in a union");
	ktap_check(st_btf_member(&btf, "outer", "e", &off, &sz) == -EINVAL,
		   "synthetic: bit field refused");
	ktap_check(st_btf_member(&btf, "outer", "zz", &off, &sz) == -ENOENT,
		   "synthetic: missing member");
	ktap_check(st_btf_member(&btf, "nope", "a", &off, &sz) == -ENOENT,
		   "synthetic: missing struct");
	ktap_check(!st_btf_enum_value(&btf, "E_BIG", &v) && v == 40,
		   "synthetic: enumerator");
	ktap_check(st_btf_enum_value(&btf, "E_NONE", &v) == -ENOENT,
		   "synthetic: missing enumerator");

	b.hdr.magic = 0;
	ktap_check(st_btf_init(&btf, &b, size) == -EINVAL, "bad magic refused");
	build(&b);
	ktap_check(st_btf_init(&btf, &b, size - 8) == -EINVAL,
		   "truncated blob refused");
	build(&b);
	b.types[1] = 30u << 24;	/* no such kind */
	ktap_check(!st_btf_init(&btf, &b, size) &&
		   st_btf_member(&btf, "outer", "a", &off, &sz) < 0,
		   "unknown kind stops the walk");
}

static void test_vmlinux(const char *path)
{
	const char *what = "vmlinux BTF";
	struct st_btf btf;
	u32 off, sz;
	s64 v = 0, bit = 0;
	char *data;
	int ok;
	long size;
	FILE *f;

	f = fopen(path, "rb");
	data = malloc(64 << 20);
	size = f && data ? (long)fread(data, 1, 64 << 20, f) : 0;
	if (f)
		fclose(f);
	if (size <= 0) {
		for (int i = 0; i < 6; i++)
			ktap_skip(what, "no readable /sys/kernel/btf/vmlinux");
		free(data);
		return;
	}
	ktap_check(!st_btf_init(&btf, data, size), "%s: init", path);
	ktap_check(!st_btf_member(&btf, "list_head", "prev", &off, &sz) &&
		   off == 8 && sz == 8, "vmlinux: list_head.prev at 8");
	ktap_check(!st_btf_member(&btf, "page", "lru", &off, &sz) && off == 8 &&
		   sz == 16, "vmlinux: page.lru through anonymous unions");
	ktap_check(!st_btf_member(&btf, "rq", "nr_running", &off, &sz) &&
		   sz == 4, "vmlinux: rq.nr_running (kernel/sched private)");
	ok = !st_btf_enum_value(&btf, "SD_BALANCE_WAKE", &v) &&
	     !st_btf_enum_value(&btf, "__SD_BALANCE_WAKE", &bit);
	ktap_check(ok && v == 1LL << bit,
		   "vmlinux: SD_BALANCE_WAKE (WF_TTWU) = %lld = 1 << %lld",
		   (long long)v, (long long)bit);
	ok = !st_btf_enum_value(&btf, "__SCHED_FEAT_TTWU_QUEUE", &v);
	ktap_check(ok, "vmlinux: sched feature bit TTWU_QUEUE = %lld",
		   (long long)v);
	free(data);
}

int main(int argc, char **argv)
{
	ktap_header(12 + 6);
	test_synthetic();
	test_vmlinux(argc > 1 ? argv[1] : "/sys/kernel/btf/vmlinux");
	return ktap_finish();
}
