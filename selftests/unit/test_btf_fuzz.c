// SPDX-License-Identifier: GPL-2.0
/*
 * Mutation test of module/kernel/btf.c: thousands of blobs derived from
 * a small valid synthetic blob and from a slice of the running kernel's
 * BTF (bit flips, truncations, header fields, type-id cycles, huge array
 * counts, kinds, names, strings), each read by every query the module
 * makes.  Each call must return success or one of the errors btf.h
 * documents, and never read outside the blob (ASan and UBSan, aborting).
 * Deterministic: the seed and the case count are the arguments
 * (defaults below); a failing case prints both.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ktap.h"
#include "kernel/btf.c"
#include "btf_build.h"

#define SEED		0x5eed5eedULL
#define CASES_SYNTH	40000
#define CASES_SLICE	16000
#define SLICE_TYPES	600
#define MAX_Q		24

static u64 rng;

static u32 rnd(void)
{
	/* xorshift64*: deterministic on every machine */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((rng * 0x2545F4914F6CDD1DULL) >> 32);
}

static u32 below(u32 n)
{
	return n ? rnd() % n : 0;
}

enum q_kind { Q_MEMBER, Q_SIZE, Q_ENUM, Q_SIG };

struct query {
	enum q_kind kind;
	char a[64], b[64];
};

/* A valid blob, where its fields are, and the queries to ask of it. */
struct base {
	const char *name;
	char *blob;
	size_t size;
	u32 ntypes;
	/* blob offsets of u32 fields, by role */
	u32 *refs, nrefs;	/* type ids */
	u32 *nelems, nnelems;
	u32 *infos, ninfos;
	u32 *names, nnames;	/* name offsets */
	u32 *sizes, nsizes;	/* sizes and member offsets */
	u32 *starts;		/* blob offset of each type */
	struct query q[MAX_Q];
	int nq;
};

static void push(u32 **v, u32 *n, u32 off)
{
	*v = realloc(*v, (*n + 1) * sizeof(u32));
	if (!*v)
		abort();
	(*v)[(*n)++] = off;
}

/* Records where every field of the (valid) type section lies. */
static void map_fields(struct base *bs)
{
	const struct btf_header *h = (const void *)bs->blob;
	u32 base = h->hdr_len + h->type_off, off = 0, j;

	bs->starts = calloc(bs->ntypes + 1, sizeof(u32));
	for (u32 id = 1; off < h->type_len; id++) {
		const struct btf_type *t = (const void *)(bs->blob + base + off);
		u32 kind = BTF_INFO_KIND(t->info), vlen = BTF_INFO_VLEN(t->info);
		u32 at = base + off, x = at + 12;

		bs->starts[id] = at;
		push(&bs->names, &bs->nnames, at);
		push(&bs->infos, &bs->ninfos, at + 4);
		switch (kind) {
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
			push(&bs->sizes, &bs->nsizes, at + 8);
			if (kind == BTF_KIND_INT)
				push(&bs->sizes, &bs->nsizes, x);
			break;
		case BTF_KIND_ARRAY:
			push(&bs->refs, &bs->nrefs, x);
			push(&bs->refs, &bs->nrefs, x + 4);
			push(&bs->nelems, &bs->nnelems, x + 8);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			push(&bs->sizes, &bs->nsizes, at + 8);
			for (j = 0; j < vlen; j++) {
				push(&bs->names, &bs->nnames, x + 12 * j);
				push(&bs->refs, &bs->nrefs, x + 12 * j + 4);
				push(&bs->sizes, &bs->nsizes, x + 12 * j + 8);
			}
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			for (j = 0; j < vlen; j++)
				push(&bs->names, &bs->nnames,
				     x + (kind == BTF_KIND_ENUM ? 8 : 12) * j);
			break;
		case BTF_KIND_FUNC_PROTO:
			push(&bs->refs, &bs->nrefs, at + 8);
			for (j = 0; j < vlen; j++) {
				push(&bs->names, &bs->nnames, x + 8 * j);
				push(&bs->refs, &bs->nrefs, x + 8 * j + 4);
			}
			break;
		case BTF_KIND_DATASEC:
			for (j = 0; j < vlen; j++)
				push(&bs->refs, &bs->nrefs, x + 12 * j);
			break;
		default:	/* PTR, FWD, TYPEDEF, qualifiers, FUNC, VAR, tags */
			push(&bs->refs, &bs->nrefs, at + 8);
			break;
		}
		off += sizeof(*t) + st_btf_extra(t);
	}
}

static void base_free(struct base *bs)
{
	free(bs->blob);
	free(bs->refs);
	free(bs->nelems);
	free(bs->infos);
	free(bs->names);
	free(bs->sizes);
	free(bs->starts);
}

static void add_q(struct base *bs, enum q_kind kind, const char *a,
		  const char *b)
{
	struct query *q;

	if (bs->nq == MAX_Q)
		return;
	q = &bs->q[bs->nq++];
	q->kind = kind;
	snprintf(q->a, sizeof(q->a), "%s", a);
	snprintf(q->b, sizeof(q->b), "%s", b ? b : "");
}

static void base_synthetic(struct base *bs)
{
	static const char *const members[][2] = {
		{ "outer", "a" }, { "outer", "b" }, { "outer", "d" },
		{ "outer", "arr" }, { "outer", "p" }, { "outer", "cv" },
		{ "outer", "e" }, { "legacy", "x" }, { "legacy", "y" },
		{ "legacy", "w" },
	};
	struct bb b;
	size_t i;

	bb_synthetic(&b);
	bs->name = "synthetic";
	bs->size = bb_blob(&b, (void **)&bs->blob);
	bs->ntypes = b.ntypes;
	bb_free(&b);
	map_fields(bs);
	for (i = 0; i < ARRAY_SIZE(members); i++)
		add_q(bs, Q_MEMBER, members[i][0], members[i][1]);
	add_q(bs, Q_SIZE, "outer", NULL);
	add_q(bs, Q_ENUM, "E_BIG", NULL);
	add_q(bs, Q_ENUM, "E64_HUGE", NULL);
	add_q(bs, Q_SIG, "do_outer", NULL);
	add_q(bs, Q_SIG, "nothing", NULL);
	add_q(bs, Q_SIG, "take_cb", NULL);
	add_q(bs, Q_SIG, "dup", NULL);
}

/*
 * The first SLICE_TYPES types of the kernel's BTF, and queries that
 * succeed on it: its first structs with a named member, enumerators and
 * functions.  Returns 0 if there is no readable vmlinux BTF.
 */
static int base_slice(struct base *bs, const char *path)
{
	struct st_btf src, sl;
	int nstruct = 0, nenum = 0, nfunc = 0;
	char *data, buf[256];
	struct bb b;
	long size;
	u32 off = 0, o, s;
	s64 v;
	FILE *f = fopen(path, "rb");

	data = malloc(64 << 20);
	size = f && data ? (long)fread(data, 1, 64 << 20, f) : 0;
	if (f)
		fclose(f);
	if (size <= 0 || st_btf_init(&src, data, size)) {
		free(data);
		return 0;
	}
	bb_init(&b);
	if (bb_slice(&b, &src, SLICE_TYPES))
		abort();
	free(data);
	bs->name = "vmlinux slice";
	bs->size = bb_blob(&b, (void **)&bs->blob);
	bs->ntypes = b.ntypes;
	bb_free(&b);
	if (st_btf_init(&sl, bs->blob, bs->size))
		abort();
	map_fields(bs);
	while (off < sl.types_len) {
		const struct btf_type *t = (const void *)(sl.types + off);
		const char *name = sl.strs + t->name_off;
		u32 kind = BTF_INFO_KIND(t->info), vlen = BTF_INFO_VLEN(t->info);

		if ((kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION) &&
		    *name && nstruct < 8) {
			const struct btf_member *m = (const void *)(t + 1);

			for (u32 j = 0; j < vlen; j++, m++) {
				const char *mn = sl.strs + m->name_off;

				if (!*mn || st_btf_member(&sl, name, mn, &o, &s))
					continue;
				add_q(bs, Q_MEMBER, name, mn);
				if (!nstruct++)
					add_q(bs, Q_SIZE, name, NULL);
				break;
			}
		} else if (kind == BTF_KIND_ENUM && vlen && nenum < 4) {
			const struct btf_enum *e = (const void *)(t + 1);

			if (!st_btf_enum_value(&sl, sl.strs + e->name_off, &v)) {
				add_q(bs, Q_ENUM, sl.strs + e->name_off, NULL);
				nenum++;
			}
		} else if (kind == BTF_KIND_FUNC && nfunc < 6 &&
			   st_btf_func_sig(&sl, name, buf, sizeof(buf)) >= 0) {
			add_q(bs, Q_SIG, name, NULL);
			nfunc++;
		}
		off += sizeof(*t) + st_btf_extra(t);
	}
	return 1;
}

static const u32 interesting[] = {
	0, 1, 2, 3, 4, 7, 8, 12, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000,
	0xffffff, 0x1000000, 0x40000001, 0x7fffffff, 0x80000000, 0xfffffffc,
	0xfffffffe, 0xffffffff, BTF_MAX_TYPE, BTF_MAX_TYPE + 1,
};

static u32 pick_interesting(const struct base *bs)
{
	switch (below(4)) {
	case 0:
		return bs->size + below(9) - 4;
	case 1:
		return below(bs->ntypes + 3);
	default:
		return interesting[below(sizeof(interesting) /
					 sizeof(interesting[0]))];
	}
}

static void put32(char *p, size_t size, u32 at, u32 val)
{
	if (at + 4 <= size)
		memcpy(p + at, &val, 4);
}

static u32 get32(const char *p, u32 at)
{
	u32 v;

	memcpy(&v, p + at, 4);
	return v;
}

static const char *const op_names[] = {
	"bit flips", "random bytes", "truncation", "header field",
	"type id (cycles)", "array count", "kind/vlen/kflag", "name offset",
	"string bytes", "size/member offset", "type record copied",
	"misaligned start",
};

#define NR_OPS ((int)ARRAY_SIZE(op_names))

/* The id of the type whose record holds blob offset @at. */
static u32 holder_of(const struct base *bs, u32 at)
{
	u32 id = bs->ntypes;

	while (id > 1 && bs->starts[id] > at)
		id--;
	return id;
}

/* One mutation of @p (in place); may shrink *@size.  Returns the op. */
static int mutate(const struct base *bs, char *p, size_t *size)
{
	const struct btf_header *h = (const void *)bs->blob;
	u32 strs = h->hdr_len + h->str_off, a, id, n, i;
	int op = below(NR_OPS);

	switch (op) {
	case 0:
		for (n = 1 + below(8); n--;) {
			a = below(*size * 8);
			p[a / 8] ^= 1 << (a % 8);
		}
		break;
	case 1:
		for (n = 1 + below(4); n--;)
			p[below(*size)] = rnd();
		break;
	case 2:
		*size = below(*size);
		break;
	case 3:
		put32(p, *size, 4 * (1 + below(5)), pick_interesting(bs));
		if (!below(4))	/* magic, version, flags */
			p[below(4)] = rnd();
		break;
	case 4:
		a = bs->refs[below(bs->nrefs)];
		id = holder_of(bs, a);
		switch (below(4)) {
		case 0:		/* itself */
			put32(p, *size, a, id);
			break;
		case 1:		/* a two-type cycle: a -> b -> a */
			i = bs->refs[below(bs->nrefs)];
			put32(p, *size, a, holder_of(bs, i));
			put32(p, *size, i, id);
			break;
		default:
			put32(p, *size, a, pick_interesting(bs));
		}
		break;
	case 5:
		if (!bs->nnelems)
			return mutate(bs, p, size);
		put32(p, *size, bs->nelems[below(bs->nnelems)],
		      below(2) ? interesting[16 + below(8)] : pick_interesting(bs));
		break;
	case 6:
		a = bs->infos[below(bs->ninfos)];
		n = get32(bs->blob, a);
		switch (below(4)) {
		case 0:
			n = (n & ~(0x1fu << 24)) | below(32) << 24;
			break;
		case 1:
			n ^= 1u << 31;
			break;
		case 2:
			n = (n & ~0xffffu) | ((n + below(5) - 2) & 0xffff);
			break;
		default:
			n = (n & ~0xffffu) | (below(2) ? 0xffff : below(0x10000));
		}
		put32(p, *size, a, n);
		break;
	case 7:
		n = h->str_len;
		put32(p, *size, bs->names[below(bs->nnames)],
		      below(2) ? n - below(3) : pick_interesting(bs));
		break;
	case 8:
		for (n = 1 + below(3); n--;) {
			a = strs + below(h->str_len);
			if (a < *size)
				p[a] = below(2) ? 0 : 'A' + below(26);
		}
		break;
	case 9:
		put32(p, *size, bs->sizes[below(bs->nsizes)],
		      below(2) ? get32(bs->blob, bs->sizes[below(bs->nsizes)]) ^
				 1u << below(32) : pick_interesting(bs));
		break;
	case 10:
		a = bs->starts[1 + below(bs->ntypes)];
		i = bs->starts[1 + below(bs->ntypes)];
		n = 12 + 4 * below(4);
		if (a + n <= *size && i + n <= *size)
			memmove(p + a, bs->blob + i, n);
		break;
	default:
		break;	/* the caller shifts the blob */
	}
	return op;
}

/*
 * Reference size of type @id, written the obvious way (recursion, u64):
 * UINT64_MAX where it cannot be known.  The reader must agree with it.
 */
static u64 ref_sizeof(const struct st_btf *btf, u32 id, int depth)
{
	const struct btf_type *t = st_btf_by_id(btf, id);
	const struct btf_array *arr;
	u64 elem;

	if (!t || depth > 40)
		return UINT64_MAX;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT:
		return t->size;
	case BTF_KIND_PTR:
		return sizeof(void *);
	case BTF_KIND_ARRAY:
		arr = (const void *)(t + 1);
		elem = ref_sizeof(btf, arr->type, depth + 1);
		if (elem == UINT64_MAX || (elem && arr->nelems > UINT64_MAX / elem))
			return UINT64_MAX;
		return elem * arr->nelems;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return ref_sizeof(btf, t->type, depth + 1);
	default:
		return UINT64_MAX;
	}
}

/* The member's type id, found again by a plain search of @type. */
static u32 ref_member_type(const struct st_btf *btf, const char *type,
			   const char *member)
{
	struct st_btf_member_q mq = { .btf = btf, .member = member };
	const struct btf_type *t;

	if (st_btf_find(btf, type, BTF_KIND_STRUCT, &t) ||
	    st_btf_find_member(&mq, t, 0, 0))
		return 0;
	return mq.type;
}

struct stats {
	int cases, init_ok, check_ok, answered, violations;
	int ops[NR_OPS];
	int err[5];		/* -EINVAL -ENOENT -ELOOP -ENOTUNIQ -ENOSPC */
};

static void count_err(struct stats *st, int ret)
{
	switch (ret) {
	case -EINVAL:
		st->err[0]++;
		break;
	case -ENOENT:
		st->err[1]++;
		break;
	case -ELOOP:
		st->err[2]++;
		break;
	case -ENOTUNIQ:
		st->err[3]++;
		break;
	case -ENOSPC:
		st->err[4]++;
		break;
	}
}

static void violation(struct stats *st, u64 seed, int nr, const char *what,
		      const struct query *q, int ret)
{
	if (st->violations++ < 10)
		ktap_diag("seed %#llx case %d: %s(%s, %s) returned %d",
			  (unsigned long long)seed, nr, what, q ? q->a : "",
			  q ? q->b : "", ret);
}

/* Every query of @bs on one blob; checks each answer is documented. */
static void ask(const struct base *bs, const char *p, size_t size,
		struct stats *st, u64 seed, int nr)
{
	struct st_btf btf;
	char buf[256], tiny[16];
	u32 off, sz, tsz;
	int ret, i, i2;
	s64 v;

	ret = st_btf_init(&btf, p, size);
	if (ret) {
		if (ret != -EINVAL)
			violation(st, seed, nr, "st_btf_init", NULL, ret);
		return;
	}
	st->init_ok++;
	ret = st_btf_check(&btf);
	if (ret && ret != -EINVAL)
		violation(st, seed, nr, "st_btf_check", NULL, ret);
	st->check_ok += !ret;
	for (i = 0; i < bs->nq; i++) {
		const struct query *q = &bs->q[i];

		switch (q->kind) {
		case Q_MEMBER:
			ret = st_btf_member(&btf, q->a, q->b, &off, &sz);
			if (ret == -ENOSPC ||
			    (ret < 0 && ret != -EINVAL && ret != -ENOENT &&
			     ret != -ELOOP && ret != -ENOTUNIQ) || ret > 0)
				violation(st, seed, nr, "member", q, ret);
			/* a found field lies inside the object */
			else if (!ret && (st_btf_type_size(&btf, q->a, &tsz) ||
					  (u64)off + sz > tsz))
				violation(st, seed, nr, "member bounds", q, ret);
			/* the size agrees with the reference */
			else if (!ret &&
				 ref_sizeof(&btf, ref_member_type(&btf, q->a, q->b), 0) != sz)
				violation(st, seed, nr, "member size", q, ret);
			/* without a size, the same answer */
			else if (!ret && (st_btf_member(&btf, q->a, q->b, &tsz,
							NULL) || tsz != off))
				violation(st, seed, nr, "member, no size", q, ret);
			break;
		case Q_SIZE:
			ret = st_btf_type_size(&btf, q->a, &sz);
			if (ret && ret != -EINVAL && ret != -ENOENT &&
			    ret != -ENOTUNIQ)
				violation(st, seed, nr, "type_size", q, ret);
			break;
		case Q_ENUM:
			ret = st_btf_enum_value(&btf, q->a, &v);
			if (ret && ret != -EINVAL && ret != -ENOENT)
				violation(st, seed, nr, "enum", q, ret);
			break;
		case Q_SIG:
			ret = st_btf_func_sig(&btf, q->a, buf, sizeof(buf));
			if ((ret < 0 && ret != -EINVAL && ret != -ENOENT &&
			     ret != -ELOOP && ret != -ENOTUNIQ &&
			     ret != -ENOSPC) || ret > 0xffff ||
			    strnlen(buf, sizeof(buf)) == sizeof(buf))
				violation(st, seed, nr, "func_sig", q, ret);
			/* a short buffer: the same answer or -ENOSPC */
			i2 = st_btf_func_sig(&btf, q->a, tiny, sizeof(tiny));
			if (strnlen(tiny, sizeof(tiny)) == sizeof(tiny) ||
			    (i2 != ret && i2 != -ENOSPC))
				violation(st, seed, nr, "func_sig tiny", q, i2);
			break;
		}
		if (ret >= 0)
			st->answered++;
		else
			count_err(st, ret);
	}
}

static void fuzz(const struct base *bs, u64 seed, int cases, struct stats *st)
{
	struct st_btf odd;
	int nr, n, op;

	memset(st, 0, sizeof(*st));
	rng = seed ? seed : 1;
	for (nr = 0; nr < cases; nr++) {
		size_t size = bs->size;
		char *p = malloc(size + 4), *q;

		memcpy(p, bs->blob, size);
		for (n = 1 + below(3); n--;) {
			op = mutate(bs, p, &size);
			st->ops[op]++;
		}
		/* an exact allocation, so ASan sees one byte too far */
		q = malloc(size ? size : 1);
		memcpy(q, p, size);
		if (op == NR_OPS - 1) {
			/* the same bytes at an odd address: refused */
			memmove(p + 1 + below(3), q, size);
			if (size >= sizeof(struct btf_header) &&
			    st_btf_init(&odd, p + 1, size) != -EINVAL)
				violation(st, seed, nr, "misaligned init", NULL, 0);
		}
		free(p);
		ask(bs, q, size, st, seed, nr);
		free(q);
		st->cases++;
	}
}

static void report(const char *name, const struct stats *st, double secs)
{
	int i;

	ktap_diag("%s: %d cases in %.2f s (ASan+UBSan build): %d past the header, %d whole sections valid, %d queries answered",
		  name, st->cases, secs, st->init_ok, st->check_ok, st->answered);
	ktap_diag("%s: errors returned: %d -EINVAL, %d -ENOENT, %d -ELOOP, %d -ENOTUNIQ, %d -ENOSPC",
		  name, st->err[0], st->err[1], st->err[2], st->err[3],
		  st->err[4]);
	for (i = 0; i < NR_OPS; i++)
		printf("%s%s %d", i ? "," : "# mutations:", op_names[i],
		       st->ops[i]);
	printf("\n");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The pristine blob answers every query, or the fuzzing proves little. */
static int pristine_ok(const struct base *bs)
{
	struct stats st = { 0 };

	ask(bs, bs->blob, bs->size, &st, 0, -1);
	return st.check_ok == 1 && !st.violations && st.answered >= bs->nq - 4;
}

static void run(const struct base *bs, u64 seed, int cases)
{
	struct stats st;
	double t = now();

	ktap_check(pristine_ok(bs) && bs->nq >= 8,
		   "%s: the pristine blob (%zu bytes, %u types) parses and answers its %d queries",
		   bs->name, bs->size, bs->ntypes, bs->nq);
	fuzz(bs, seed, cases, &st);
	t = now() - t;
	report(bs->name, &st, t);
	ktap_check(!st.violations && st.cases == cases,
		   "%s: %d mutated blobs, every answer success or a documented error, no crash",
		   bs->name, st.cases);
	/* the mutations reach the walker and the resolvers, not just the header */
	ktap_check(st.init_ok > cases / 4 && st.check_ok > cases / 10 &&
		   st.err[0] && st.err[1] && st.err[2] && st.answered,
		   "%s: mutations reach every layer (%d%% past the header, -ELOOP %d times)",
		   bs->name, 100 * st.init_ok / cases, st.err[2]);
}

int main(int argc, char **argv)
{
	u64 seed = argc > 1 ? strtoull(argv[1], NULL, 0) : SEED;
	int scale = argc > 2 ? atoi(argv[2]) : 1, i;
	struct base synth = { 0 }, slice = { 0 };

	/* a hang is a failure too */
	alarm(300);
	ktap_header(6);
	ktap_diag("seed %#llx (rerun: %s SEED [SCALE])", (unsigned long long)seed,
		  argv[0]);
	base_synthetic(&synth);
	run(&synth, seed, CASES_SYNTH * scale);
	if (base_slice(&slice, argc > 3 ? argv[3] : "/sys/kernel/btf/vmlinux")) {
		run(&slice, seed + 1, CASES_SLICE * scale);
	} else {
		for (i = 0; i < 3; i++)
			ktap_skip("vmlinux slice", "no readable /sys/kernel/btf/vmlinux");
	}
	base_free(&synth);
	base_free(&slice);
	return ktap_finish();
}
