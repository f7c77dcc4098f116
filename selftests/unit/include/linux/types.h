/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' <linux/types.h>, as tools/include has one: the uapi
 * header's __u32 & co. (the system's <linux/btf.h> includes this file for
 * them), then the kernel's u8..s64 as stdint's types, bool and size_t.
 */
#ifndef ST_UNIT_LINUX_TYPES_H
#define ST_UNIT_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include_next <linux/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#endif /* ST_UNIT_LINUX_TYPES_H */
