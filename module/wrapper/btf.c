// SPDX-License-Identifier: GPL-2.0
/*
 * Raw BTF reader: structs, unions and enumerators by name.  Every query
 * walks the type section, which is fine for the few dozen queries made
 * at load and saves building an index.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#endif
#include <linux/btf.h>

#include "btf.h"

#define ST_BTF_MAX_DEPTH 8

int st_btf_init(struct st_btf *btf, const void *data, size_t size)
{
	const struct btf_header *hdr = data;

	if (size < sizeof(*hdr) || hdr->magic != BTF_MAGIC ||
	    hdr->version != BTF_VERSION || hdr->hdr_len > size ||
	    (u64)hdr->hdr_len + hdr->type_off + hdr->type_len > size ||
	    (u64)hdr->hdr_len + hdr->str_off + hdr->str_len > size ||
	    !hdr->str_len)
		return -EINVAL;

	btf->types = (const u8 *)data + hdr->hdr_len + hdr->type_off;
	btf->types_len = hdr->type_len;
	btf->strs = (const char *)data + hdr->hdr_len + hdr->str_off;
	btf->strs_len = hdr->str_len;
	if (btf->strs[btf->strs_len - 1])
		return -EINVAL;
	return 0;
}

static const char *st_btf_str(const struct st_btf *btf, u32 off)
{
	return off < btf->strs_len ? btf->strs + off : "";
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
 * malformed section ends the walk with -EINVAL.
 */
static int st_btf_walk(const struct st_btf *btf,
		       int (*fn)(const struct btf_type *t, u32 id, void *arg),
		       void *arg)
{
	u32 off = 0, id = 1;
	int ret;

	while (off + sizeof(struct btf_type) <= btf->types_len) {
		const struct btf_type *t = (const void *)(btf->types + off);
		long extra = st_btf_extra(t);

		if (extra < 0 ||
		    off + sizeof(*t) + extra > btf->types_len)
			return -EINVAL;
		ret = fn(t, id, arg);
		if (ret)
			return ret;
		off += sizeof(*t) + extra;
		id++;
	}
	return 0;
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

static const struct btf_type *st_btf_by_id(const struct st_btf *btf, u32 id)
{
	struct st_btf_by_id q = { .id = id };

	st_btf_walk(btf, st_btf_match_id, &q);
	return q.found;
}

/* Follows typedefs and qualifiers to the type that has a size. */
static int st_btf_sizeof(const struct st_btf *btf, u32 id, u32 *size)
{
	int depth;

	for (depth = 0; depth < ST_BTF_MAX_DEPTH; depth++) {
		const struct btf_type *t = st_btf_by_id(btf, id);
		const struct btf_array *arr;
		u32 elem;

		if (!t)
			return -EINVAL;
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_INT:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FLOAT:
			*size = t->size;
			return 0;
		case BTF_KIND_PTR:
			*size = sizeof(void *);
			return 0;
		case BTF_KIND_ARRAY:
			arr = (const void *)(t + 1);
			if (st_btf_sizeof(btf, arr->type, &elem))
				return -EINVAL;
			*size = elem * arr->nelems;
			return 0;
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
}

struct st_btf_by_name {
	const struct st_btf *btf;
	const char *name;
	const struct btf_type *found;
};

static int st_btf_match_aggregate(const struct btf_type *t, u32 id, void *arg)
{
	struct st_btf_by_name *q = arg;
	u32 kind = BTF_INFO_KIND(t->info);

	if ((kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION) ||
	    strcmp(st_btf_str(q->btf, t->name_off), q->name))
		return 0;
	q->found = t;
	return 1;
}

static const struct btf_type *st_btf_aggregate(const struct st_btf *btf,
					       const char *name)
{
	struct st_btf_by_name q = { .btf = btf, .name = name };

	st_btf_walk(btf, st_btf_match_aggregate, &q);
	return q.found;
}

/*
 * Looks for @member in @t and, through anonymous struct and union
 * members, in what they contain.  Bit fields are refused.
 */
static int st_btf_find_member(const struct st_btf *btf,
			      const struct btf_type *t, const char *member,
			      u32 base_bits, int depth, u32 *bits, u32 *type)
{
	const struct btf_member *m = (const void *)(t + 1);
	bool kflag = BTF_INFO_KFLAG(t->info);
	u32 i, vlen = BTF_INFO_VLEN(t->info);

	if (depth > ST_BTF_MAX_DEPTH)
		return -ELOOP;
	for (i = 0; i < vlen; i++, m++) {
		u32 off = kflag ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset;
		const char *name = st_btf_str(btf, m->name_off);
		const struct btf_type *inner;
		u32 kind;

		if (*name) {
			if (strcmp(name, member))
				continue;
			if ((kflag && BTF_MEMBER_BITFIELD_SIZE(m->offset)) ||
			    off % 8)
				return -EINVAL;
			*bits = base_bits + off;
			*type = m->type;
			return 0;
		}
		inner = st_btf_by_id(btf, m->type);
		if (!inner)
			return -EINVAL;
		kind = BTF_INFO_KIND(inner->info);
		if ((kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION) &&
		    !st_btf_find_member(btf, inner, member, base_bits + off,
					depth + 1, bits, type))
			return 0;
	}
	return -ENOENT;
}

int st_btf_member(const struct st_btf *btf, const char *type,
		  const char *member, u32 *offset, u32 *size)
{
	const struct btf_type *t = st_btf_aggregate(btf, type);
	u32 bits, member_type;
	int ret;

	if (!t)
		return -ENOENT;
	ret = st_btf_find_member(btf, t, member, 0, 0, &bits, &member_type);
	if (ret)
		return ret;
	*offset = bits / 8;
	return size ? st_btf_sizeof(btf, member_type, size) : 0;
}

int st_btf_type_size(const struct st_btf *btf, const char *type, u32 *size)
{
	const struct btf_type *t = st_btf_aggregate(btf, type);

	if (!t)
		return -ENOENT;
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
			if (!strcmp(st_btf_str(q->btf, e->name_off), q->name)) {
				q->val = e->val;
				return 1;
			}
		}
	} else if (BTF_INFO_KIND(t->info) == BTF_KIND_ENUM64) {
		const struct btf_enum64 *e = (const void *)(t + 1);

		for (i = 0; i < vlen; i++, e++) {
			if (!strcmp(st_btf_str(q->btf, e->name_off), q->name)) {
				q->val = (s64)(((u64)e->val_hi32 << 32) |
					       e->val_lo32);
				return 1;
			}
		}
	}
	return 0;
}

int st_btf_enum_value(const struct st_btf *btf, const char *name, s64 *val)
{
	struct st_btf_enumerator q = { .btf = btf, .name = name };
	int ret = st_btf_walk(btf, st_btf_match_enumerator, &q);

	if (ret < 0)
		return ret;
	if (!ret)
		return -ENOENT;
	*val = q.val;
	return 0;
}
