/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Builds BTF blobs for the unit tests: a writer for hand-made types, and a
 * slice of a real vmlinux BTF (its first N types, names re-packed into a
 * string section of their own).  Include after kernel/btf.c.
 */
#ifndef ST_UNIT_BTF_BUILD_H
#define ST_UNIT_BTF_BUILD_H

#include <stdlib.h>
#include <string.h>

struct bb {
	u32 *w;			/* type section, in words */
	size_t nw, cap_w;
	char *s;		/* string section */
	size_t ns, cap_s;
	u32 ntypes;
};

static void *bb_grow(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	while (*cap < need)
		*cap = *cap ? *cap * 2 : 256;
	p = realloc(p, *cap * elem);
	if (!p)
		abort();
	return p;
}

static void bb_init(struct bb *b)
{
	memset(b, 0, sizeof(*b));
	b->s = bb_grow(b->s, &b->cap_s, 1, 1);
	b->s[b->ns++] = '\0';
}

static void bb_free(struct bb *b)
{
	free(b->w);
	free(b->s);
}

/* Offset of @str in the string section (appended; "" is 0). */
static u32 bb_str(struct bb *b, const char *str)
{
	size_t n = strlen(str) + 1;
	u32 off = b->ns;

	if (!*str)
		return 0;
	b->s = bb_grow(b->s, &b->cap_s, b->ns + n, 1);
	memcpy(b->s + b->ns, str, n);
	b->ns += n;
	return off;
}

static void bb_w(struct bb *b, u32 v)
{
	b->w = bb_grow(b->w, &b->cap_w, b->nw + 1, sizeof(u32));
	b->w[b->nw++] = v;
}

#define BB_INFO(kind, vlen, kflag) \
	((u32)(kflag) << 31 | (u32)(kind) << 24 | (vlen))

/* Starts a type; returns its id.  Its extra words follow with bb_w(). */
static u32 bb_type(struct bb *b, const char *name, u32 info, u32 size_type)
{
	bb_w(b, bb_str(b, name));
	bb_w(b, info);
	bb_w(b, size_type);
	return ++b->ntypes;
}

static u32 bb_int(struct bb *b, const char *name, u32 bytes, u32 bits,
		  u32 bit_off)
{
	u32 id = bb_type(b, name, BB_INFO(BTF_KIND_INT, 0, 0), bytes);

	bb_w(b, bit_off << 16 | bits);
	return id;
}

static u32 bb_ref(struct bb *b, u32 kind, const char *name, u32 type)
{
	return bb_type(b, name, BB_INFO(kind, 0, 0), type);
}

static u32 bb_array(struct bb *b, u32 elem, u32 nelems)
{
	u32 id = bb_type(b, "", BB_INFO(BTF_KIND_ARRAY, 0, 0), 0);

	bb_w(b, elem);
	bb_w(b, 1);	/* index type: any int */
	bb_w(b, nelems);
	return id;
}

static void bb_member(struct bb *b, const char *name, u32 type, u32 offset)
{
	bb_w(b, bb_str(b, name));
	bb_w(b, type);
	bb_w(b, offset);
}

static void bb_param(struct bb *b, const char *name, u32 type)
{
	bb_w(b, bb_str(b, name));
	bb_w(b, type);
}

/*
 * The blob: header, types at type_off 0, strings right after.  @extra
 * bytes are allocated past the end (0 for an exact fit, which lets ASan
 * see a read past the blob).  Returns its size; *@out is malloc'd.
 */
static size_t bb_blob(const struct bb *b, void **out)
{
	struct btf_header hdr = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(hdr),
		.type_off = 0,
		.type_len = b->nw * 4,
		.str_off = b->nw * 4,
		.str_len = b->ns,
	};
	size_t size = sizeof(hdr) + b->nw * 4 + b->ns;
	char *p = malloc(size);

	if (!p)
		abort();
	memcpy(p, &hdr, sizeof(hdr));
	memcpy(p + sizeof(hdr), b->w, b->nw * 4);
	memcpy(p + sizeof(hdr) + b->nw * 4, b->s, b->ns);
	*out = p;
	return size;
}

/* Re-packs string offsets of a source BTF into @b, each name once. */
struct bb_remap {
	const struct st_btf *src;
	u32 *map;		/* source offset -> new offset + 1 */
	struct bb *b;
};

static u32 bb_remap_str(struct bb_remap *r, u32 off)
{
	if (!off || off >= r->src->strs_len)
		return 0;
	if (!r->map[off])
		r->map[off] = bb_str(r->b, r->src->strs + off) + 1;
	return r->map[off] - 1;
}

/*
 * The first @ntypes types of @src, with their names, in @b.  References
 * to later ids stay as they are: they dangle, as after a truncation.
 */
static inline int bb_slice(struct bb *b, const struct st_btf *src, u32 ntypes)
{
	struct bb_remap r = { .src = src, .b = b };
	size_t off = 0;
	u32 i, j;

	r.map = calloc(src->strs_len, sizeof(u32));
	if (!r.map)
		abort();
	for (i = 0; i < ntypes && off < src->types_len; i++) {
		const struct btf_type *t = (const void *)(src->types + off);
		long extra = st_btf_extra(t);
		u32 kind = BTF_INFO_KIND(t->info), vlen = BTF_INFO_VLEN(t->info);
		size_t first = b->nw;
		const u32 *words = (const u32 *)t;

		if (extra < 0) {
			free(r.map);
			return -1;
		}
		for (j = 0; j < (sizeof(*t) + extra) / 4; j++)
			bb_w(b, words[j]);
		b->w[first] = bb_remap_str(&r, t->name_off);
		/* names in the extra records */
		for (j = 0; j < vlen; j++) {
			u32 *rec = b->w + first + 3;

			if (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION)
				rec[j * 3] = bb_remap_str(&r, rec[j * 3]);
			else if (kind == BTF_KIND_ENUM ||
				 kind == BTF_KIND_FUNC_PROTO)
				rec[j * 2] = bb_remap_str(&r, rec[j * 2]);
			else if (kind == BTF_KIND_ENUM64)
				rec[j * 3] = bb_remap_str(&r, rec[j * 3]);
		}
		b->ntypes++;
		off += sizeof(*t) + extra;
	}
	free(r.map);
	return 0;
}

/*
 * The synthetic blob of the tests, one of each shape the module meets:
 *
 *   struct outer {              (kflag 1)
 *       int a;
 *       union { int b; struct { int c; int d; }; };
 *       int e:3;
 *       int arr[4];
 *       struct outer *p;
 *       const volatile u32 cv;
 *   };                          size 48
 *   struct legacy {             (kflag 0: bit fields in the int types)
 *       int x; int3 y; int_off z; const_int3_t w;
 *   };                          size 16
 *   enum { E_ONE = 1, E_BIG = 40 };  enum64 { E64_HUGE = 1 << 40 };
 *   int do_outer(struct outer *, int, ...);
 *   void nothing(void);
 *   int take_cb(void (*)(int), cb_t, const u32 *, int (*)[4],
 *               struct fwd_s *, double);
 *   dup(): two static functions with different prototypes
 *   and a VAR, DATASEC, DECL_TAG and TYPE_TAG for the walk.
 */
static void bb_synthetic(struct bb *b)
{
	u32 t_int, t_inner, t_union, t_outer, t_u32, t_cu32, t_cvu32, t_ptr,
	    t_arr, t_int3, t_intoff, t_c3, t_p_void, t_p_int, t_cb,
	    t_pcb, t_cbt, t_pcu32, t_parr, t_fwd, t_pfwd, t_dbl, t_take, t_var;

	bb_init(b);
	t_int = bb_int(b, "int", 4, 32, 0);
	t_inner = bb_type(b, "", BB_INFO(BTF_KIND_STRUCT, 2, 0), 8);
	bb_member(b, "c", t_int, 0);
	bb_member(b, "d", t_int, 32);
	t_union = bb_type(b, "", BB_INFO(BTF_KIND_UNION, 2, 0), 8);
	bb_member(b, "b", t_int, 0);
	bb_member(b, "", t_inner, 0);
	t_u32 = bb_ref(b, BTF_KIND_TYPEDEF, "u32", t_int);
	t_cu32 = bb_ref(b, BTF_KIND_CONST, "", t_u32);
	t_cvu32 = bb_ref(b, BTF_KIND_VOLATILE, "", t_cu32);
	t_arr = bb_array(b, t_int, 4);
	t_outer = b->ntypes + 2;	/* after the pointer to it */
	t_ptr = bb_ref(b, BTF_KIND_PTR, "", t_outer);
	if (bb_type(b, "outer", BB_INFO(BTF_KIND_STRUCT, 6, 1), 48) != t_outer)
		abort();
	bb_member(b, "a", t_int, 0);
	bb_member(b, "", t_union, 32);
	bb_member(b, "e", t_int, 3u << 24 | 96);
	bb_member(b, "arr", t_arr, 128);
	bb_member(b, "p", t_ptr, 256);
	bb_member(b, "cv", t_cvu32, 320);

	t_int3 = bb_int(b, "int3", 4, 3, 0);
	t_intoff = bb_int(b, "int_off", 4, 30, 2);
	t_c3 = bb_ref(b, BTF_KIND_CONST, "", bb_ref(b, BTF_KIND_TYPEDEF,
						    "int3_t", t_int3));
	bb_type(b, "legacy", BB_INFO(BTF_KIND_STRUCT, 4, 0), 16);
	bb_member(b, "x", t_int, 0);
	bb_member(b, "y", t_int3, 32);
	bb_member(b, "z", t_intoff, 64);
	bb_member(b, "w", t_c3, 96);

	bb_type(b, "", BB_INFO(BTF_KIND_ENUM, 2, 0), 4);
	bb_w(b, bb_str(b, "E_ONE"));
	bb_w(b, 1);
	bb_w(b, bb_str(b, "E_BIG"));
	bb_w(b, 40);
	bb_type(b, "", BB_INFO(BTF_KIND_ENUM64, 1, 0), 8);
	bb_w(b, bb_str(b, "E64_HUGE"));
	bb_w(b, 0);
	bb_w(b, 1u << 8);

	/* int do_outer(struct outer *, int, ...) */
	bb_type(b, "", BB_INFO(BTF_KIND_FUNC_PROTO, 3, 0), t_int);
	bb_param(b, "o", t_ptr);
	bb_param(b, "n", t_int);
	bb_param(b, "", 0);
	bb_ref(b, BTF_KIND_FUNC, "do_outer", b->ntypes);
	/* void nothing(void) */
	t_p_void = bb_type(b, "", BB_INFO(BTF_KIND_FUNC_PROTO, 0, 0), 0);
	bb_ref(b, BTF_KIND_FUNC, "nothing", t_p_void);
	/* void (int), and pointers to it */
	t_p_int = bb_type(b, "", BB_INFO(BTF_KIND_FUNC_PROTO, 1, 0), 0);
	bb_param(b, "", t_int);
	t_cb = t_p_int;
	t_pcb = bb_ref(b, BTF_KIND_PTR, "", t_cb);
	t_cbt = bb_ref(b, BTF_KIND_TYPEDEF, "cb_t", t_pcb);
	t_pcu32 = bb_ref(b, BTF_KIND_PTR, "", t_cu32);
	t_parr = bb_ref(b, BTF_KIND_PTR, "", t_arr);
	t_fwd = bb_type(b, "fwd_s", BB_INFO(BTF_KIND_FWD, 0, 0), 0);
	t_pfwd = bb_ref(b, BTF_KIND_PTR, "", t_fwd);
	t_dbl = bb_type(b, "double", BB_INFO(BTF_KIND_FLOAT, 0, 0), 8);
	t_take = bb_type(b, "", BB_INFO(BTF_KIND_FUNC_PROTO, 6, 0), t_int);
	bb_param(b, "f", t_pcb);
	bb_param(b, "g", t_cbt);
	bb_param(b, "h", t_pcu32);
	bb_param(b, "i", t_parr);
	bb_param(b, "j", t_pfwd);
	bb_param(b, "k", t_dbl);
	bb_ref(b, BTF_KIND_FUNC, "take_cb", t_take);
	bb_ref(b, BTF_KIND_FUNC, "dup", t_p_void);
	bb_ref(b, BTF_KIND_FUNC, "dup", t_p_int);

	t_var = bb_type(b, "a_var", BB_INFO(BTF_KIND_VAR, 0, 0), t_int);
	bb_w(b, 1);
	bb_type(b, ".data", BB_INFO(BTF_KIND_DATASEC, 1, 0), 4);
	bb_w(b, t_var);
	bb_w(b, 0);
	bb_w(b, 4);
	bb_type(b, "tag", BB_INFO(BTF_KIND_DECL_TAG, 0, 0), t_var);
	bb_w(b, (u32)-1);
	bb_ref(b, BTF_KIND_TYPE_TAG, "user", t_int);
}

#endif /* ST_UNIT_BTF_BUILD_H */
