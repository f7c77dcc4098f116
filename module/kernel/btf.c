// SPDX-License-Identifier: GPL-2.0
/*
 * Raw BTF reader: structs, unions, enumerators and function prototypes by
 * name.  Every query walks the type section, which is fine for the few
 * dozen queries made at load and saves building an index.
 *
 * The blob is not trusted: every offset, length and type id is checked
 * before use, chains of typedefs, qualifiers and arrays are followed
 * iteratively with a bounded number of hops, and the one recursion (into
 * anonymous members and function pointers) is bounded in depth and in
 * work.  selftests/unit/test_btf_fuzz.c feeds it mutated blobs under
 * ASan/UBSan.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/btf.h>

#include "btf.h"

/* hops through typedefs, qualifiers, pointers and arrays */
#define ST_BTF_MAX_HOPS 32
/* nesting of anonymous members, and of function pointers in a signature */
#define ST_BTF_MAX_NEST 8
/* anonymous members one member lookup may enter */
#define ST_BTF_MAX_ANON 1024
#define ST_BTF_U32_MAX ((u32)~0U)

static bool st_btf_zeros(const u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/*
 * The header's first 24 bytes, as every kernel writes them.  7.x's uapi
 * struct btf_header adds layout_off and layout_len (a section this reader
 * does not use), so its sizeof depends on the headers we build against:
 * on 7.3 it is 32 while the kernel's own BTF has a 24-byte header.
 */
struct st_btf_header {
	u16 magic;
	u8 version;
	u8 flags;
	u32 hdr_len;
	u32 type_off;
	u32 type_len;
	u32 str_off;
	u32 str_len;
};

/* Header bytes some kernel gives a meaning: up to 7.x's layout_len. */
#define ST_BTF_HDR_KNOWN	32

/**
 * st_btf_init() - Set up a reader of a BTF blob.
 * @btf: the reader, zeroed on failure
 * @data: the blob, 4-aligned
 * @size: its size in bytes
 *
 * Checks the header and the string section, as the kernel's
 * btf_parse_hdr() and btf_parse_str_sec() do.
 *
 * Return: 0, or -EINVAL for a blob that fails them.
 */
int st_btf_init(struct st_btf *btf, const void *data, size_t size)
{
	const struct st_btf_header *hdr = data;
	u64 types, strs;

	memset(btf, 0, sizeof(*btf));
	if (!data || ((unsigned long)data & 3) || size < sizeof(*hdr) ||
	    size > ST_BTF_U32_MAX)
		return -EINVAL;
	if (hdr->magic != BTF_MAGIC || hdr->version != BTF_VERSION ||
	    hdr->flags || hdr->hdr_len < sizeof(*hdr) || hdr->hdr_len > size)
		return -EINVAL;
	/* past what any kernel defines, the header must be zero */
	if (hdr->hdr_len > ST_BTF_HDR_KNOWN &&
	    !st_btf_zeros((const u8 *)data + ST_BTF_HDR_KNOWN,
			  hdr->hdr_len - ST_BTF_HDR_KNOWN))
		return -EINVAL;
	/* offsets count from the end of the header */
	types = (u64)hdr->hdr_len + hdr->type_off;
	strs = (u64)hdr->hdr_len + hdr->str_off;
	if ((types & 3) || (hdr->type_len & 3) ||
	    types + hdr->type_len > size || strs + hdr->str_len > size)
		return -EINVAL;
	/* no overlap, in either order */
	if (hdr->type_off < hdr->str_off ?
	    (u64)hdr->type_off + hdr->type_len > hdr->str_off :
	    (u64)hdr->str_off + hdr->str_len > hdr->type_off)
		return -EINVAL;
	btf->types = (const u8 *)data + types;
	btf->types_len = hdr->type_len;
	btf->strs = (const char *)data + strs;
	btf->strs_len = hdr->str_len;
	/* offset 0 is the empty name; every name ends inside the section */
	if (!btf->strs_len || btf->strs_len - 1 > BTF_MAX_NAME_OFFSET ||
	    btf->strs[0] || btf->strs[btf->strs_len - 1]) {
		memset(btf, 0, sizeof(*btf));
		return -EINVAL;
	}
	return 0;
}

/* NULL for an offset outside the string section. */
static const char *st_btf_str(const struct st_btf *btf, u32 off)
{
	return off < btf->strs_len ? btf->strs + off : NULL;
}

static bool st_btf_name_is(const struct st_btf *btf, u32 off, const char *name)
{
	const char *s = st_btf_str(btf, off);

	return s && !strcmp(s, name);
}

/* Bytes that follow struct btf_type for this kind. */
static long st_btf_extra(const struct btf_type *t)
{
	u32 vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return sizeof(u32);
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

/*
 * Calls @fn on every type in id order until it returns non-zero; a
 * malformed section (unknown kind, a type running past the end or a name
 * outside the strings) ends the walk with -EINVAL.  With @fn NULL, only
 * checks the section.
 */
static int st_btf_walk(const struct st_btf *btf,
		       int (*fn)(const struct btf_type *t, u32 id, void *arg),
		       void *arg)
{
	u64 off = 0;
	u32 id = 1;
	int ret;

	while (off < btf->types_len) {
		const struct btf_type *t = (const void *)(btf->types + off);
		long extra;

		if (off + sizeof(*t) > btf->types_len)
			return -EINVAL;
		extra = st_btf_extra(t);
		if (extra < 0 || off + sizeof(*t) + extra > btf->types_len ||
		    t->name_off >= btf->strs_len || id > BTF_MAX_TYPE)
			return -EINVAL;
		if (fn) {
			ret = fn(t, id, arg);
			if (ret)
				return ret;
		}
		off += sizeof(*t) + extra;
		id++;
	}
	return 0;
}

/**
 * st_btf_check() - Walk the whole type section once.
 * @btf: the reader
 *
 * Return: 0 if every type is well formed, else -EINVAL (also for a reader
 * st_btf_init() did not set up).
 */
int st_btf_check(const struct st_btf *btf)
{
	return btf->types ? st_btf_walk(btf, NULL, NULL) : -EINVAL;
}

struct st_btf_by_id {
	u32 id;
	const struct btf_type *found;
};

static int st_btf_match_id(const struct btf_type *t, u32 id, void *arg)
{
	struct st_btf_by_id *q = arg;

	if (id != q->id)
		return 0;
	q->found = t;
	return 1;
}

/* NULL for void (0), a missing id, or a malformed section before it. */
static const struct btf_type *st_btf_by_id(const struct st_btf *btf, u32 id)
{
	struct st_btf_by_id q = { .id = id };

	if (!id)
		return NULL;
	st_btf_walk(btf, st_btf_match_id, &q);
	return q.found;
}

static bool st_btf_is_modifier(u32 kind)
{
	return kind == BTF_KIND_VOLATILE || kind == BTF_KIND_CONST ||
	       kind == BTF_KIND_RESTRICT || kind == BTF_KIND_TYPE_TAG;
}

/*
 * Follows qualifiers and, with @typedefs, typedefs from @id.  Returns the
 * first other type and sets *@id to it; NULL (*@err set) for void, a
 * missing id or a chain longer than ST_BTF_MAX_HOPS.
 */
static const struct btf_type *st_btf_skip(const struct st_btf *btf, u32 *id,
					  bool typedefs, int *err)
{
	int hops;

	for (hops = 0; hops < ST_BTF_MAX_HOPS; hops++) {
		const struct btf_type *t = st_btf_by_id(btf, *id);
		u32 kind;

		if (!t) {
			*err = -EINVAL;
			return NULL;
		}
		kind = BTF_INFO_KIND(t->info);
		if (!st_btf_is_modifier(kind) &&
		    !(typedefs && kind == BTF_KIND_TYPEDEF))
			return t;
		*id = t->type;
		if (!*id) {	/* const void */
			*err = -EINVAL;
			return NULL;
		}
	}
	*err = -ELOOP;
	return NULL;
}

/*
 * Size of type @id: through typedefs, qualifiers and arrays (iteratively,
 * so that an array of itself cannot recurse), in u64 so that an element
 * count times an element size cannot wrap.
 */
static int st_btf_sizeof(const struct st_btf *btf, u32 id, u32 *size)
{
	u64 nelems = 1, bytes;
	int hops;

	for (hops = 0; hops < ST_BTF_MAX_HOPS; hops++) {
		const struct btf_type *t = st_btf_by_id(btf, id);
		const struct btf_array *arr;

		if (!t)
			return -EINVAL;
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_INT:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FLOAT:
			bytes = nelems * t->size;
			goto done;
		case BTF_KIND_PTR:
			bytes = nelems * sizeof(void *);
			goto done;
		case BTF_KIND_ARRAY:
			arr = (const void *)(t + 1);
			nelems *= arr->nelems;
			if (nelems > ST_BTF_U32_MAX)
				return -EINVAL;
			id = arr->type;
			break;
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		default:
			return -EINVAL;
		}
	}
	return -ELOOP;
done:
	if (bytes > ST_BTF_U32_MAX)
		return -EINVAL;
	*size = bytes;
	return 0;
}

/*
 * A member with kflag 0 is a bit field when its integer type does not
 * fill its size or starts at a bit offset (BTF_INT_OFFSET); with kflag 1
 * the member says so itself.  Either way, the module reads whole fields.
 */
static int st_btf_check_whole(const struct st_btf *btf, bool kflag,
			      const struct btf_member *m)
{
	const struct btf_type *t;
	u32 id = m->type, data, kind;
	int err = 0;

	if (kflag && BTF_MEMBER_BITFIELD_SIZE(m->offset))
		return -EINVAL;
	t = st_btf_skip(btf, &id, true, &err);
	if (!t)
		return err;
	kind = BTF_INFO_KIND(t->info);
	if (kind != BTF_KIND_INT)
		return 0;
	data = *(const u32 *)(t + 1);
	if (BTF_INT_OFFSET(data) || BTF_INT_BITS(data) != (u64)t->size * 8)
		return -EINVAL;
	return 0;
}

struct st_btf_member_q {
	const struct st_btf *btf;
	const char *member;
	int anon;		/* anonymous members entered so far */
	u64 bits;
	u32 type;
};

/*
 * Looks for q->member in @t and, through anonymous struct and union
 * members, in what they contain.  Bit fields are refused.
 */
static int st_btf_find_member(struct st_btf_member_q *q,
			      const struct btf_type *t, u64 base_bits,
			      int depth)
{
	const struct btf_member *m = (const void *)(t + 1);
	bool kflag = BTF_INFO_KFLAG(t->info);
	u32 i, vlen = BTF_INFO_VLEN(t->info);
	int ret;

	if (depth > ST_BTF_MAX_NEST)
		return -ELOOP;
	for (i = 0; i < vlen; i++, m++) {
		u32 off = kflag ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset;
		const char *name = st_btf_str(q->btf, m->name_off);
		const struct btf_type *inner;
		u32 kind;

		if (!name)
			return -EINVAL;
		if (*name) {
			if (strcmp(name, q->member))
				continue;
			ret = st_btf_check_whole(q->btf, kflag, m);
			if (ret)
				return ret;
			if (off % 8)
				return -EINVAL;
			q->bits = base_bits + off;
			q->type = m->type;
			return 0;
		}
		if (++q->anon > ST_BTF_MAX_ANON)
			return -ELOOP;
		inner = st_btf_by_id(q->btf, m->type);
		if (!inner)
			return -EINVAL;
		kind = BTF_INFO_KIND(inner->info);
		if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION)
			continue;
		ret = st_btf_find_member(q, inner, base_bits + off, depth + 1);
		if (ret != -ENOENT)
			return ret;
	}
	return -ENOENT;
}

/* Member @member of struct @t: its byte offset and size (see btf.h). */
static int st_btf_member_in(const struct st_btf *btf, const struct btf_type *t,
			    const char *member, u32 *offset, u32 *size)
{
	struct st_btf_member_q q = { .btf = btf, .member = member };
	u32 msize;
	int ret;

	ret = st_btf_find_member(&q, t, 0, 0);
	if (ret)
		return ret;
	ret = st_btf_sizeof(btf, q.type, &msize);
	if (ret)
		return ret;
	/* a field the module reads lies inside the object */
	if (q.bits / 8 + msize > t->size)
		return -EINVAL;
	*offset = q.bits / 8;
	*size = msize;
	return 0;
}

struct st_btf_by_name {
	const struct st_btf *btf;
	const char *name;
	u32 kind;
	const struct btf_type *found;
	u32 type;		/* ->type (a struct's ->size) of the first match */
	bool ambiguous;		/* a second match that answers otherwise */
	/* st_btf_member(): the first match's answer, which all must give */
	const char *member;
	int ret;
	u32 offset;
	u32 size;
};

static int st_btf_match_name(const struct btf_type *t, u32 id, void *arg)
{
	struct st_btf_by_name *q = arg;
	u32 kind = BTF_INFO_KIND(t->info), offset = 0, size = 0;
	int ret;

	if (q->kind == BTF_KIND_STRUCT ?
	    kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION :
	    kind != q->kind)
		return 0;
	if (!st_btf_name_is(q->btf, t->name_off, q->name))
		return 0;
	if (!q->found) {
		q->found = t;
		q->type = t->type;
		if (q->member)
			q->ret = st_btf_member_in(q->btf, t, q->member,
						  &q->offset, &q->size);
		return 0;
	}
	/*
	 * Static functions, and types, of one name in several files
	 * (vmlinux has a few structs: dir_entry, workspace, the compat twin
	 * of elf_note_info).  Which one the kernel code we hook uses cannot
	 * be told, so an answer stands only if every match gives it: one
	 * prototype; one struct size and, for a member, one offset and
	 * size.  A same size alone proves nothing: unrelated structs of one
	 * name often share it (two 24-byte dir_entry).
	 */
	if (t->type != q->type) {
		q->ambiguous = true;
		return 1;
	}
	if (!q->member)
		return 0;
	ret = st_btf_member_in(q->btf, t, q->member, &offset, &size);
	if (ret != q->ret || offset != q->offset || size != q->size) {
		q->ambiguous = true;
		return 1;
	}
	return 0;
}

/*
 * Walks the whole section for @q->name; -ENOENT if none, -EINVAL if the
 * section is malformed, -ENOTUNIQ if two matches answer differently.
 */
static int st_btf_lookup(const struct st_btf *btf, struct st_btf_by_name *q)
{
	int ret;

	if (!btf->types)
		return -EINVAL;
	ret = st_btf_walk(btf, st_btf_match_name, q);
	if (ret < 0)
		return ret;
	if (q->ambiguous)
		return -ENOTUNIQ;
	if (!q->found)
		return -ENOENT;
	return 0;
}

/*
 * The struct or union (@kind BTF_KIND_STRUCT) or the function
 * (BTF_KIND_FUNC) called @name; -ENOTUNIQ for structs of that name with
 * different sizes or functions with different prototypes.
 */
static int st_btf_find(const struct st_btf *btf, const char *name, u32 kind,
		       const struct btf_type **t)
{
	struct st_btf_by_name q = { .btf = btf, .name = name, .kind = kind };
	int ret = st_btf_lookup(btf, &q);

	if (ret)
		return ret;
	*t = q.found;
	return 0;
}

/**
 * st_btf_member() - A member of a struct or union, by name.
 * @btf: the reader
 * @type: the struct's or union's name
 * @member: the member's name, also inside anonymous members
 * @offset: set to its offset in bytes
 * @size: set to its size in bytes, unless NULL
 *
 * Return: 0, or an error of btf.h: -EINVAL for a bit field or a member
 * outside its type, -ENOTUNIQ when types of that name differ in size or
 * place it differently.
 */
int st_btf_member(const struct st_btf *btf, const char *type,
		  const char *member, u32 *offset, u32 *size)
{
	struct st_btf_by_name q = {
		.btf = btf, .name = type, .kind = BTF_KIND_STRUCT,
		.member = member,
	};
	int ret = st_btf_lookup(btf, &q);

	if (ret)
		return ret;
	if (q.ret)
		return q.ret;
	*offset = q.offset;
	if (size)
		*size = q.size;
	return 0;
}

/**
 * st_btf_type_size() - The size of a struct or union, by name.
 * @btf: the reader
 * @type: the struct's or union's name
 * @size: set to its size in bytes
 *
 * Return: 0, or an error of btf.h: -ENOTUNIQ when types of that name
 * differ in size.
 */
int st_btf_type_size(const struct st_btf *btf, const char *type, u32 *size)
{
	const struct btf_type *t;
	int ret = st_btf_find(btf, type, BTF_KIND_STRUCT, &t);

	if (ret)
		return ret;
	*size = t->size;
	return 0;
}

struct st_btf_enumerator {
	const struct st_btf *btf;
	const char *name;
	s64 val;
};

static int st_btf_match_enumerator(const struct btf_type *t, u32 id,
				   void *arg)
{
	struct st_btf_enumerator *q = arg;
	u32 i, vlen = BTF_INFO_VLEN(t->info);

	if (BTF_INFO_KIND(t->info) == BTF_KIND_ENUM) {
		const struct btf_enum *e = (const void *)(t + 1);

		for (i = 0; i < vlen; i++, e++) {
			if (st_btf_name_is(q->btf, e->name_off, q->name)) {
				q->val = e->val;
				return 1;
			}
		}
	} else if (BTF_INFO_KIND(t->info) == BTF_KIND_ENUM64) {
		const struct btf_enum64 *e = (const void *)(t + 1);

		for (i = 0; i < vlen; i++, e++) {
			if (st_btf_name_is(q->btf, e->name_off, q->name)) {
				q->val = (s64)(((u64)e->val_hi32 << 32) |
					       e->val_lo32);
				return 1;
			}
		}
	}
	return 0;
}

/**
 * st_btf_enum_value() - The value of an enumerator, by name.
 * @btf: the reader
 * @name: the enumerator's name
 * @val: set to its value
 *
 * The first enumerator of that name, in a 32- or 64-bit enum.
 *
 * Return: 0, or an error of btf.h.
 */
int st_btf_enum_value(const struct st_btf *btf, const char *name, s64 *val)
{
	struct st_btf_enumerator q = { .btf = btf, .name = name };
	int ret;

	if (!btf->types)
		return -EINVAL;
	ret = st_btf_walk(btf, st_btf_match_enumerator, &q);
	if (ret < 0)
		return ret;
	if (!ret)
		return -ENOENT;
	*val = q.val;
	return 0;
}

/* --- function signatures, as C spells them ------------------------------ */

struct st_btf_out {
	char *buf;
	size_t len;
	size_t pos;
};

static int st_btf_puts(struct st_btf_out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->pos + n >= o->len)
		return -ENOSPC;
	memcpy(o->buf + o->pos, s, n + 1);
	o->pos += n;
	return 0;
}

static int st_btf_put_stars(struct st_btf_out *o, int stars)
{
	int ret = 0;

	while (stars-- > 0 && !ret)
		ret = st_btf_puts(o, "*");
	return ret;
}

static int st_btf_put_type(const struct st_btf *btf, u32 id,
			   struct st_btf_out *o, int depth);

/* "(int, struct rq *)", "(void)" or "(const char *, ...)" */
static int st_btf_put_params(const struct st_btf *btf,
			     const struct btf_type *proto,
			     struct st_btf_out *o, int depth)
{
	const struct btf_param *p = (const void *)(proto + 1);
	u32 i, vlen = BTF_INFO_VLEN(proto->info);
	int ret = st_btf_puts(o, "(");

	if (!ret && !vlen)
		ret = st_btf_puts(o, "void");
	for (i = 0; i < vlen && !ret; i++, p++) {
		if (i)
			ret = st_btf_puts(o, ", ");
		if (ret)
			break;
		/* type 0 is "...", and only last */
		if (!p->type)
			ret = i + 1 == vlen ? st_btf_puts(o, "...") : -EINVAL;
		else
			ret = st_btf_put_type(btf, p->type, o, depth + 1);
	}
	return ret ?: st_btf_puts(o, ")");
}

static int st_btf_put_dim(struct st_btf_out *o, u32 n)
{
	char num[16];
	int i = sizeof(num) - 1;

	num[i] = '\0';
	do {
		num[--i] = '0' + n % 10;
		n /= 10;
	} while (n);
	return st_btf_puts(o, "[") ?: st_btf_puts(o, num + i) ?:
	       st_btf_puts(o, "]");
}

/* " (**)" of a pointer to a function or an array */
static int st_btf_put_ptr_group(struct st_btf_out *o, int stars)
{
	if (!stars)
		return 0;
	return st_btf_puts(o, " (") ?: st_btf_put_stars(o, stars) ?:
	       st_btf_puts(o, ")");
}

/*
 * Writes type @id as C names it in a declaration without a name:
 * qualifiers dropped, typedef names kept ("bool", "u64"), pointers as
 * "struct task_struct *", function pointers as "void (*)(int)", a pointer
 * to an array as "int (*)[4]".
 */
static int st_btf_put_type(const struct st_btf *btf, u32 id,
			   struct st_btf_out *o, int depth)
{
	const struct btf_type *t = NULL;
	const struct btf_array *arr;
	const char *name, *tag = "";
	int hops, stars = 0, ret;
	u32 kind = 0;

	if (depth > ST_BTF_MAX_NEST)
		return -ELOOP;
	/* peel qualifiers and pointers */
	for (hops = 0; id; hops++) {
		if (hops == ST_BTF_MAX_HOPS)
			return -ELOOP;
		t = st_btf_by_id(btf, id);
		if (!t)
			return -EINVAL;
		kind = BTF_INFO_KIND(t->info);
		if (kind == BTF_KIND_PTR)
			stars++;
		else if (!st_btf_is_modifier(kind))
			break;
		id = t->type;
	}
	if (!id) {
		name = "void";
	} else {
		name = st_btf_str(btf, t->name_off);
		if (!name)
			return -EINVAL;
		switch (kind) {
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
		case BTF_KIND_TYPEDEF:
			break;
		case BTF_KIND_STRUCT:
			tag = "struct ";
			break;
		case BTF_KIND_UNION:
			tag = "union ";
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			tag = "enum ";
			break;
		case BTF_KIND_FWD:
			tag = BTF_INFO_KFLAG(t->info) ? "union " : "struct ";
			break;
		case BTF_KIND_FUNC_PROTO:
			/* return type, "(*)", then the parameters */
			ret = st_btf_put_type(btf, t->type, o, depth + 1);
			if (!ret)
				ret = stars ? st_btf_put_ptr_group(o, stars) :
					      st_btf_puts(o, " ");
			return ret ?: st_btf_put_params(btf, t, o, depth);
		case BTF_KIND_ARRAY:
			/* one dimension: arrays of arrays are refused */
			arr = (const void *)(t + 1);
			if (!arr->type)
				return -EINVAL;
			t = st_btf_by_id(btf, arr->type);
			if (!t || BTF_INFO_KIND(t->info) == BTF_KIND_ARRAY)
				return -EINVAL;
			ret = st_btf_put_type(btf, arr->type, o, depth + 1);
			ret = ret ?: st_btf_put_ptr_group(o, stars);
			return ret ?: st_btf_put_dim(o, arr->nelems);
		default:
			return -EINVAL;
		}
		if (!*name)
			name = "(anon)";
	}
	ret = st_btf_puts(o, tag) ?: st_btf_puts(o, name);
	if (!ret && stars)
		ret = st_btf_puts(o, " ");
	return ret ?: st_btf_put_stars(o, stars);
}

/**
 * st_btf_func_sig() - The prototype of a function, as C spells it.
 * @btf: the reader
 * @func: the function's name
 * @buf: where the prototype goes, NUL-terminated when @len > 0
 * @len: the room in @buf
 *
 * Without names, e.g. "bool (struct task_struct *, int, int)": qualifiers
 * dropped, typedef names kept, "(void)" for no parameters, "..." last for
 * varargs.
 *
 * Return: the number of parameters ("..." not counted), or an error of
 * btf.h: -ENOSPC when @buf is too small, -ENOTUNIQ for functions of that
 * name with different prototypes.
 */
int st_btf_func_sig(const struct st_btf *btf, const char *func, char *buf,
		    size_t len)
{
	struct st_btf_out o = { .buf = buf, .len = len };
	const struct btf_type *f, *proto;
	u32 vlen;
	int ret;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	ret = st_btf_find(btf, func, BTF_KIND_FUNC, &f);
	if (ret)
		return ret;
	proto = st_btf_by_id(btf, f->type);
	if (!proto || BTF_INFO_KIND(proto->info) != BTF_KIND_FUNC_PROTO)
		return -EINVAL;
	ret = st_btf_put_type(btf, f->type, &o, 0);
	if (ret)
		return ret;
	vlen = BTF_INFO_VLEN(proto->info);
	/* a trailing "..." is no parameter */
	if (vlen && !((const struct btf_param *)(proto + 1))[vlen - 1].type)
		vlen--;
	return vlen;
}
