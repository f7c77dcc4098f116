// SPDX-License-Identifier: GPL-2.0
/*
 * The knobs of knobs.h, parsed and formatted.
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "policy/knob.h"
#include "policy/cache_level.h"
#include "policy/eevdf.h"
#include "policy/ratelimit.h"

/* Indexed by enum st_cache_level. */
static const char *const st_level_names[ST_NR_LEVELS] = {
	"llc", "l2", "smt", "auto", "none",
};

/* Indexed by enum st_rl_mode. */
static const char *const st_rl_mode_names[ST_NR_RL_MODES] = {
	"fixed", "adaptive",
};

/* Indexed by enum st_eevdf_slice_mode. */
static const char *const st_slice_names[ST_NR_SLICE_MODES] = {
	"stock", "fixed", "scaled",
};

/* knobs.h's stock column: has_stock, and stock 0 for ST_NO_STOCK */
#define ST_KNOB_STOCK(_stock)						\
	.has_stock = (_stock) != ST_NO_STOCK,				\
	.stock = (_stock) != ST_NO_STOCK ? (_stock) : 0

const struct st_knob_desc st_knobs[ST_NR_KNOBS] = {
#define ST_KNOB(_id, _name, _feature, _min, _max, _def, _stock, ...)	\
	[ST_KNOB_##_id] = {						\
		.name = #_name, .min = (_min), .max = (_max),		\
		.def = (_def), ST_KNOB_STOCK(_stock),			\
		.feature = ST_FEAT_##_feature,				\
	},
#define ST_KNOB_CHOICE(_id, _name, _feature, _choices, _def, _stock, ...) \
	[ST_KNOB_##_id] = {						\
		.name = #_name, .min = 0,				\
		.max = ARRAY_SIZE(_choices) - 1, .def = (_def),		\
		ST_KNOB_STOCK(_stock), .feature = ST_FEAT_##_feature,	\
		.choices = (_choices),					\
		.nr_choices = ARRAY_SIZE(_choices),			\
	},
#include "knobs.h"
};

/**
 * st_knob_lookup() - The knob of a name.
 * @name: the knob's name, as knobs.h spells it
 *
 * Return: the knob's enum st_knob_id, or -EINVAL for no such knob.
 */
int st_knob_lookup(const char *name)
{
	int i;

	for (i = 0; i < ST_NR_KNOBS; i++)
		if (!strcmp(st_knobs[i].name, name))
			return i;
	return -EINVAL;
}

/**
 * st_knob_parse() - Parse what is written to a knob.
 * @d: the knob
 * @buf: the bytes written, not NUL-terminated
 * @len: their number
 * @val: set to the value (for a knob of names, the name's index)
 *
 * Accepts exactly what Documentation/ABI/testing/sysfs-kernel-sched_tune
 * documents: a decimal number (or one of the knob's names), optionally
 * followed by a single newline.
 *
 * Return: 0; -EINVAL for anything else, signs, blanks and hex included;
 * -ERANGE for a number outside the knob's range, or one that overflows
 * u64.
 */
int st_knob_parse(const struct st_knob_desc *d, const char *buf, size_t len,
		  u64 *val)
{
	u64 v = 0;
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return -EINVAL;

	if (d->choices) {
		for (i = 0; i < d->nr_choices; i++) {
			if (strlen(d->choices[i]) == len &&
			    !memcmp(d->choices[i], buf, len)) {
				*val = i;
				return 0;
			}
		}
		return -EINVAL;
	}

	for (i = 0; i < len; i++) {
		unsigned int digit;

		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		digit = buf[i] - '0';
		if (v > (U64_MAX - digit) / 10) {
			/* keep scanning: "99999999999999999999x" is -EINVAL */
			for (; i < len; i++)
				if (buf[i] < '0' || buf[i] > '9')
					return -EINVAL;
			return -ERANGE;
		}
		v = v * 10 + digit;
	}
	if (v < d->min || v > d->max)
		return -ERANGE;
	*val = v;
	return 0;
}

/**
 * st_knob_format() - A knob's value as its file shows it, a line.
 * @d: the knob
 * @val: its value
 * @buf: where the line goes
 * @size: the room in @buf
 *
 * A number in decimal; for a knob of names, every name, the one of @val
 * in brackets.
 *
 * Return: the number of bytes written to @buf.
 */
int st_knob_format(const struct st_knob_desc *d, u64 val, char *buf,
		   size_t size)
{
	size_t n = 0;
	unsigned int i;

	if (!d->choices)
		return scnprintf(buf, size, "%llu\n", (unsigned long long)val);

	for (i = 0; i < d->nr_choices && n < size; i++)
		n += scnprintf(buf + n, size - n, i == val ? "%s[%s]" : "%s%s",
			       i ? " " : "", d->choices[i]);
	if (n < size)
		n += scnprintf(buf + n, size - n, "\n");
	return n;
}
