// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of module/kernel/btf.c: hand-built BTF blobs with the
 * shapes the module relies on (anonymous unions, bit fields of both
 * encodings, enums, prototypes), the malformed ones a reader must refuse
 * (cycles, overflowing sizes, bad headers) and structs of one name
 * defined twice, then the running kernel's own /sys/kernel/btf/vmlinux.
 */
#include <stdlib.h>
#include <string.h>

#include "ktap.h"
#include "kernel/btf.c"
#include "btf_build.h"

#define PLAN_SYNTH	21
#define PLAN_MALFORMED	18
#define PLAN_HEADER	13
#define PLAN_VMLINUX	13
#define PLAN_DUP	8

static struct st_btf btf;
static void *blob;
static size_t blob_size;

/* (Re)loads @b into the global blob; returns st_btf_init()'s result. */
static int load(const struct bb *b)
{
	free(blob);
	blob_size = bb_blob(b, &blob);
	return st_btf_init(&btf, blob, blob_size);
}

static int member(const char *type, const char *m, u32 *off, u32 *size)
{
	*off = *size = 0xdead;
	return st_btf_member(&btf, type, m, off, size);
}

static int sig_is(const char *func, int nr, const char *want)
{
	char buf[256];
	int ret = st_btf_func_sig(&btf, func, buf, sizeof(buf));

	if (ret != nr || strcmp(buf, want)) {
		ktap_diag("%s: got %d \"%s\", want %d \"%s\"", func, ret, buf,
			  nr, want);
		return 0;
	}
	return 1;
}

static void test_synthetic(void)
{
	char small[12];
	struct bb b;
	u32 off, sz;
	s64 v = 0;

	bb_synthetic(&b);
	ktap_check(!load(&b) && !st_btf_check(&btf),
		   "synthetic: init and whole-section check");
	ktap_check(!member("outer", "a", &off, &sz) && off == 0 && sz == 4,
		   "synthetic: plain member");
	ktap_check(!member("outer", "b", &off, &sz) && off == 4 && sz == 4,
		   "synthetic: member of an anonymous union");
	ktap_check(!member("outer", "d", &off, &sz) && off == 8 && sz == 4,
		   "synthetic: member of a struct in a union");
	ktap_check(!member("outer", "arr", &off, &sz) && off == 16 && sz == 16,
		   "synthetic: array member, size elem * nelems");
	ktap_check(!member("outer", "cv", &off, &sz) && off == 40 && sz == 4,
		   "synthetic: const volatile typedef member");
	ktap_check(member("outer", "e", &off, &sz) == -EINVAL,
		   "synthetic: bit field (kflag 1) refused");
	ktap_check(!member("legacy", "x", &off, &sz) && off == 0 && sz == 4,
		   "synthetic: kflag 0, whole int accepted");
	ktap_check(member("legacy", "y", &off, &sz) == -EINVAL,
		   "synthetic: kflag 0, int of 3 bits is a bit field: refused");
	ktap_check(member("legacy", "z", &off, &sz) == -EINVAL,
		   "synthetic: kflag 0, int with BTF_INT_OFFSET 2: refused");
	ktap_check(member("legacy", "w", &off, &sz) == -EINVAL,
		   "synthetic: kflag 0, bit field behind const and typedef: refused");
	ktap_check(member("outer", "zz", &off, &sz) == -ENOENT &&
		   member("nope", "a", &off, &sz) == -ENOENT,
		   "synthetic: missing member, missing struct: -ENOENT");
	ktap_check(!st_btf_enum_value(&btf, "E_BIG", &v) && v == 40 &&
		   !st_btf_enum_value(&btf, "E64_HUGE", &v) && v == 1LL << 40 &&
		   st_btf_enum_value(&btf, "E_NONE", &v) == -ENOENT,
		   "synthetic: enumerators (32 and 64 bit), missing one");
	ktap_check(!st_btf_type_size(&btf, "outer", &sz) && sz == 48,
		   "synthetic: type size");
	ktap_check(sig_is("do_outer", 2, "int (struct outer *, int, ...)"),
		   "synthetic: prototype with varargs");
	ktap_check(sig_is("nothing", 0, "void (void)"),
		   "synthetic: prototype without parameters");
	ktap_check(sig_is("take_cb", 6,
			  "int (void (*)(int), cb_t, u32 *, int (*)[4], struct fwd_s *, double)"),
		   "synthetic: function pointers, typedef kept, const dropped, pointer to array, fwd, float");
	ktap_check(st_btf_func_sig(&btf, "dup", small, sizeof(small)) ==
		   -ENOTUNIQ, "synthetic: two prototypes for one name: -ENOTUNIQ");
	ktap_check(st_btf_func_sig(&btf, "none", small, sizeof(small)) ==
		   -ENOENT && st_btf_func_sig(&btf, "outer", small,
					      sizeof(small)) == -ENOENT,
		   "synthetic: no such function (a struct is none): -ENOENT");
	ktap_check(st_btf_func_sig(&btf, "do_outer", small, sizeof(small)) ==
		   -ENOSPC && strlen(small) < sizeof(small),
		   "synthetic: small buffer: -ENOSPC, still terminated");
	ktap_check(st_btf_func_sig(&btf, "do_outer", small, 0) == -ENOSPC,
		   "synthetic: zero-length buffer: -ENOSPC");
	bb_free(&b);
}

/* A struct "s" of @size bytes with one member "m" of type @type. */
static u32 holder(struct bb *b, u32 type, u32 size)
{
	u32 id = bb_type(b, "s", BB_INFO(BTF_KIND_STRUCT, 1, 0), size);

	bb_member(b, "m", type, 0);
	return id;
}

static void test_malformed(void)
{
	u32 off, sz, t_int, a, s, i, p;
	char buf[256];
	struct bb b;
	s64 v;

	/* an array of itself: recursed until the stack overflowed */
	bb_init(&b);
	bb_int(&b, "int", 4, 32, 0);
	a = bb_array(&b, b.ntypes + 1, 1);
	holder(&b, a, 8);
	ktap_check(!load(&b) && member("s", "m", &off, &sz) == -ELOOP,
		   "array whose element is itself: -ELOOP, no recursion");
	bb_free(&b);

	/* typedef A -> const -> typedef B -> A */
	bb_init(&b);
	bb_ref(&b, BTF_KIND_TYPEDEF, "A", 2);
	bb_ref(&b, BTF_KIND_CONST, "", 3);
	bb_ref(&b, BTF_KIND_TYPEDEF, "B", 1);
	holder(&b, 1, 8);
	ktap_check(!load(&b) && member("s", "m", &off, &sz) == -ELOOP,
		   "typedef/const cycle: -ELOOP");
	bb_free(&b);

	/* 4 * 0x40000001 wraps to 4 in u32 */
	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	a = bb_array(&b, t_int, 0x40000001);
	holder(&b, a, 8);
	ktap_check(!load(&b) && member("s", "m", &off, &sz) == -EINVAL,
		   "elem * nelems past u32 (wraps to 4): -EINVAL");
	bb_free(&b);

	/* arrays of arrays whose counts multiply past u32 */
	bb_init(&b);
	t_int = bb_int(&b, "int", 1, 8, 0);
	a = bb_array(&b, bb_array(&b, t_int, 0x10000), 0x10001);
	holder(&b, a, 8);
	ktap_check(!load(&b) && member("s", "m", &off, &sz) == -EINVAL,
		   "nested arrays, nelems product past u32: -EINVAL");
	bb_free(&b);

	/* a member past the end of its struct */
	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	a = bb_array(&b, t_int, 4);
	holder(&b, a, 8);
	ktap_check(!load(&b) && member("s", "m", &off, &sz) == -EINVAL,
		   "member larger than its struct: -EINVAL");
	bb_free(&b);

	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	bb_type(&b, "s", BB_INFO(BTF_KIND_STRUCT, 1, 0), 8);
	bb_member(&b, "m", t_int, 12);
	ktap_check(!load(&b) && member("s", "m", &off, &sz) == -EINVAL,
		   "member offset not a whole byte: -EINVAL");
	bb_free(&b);

	/* a struct whose 300 anonymous members are itself */
	bb_init(&b);
	s = bb_type(&b, "s", BB_INFO(BTF_KIND_STRUCT, 300, 0), 8);
	for (i = 0; i < 300; i++)
		bb_member(&b, "", s, 0);
	ktap_check(!load(&b) && member("s", "m", &off, &sz) == -ELOOP,
		   "anonymous member fan-out of itself: -ELOOP, bounded work");
	bb_free(&b);

	/* anonymous members nested 10 deep, the member at the bottom */
	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	bb_type(&b, "", BB_INFO(BTF_KIND_STRUCT, 1, 0), 4);
	bb_member(&b, "m", t_int, 0);
	for (i = 0; i < 10; i++) {
		bb_type(&b, i == 9 ? "s" : "", BB_INFO(BTF_KIND_STRUCT, 1, 0), 4);
		bb_member(&b, "", b.ntypes - 1, 0);
	}
	ktap_check(!load(&b) && member("s", "m", &off, &sz) == -ELOOP,
		   "anonymous members nested 10 deep: -ELOOP");
	bb_free(&b);

	/* a member of void, of a missing id, of a FUNC */
	bb_init(&b);
	holder(&b, 0, 8);
	ktap_check(!load(&b) && member("s", "m", &off, &sz) == -EINVAL,
		   "member of type void: -EINVAL");
	bb_free(&b);
	bb_init(&b);
	holder(&b, 77, 8);
	ktap_check(!load(&b) && member("s", "m", &off, &sz) == -EINVAL,
		   "member of a type id past the last: -EINVAL");
	bb_free(&b);

	/* names outside the string section */
	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	holder(&b, t_int, 8);
	b.w[3 * 0] = 1000;
	ktap_check(!load(&b) && st_btf_check(&btf) == -EINVAL &&
		   member("s", "m", &off, &sz) == -EINVAL,
		   "type name offset past the strings: the walk fails, -EINVAL");
	bb_free(&b);
	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	holder(&b, t_int, 8);
	b.w[4 + 3] = 1000;	/* the member's name_off */
	ktap_check(!load(&b) && !st_btf_check(&btf) &&
		   member("s", "m", &off, &sz) == -EINVAL,
		   "member name offset past the strings: -EINVAL");
	bb_free(&b);

	/* a type running past the section; an unknown kind */
	bb_init(&b);
	bb_type(&b, "s", BB_INFO(BTF_KIND_STRUCT, 50, 0), 8);
	bb_member(&b, "m", 1, 0);
	ktap_check(!load(&b) && st_btf_check(&btf) == -EINVAL &&
		   member("s", "m", &off, &sz) == -EINVAL,
		   "vlen past the end of the type section: -EINVAL");
	bb_free(&b);
	bb_synthetic(&b);
	b.w[1] = 30u << 24;
	ktap_check(!load(&b) && member("outer", "a", &off, &sz) == -EINVAL &&
		   st_btf_enum_value(&btf, "E_ONE", &v) == -EINVAL,
		   "unknown kind stops every walk: -EINVAL");
	bb_free(&b);

	/* prototypes: cycles through pointers, varargs not last, no proto */
	bb_init(&b);
	bb_type(&b, "", BB_INFO(BTF_KIND_FUNC_PROTO, 1, 0), 0);
	bb_param(&b, "", 2);
	bb_ref(&b, BTF_KIND_PTR, "", 1);
	bb_ref(&b, BTF_KIND_FUNC, "f", 1);
	ktap_check(!load(&b) &&
		   st_btf_func_sig(&btf, "f", buf, sizeof(buf)) == -ELOOP,
		   "prototype taking a pointer to itself: -ELOOP");
	bb_free(&b);
	bb_init(&b);
	bb_ref(&b, BTF_KIND_PTR, "", 2);
	bb_ref(&b, BTF_KIND_CONST, "", 1);
	bb_type(&b, "", BB_INFO(BTF_KIND_FUNC_PROTO, 1, 0), 0);
	bb_param(&b, "", 1);
	bb_ref(&b, BTF_KIND_FUNC, "f", 3);
	ktap_check(!load(&b) &&
		   st_btf_func_sig(&btf, "f", buf, sizeof(buf)) == -ELOOP,
		   "parameter of a pointer/const cycle: -ELOOP");
	bb_free(&b);
	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	bb_type(&b, "", BB_INFO(BTF_KIND_FUNC_PROTO, 2, 0), 0);
	bb_param(&b, "", 0);
	bb_param(&b, "", t_int);
	bb_ref(&b, BTF_KIND_FUNC, "f", 2);
	bb_ref(&b, BTF_KIND_FUNC, "g", t_int);
	ktap_check(!load(&b) &&
		   st_btf_func_sig(&btf, "f", buf, sizeof(buf)) == -EINVAL &&
		   st_btf_func_sig(&btf, "g", buf, sizeof(buf)) == -EINVAL,
		   "\"...\" before the last parameter, FUNC of a non-prototype: -EINVAL");
	bb_free(&b);
	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	a = bb_array(&b, bb_array(&b, t_int, 2), 3);
	p = bb_ref(&b, BTF_KIND_PTR, "", a);
	bb_type(&b, "", BB_INFO(BTF_KIND_FUNC_PROTO, 1, 0), 0);
	bb_param(&b, "", p);
	bb_ref(&b, BTF_KIND_FUNC, "f", p + 1);
	ktap_check(!load(&b) &&
		   st_btf_func_sig(&btf, "f", buf, sizeof(buf)) == -EINVAL,
		   "pointer to an array of arrays (not spelled): -EINVAL");
	bb_free(&b);
}

/*
 * Starts a struct "rq" of @size bytes with @nr members; returns its id.
 * A blob of several such structs is what dedup leaves for types of one
 * name in several files.
 */
static u32 rq_type(struct bb *b, u32 size, u32 nr)
{
	return bb_type(b, "rq", BB_INFO(BTF_KIND_STRUCT, nr, 0), size);
}

static void test_dup(void)
{
	u32 off, sz, t_int, t_u32, t_long;
	struct bb b;

	/* a second rq of another size, in either order */
	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	rq_type(&b, 64, 1);
	bb_member(&b, "nr_running", t_int, 0);
	rq_type(&b, 128, 1);
	bb_member(&b, "nr_running", t_int, 0);
	ktap_check(!load(&b) && member("rq", "nr_running", &off, &sz) ==
		   -ENOTUNIQ && st_btf_type_size(&btf, "rq", &sz) == -ENOTUNIQ,
		   "dup: two rq of different sizes, the member alike: -ENOTUNIQ");
	bb_free(&b);
	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	rq_type(&b, 128, 1);
	bb_member(&b, "nr_running", t_int, 0);
	bb_type(&b, "rq", BB_INFO(BTF_KIND_UNION, 1, 0), 8);
	bb_member(&b, "nr_running", t_int, 0);
	ktap_check(!load(&b) && member("rq", "nr_running", &off, &sz) ==
		   -ENOTUNIQ,
		   "dup: a smaller union of the name after the struct: -ENOTUNIQ");
	bb_free(&b);

	/*
	 * Same size: accepted member by member, where every rq places it
	 * alike (the compat twin of a struct: other type ids, one layout).
	 */
	bb_init(&b);
	t_int = bb_int(&b, "int", 4, 32, 0);
	t_u32 = bb_ref(&b, BTF_KIND_TYPEDEF, "u32", t_int);
	t_long = bb_int(&b, "long", 8, 64, 0);
	rq_type(&b, 24, 3);
	bb_member(&b, "nr_running", t_int, 0);
	bb_member(&b, "clock", t_long, 64);
	bb_member(&b, "only_here", t_int, 128);
	rq_type(&b, 24, 3);
	bb_member(&b, "nr_running", t_u32, 0);
	bb_member(&b, "clock", t_int, 64);
	bb_member(&b, "cpu", t_long, 128);
	ktap_check(!load(&b) && !member("rq", "nr_running", &off, &sz) &&
		   off == 0 && sz == 4,
		   "dup: same size, member at one offset and size (int, u32): accepted");
	ktap_check(!st_btf_type_size(&btf, "rq", &sz) && sz == 24,
		   "dup: same size, the type size is one answer: accepted");
	ktap_check(member("rq", "clock", &off, &sz) == -ENOTUNIQ,
		   "dup: same size, member at one offset but sizes 8 and 4: -ENOTUNIQ");
	ktap_check(member("rq", "only_here", &off, &sz) == -ENOTUNIQ &&
		   member("rq", "cpu", &off, &sz) == -ENOTUNIQ,
		   "dup: same size, member in one rq only (either one): -ENOTUNIQ");
	ktap_check(member("rq", "none", &off, &sz) == -ENOENT,
		   "dup: same size, member in neither: -ENOENT");
	bb_free(&b);

	/* a forward declaration is no second definition */
	bb_init(&b);
	bb_type(&b, "rq", BB_INFO(BTF_KIND_FWD, 0, 0), 0);
	t_int = bb_int(&b, "int", 4, 32, 0);
	rq_type(&b, 64, 1);
	bb_member(&b, "nr_running", t_int, 32);
	bb_type(&b, "rq", BB_INFO(BTF_KIND_FWD, 0, 0), 0);
	ktap_check(!load(&b) && !member("rq", "nr_running", &off, &sz) &&
		   off == 4 && sz == 4 && !st_btf_type_size(&btf, "rq", &sz) &&
		   sz == 64, "dup: forward declarations of rq beside it: accepted");
	bb_free(&b);
}

/* A copy of the synthetic blob to corrupt, 4-aligned by malloc. */
static char *copy_blob(size_t *size)
{
	struct bb b;
	char *p;

	bb_synthetic(&b);
	*size = bb_blob(&b, (void **)&p);
	bb_free(&b);
	return p;
}

static int init_with(size_t field, u32 val, size_t size)
{
	size_t n;
	char *p = copy_blob(&n);
	int ret;

	if (field != (size_t)-1)
		memcpy(p + field, &val, sizeof(val));
	ret = st_btf_init(&btf, p, size ? size : n);
	free(p);
	return ret;
}

#define HDR(f) offsetof(struct btf_header, f)

static void test_header(void)
{
	struct btf_header *h;
	size_t n;
	char *p, *q;

	ktap_check(!init_with(-1, 0, 0), "header: the pristine blob parses");
	ktap_check(init_with(HDR(magic), 0xeb9e, 0) == -EINVAL,
		   "header: bad magic");
	ktap_check(init_with(HDR(magic), BTF_MAGIC | 2 << 16, 0) == -EINVAL,
		   "header: bad version");
	ktap_check(init_with(HDR(magic), BTF_MAGIC | 1 << 16 | 1 << 24, 0) ==
		   -EINVAL, "header: unknown flags");
	ktap_check(init_with(HDR(hdr_len), 20, 0) == -EINVAL &&
		   init_with(HDR(hdr_len), 0, 0) == -EINVAL,
		   "header: hdr_len shorter than the header");
	ktap_check(init_with(HDR(hdr_len), 0x7fffffff, 0) == -EINVAL &&
		   init_with(-1, 0, 16) == -EINVAL,
		   "header: hdr_len past the blob, blob shorter than a header");
	/*
	 * 7.x's 32-byte header: layout_off/layout_len (bytes 24-31) may be
	 * set; a longer header is fine while the rest is zero (what the
	 * kernel does).
	 */
	p = copy_blob(&n);
	q = calloc(1, n + 12);
	h = (void *)q;
	memcpy(q, p, 24);
	memcpy(q + 24 + 12, p + 24, n - 24);
	h->hdr_len = 24 + 12;
	q[24] = 0x10;
	q[28] = 0x04;
	ktap_check(!st_btf_init(&btf, q, n + 12) && !st_btf_check(&btf),
		   "header: 7.x layout_off/layout_len set, a zero tail after them: parses");
	q[32] = 1;
	ktap_check(st_btf_init(&btf, q, n + 12) == -EINVAL,
		   "header: a nonzero byte past 7.x's layout_len refused");
	free(q);
	ktap_check(init_with(HDR(type_off), 2, 0) == -EINVAL &&
		   init_with(HDR(type_len), 6, 0) == -EINVAL,
		   "header: type section not 4-aligned");
	ktap_check(init_with(HDR(type_len), 0xfffffffc, 0) == -EINVAL &&
		   init_with(HDR(str_len), 0xffffffff, 0) == -EINVAL &&
		   init_with(HDR(str_off), 0xffffffff, 0) == -EINVAL,
		   "header: sections past the blob (u32 sums that would wrap)");
	ktap_check(init_with(HDR(type_off), 8, 0) == -EINVAL &&
		   init_with(HDR(str_off), 8, 0) == -EINVAL,
		   "header: overlapping sections");
	h = (void *)p;
	p[sizeof(*h) + h->str_off + h->str_len - 1] = 'x';
	ktap_check(st_btf_init(&btf, p, n) == -EINVAL,
		   "strings: last byte not NUL");
	p[sizeof(*h) + h->str_off + h->str_len - 1] = 0;
	p[sizeof(*h) + h->str_off] = 'x';
	ktap_check(st_btf_init(&btf, p, n) == -EINVAL &&
		   init_with(HDR(str_len), 0, 0) == -EINVAL,
		   "strings: first byte not NUL, empty section");
	free(p);
}

static void test_vmlinux(const char *path)
{
	const char *what = "vmlinux BTF";
	u32 off, sz;
	s64 v = 0, bit = 0;
	char *data, buf[256];
	int ok, i, sampled = 0, bad = 0, checked = 0;
	long size;
	FILE *f;

	f = fopen(path, "rb");
	data = malloc(64 << 20);
	size = f && data ? (long)fread(data, 1, 64 << 20, f) : 0;
	if (f)
		fclose(f);
	if (size <= 0) {
		for (i = 0; i < PLAN_VMLINUX; i++)
			ktap_skip(what, "no readable /sys/kernel/btf/vmlinux");
		free(data);
		return;
	}
	ktap_check(!st_btf_init(&btf, data, size) && !st_btf_check(&btf),
		   "%s: init and whole-section check (%ld bytes)", path, size);
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
	/* task_struct.sched_remote_wakeup etc. are bit fields (kflag 1) */
	ktap_check(st_btf_member(&btf, "task_struct", "sched_remote_wakeup",
				 &off, &sz) == -EINVAL,
		   "vmlinux: task_struct.sched_remote_wakeup is a bit field: refused");
	/* the functions the module takes over or calls, as on 6.1 to 6.18 */
	ktap_check(sig_is("ttwu_queue_wakelist", 3,
			  "bool (struct task_struct *, int, int)"),
		   "vmlinux: ttwu_queue_wakelist prototype");
	ktap_check(sig_is("task_numa_work", 1, "void (struct callback_head *)"),
		   "vmlinux: task_numa_work prototype");
	ktap_check(sig_is("__smp_call_single_queue", 2,
			  "void (int, struct llist_node *)"),
		   "vmlinux: __smp_call_single_queue prototype");
	ktap_check(sig_is("schedule", 0, "void (void)") &&
		   sig_is("_printk", 1, "int (char *, ...)"),
		   "vmlinux: no parameters, varargs");
	ktap_check(sig_is("call_rcu", 2,
			  "void (struct callback_head *, rcu_callback_t)"),
		   "vmlinux: typedef of a function pointer kept");
	/* every 64th function: the printer spells every real prototype */
	{
		u64 toff = 0;
		u32 id = 1;

		while (toff < btf.types_len) {
			const struct btf_type *t = (const void *)(btf.types + toff);
			struct st_btf_out o = { .buf = buf, .len = sizeof(buf) };

			if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC &&
			    !(checked++ % 64)) {
				sampled++;
				if (st_btf_put_type(&btf, t->type, &o, 0) &&
				    bad++ < 5)
					ktap_diag("cannot spell func %s",
						  btf.strs + t->name_off);
			}
			toff += sizeof(*t) + st_btf_extra(t);
			id++;
		}
	}
	ktap_check(sampled > 100 && !bad,
		   "vmlinux: %d of %d functions spelled, %d failed", sampled,
		   checked, bad);
	free(data);
}

int main(int argc, char **argv)
{
	ktap_header(PLAN_SYNTH + PLAN_MALFORMED + PLAN_DUP + PLAN_HEADER +
		    PLAN_VMLINUX);
	test_synthetic();
	test_malformed();
	test_dup();
	test_header();
	test_vmlinux(argc > 1 ? argv[1] : "/sys/kernel/btf/vmlinux");
	free(blob);
	return ktap_finish();
}
