// SPDX-License-Identifier: GPL-2.0
/*
 * st_write [-e] FILE STRING
 *
 * Writes exactly the bytes of STRING to FILE with a single write(2) and
 * prints OK, or the errno name (EINVAL, ERANGE, ...) of the open or write
 * that failed.  Busybox echo cannot report errno, and it adds a newline.
 * -e turns the escapes \n, \t and \\ into their bytes, so a trailing
 * newline is only written when the test asks for one.
 * Exit status: 0 on OK, 1 on an errno, 2 on usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "st_sched.h"

static const struct { int err; const char *name; } names[] = {
	{ EINVAL, "EINVAL" }, { ERANGE, "ERANGE" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	{ EACCES, "EACCES" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" },
	{ EBUSY, "EBUSY" }, { EIO, "EIO" }, { ENODEV, "ENODEV" },
	{ ENOSPC, "ENOSPC" }, { EFAULT, "EFAULT" }, { ENOMEM, "ENOMEM" },
	{ EEXIST, "EEXIST" }, { EAGAIN, "EAGAIN" }, { ENOSYS, "ENOSYS" },
	{ E2BIG, "E2BIG" }, { EOVERFLOW, "EOVERFLOW" }, { EISDIR, "EISDIR" },
	{ ENXIO, "ENXIO" }, { EROFS, "EROFS" }, { ENOTDIR, "ENOTDIR" },
};

static void print_errno(int err)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (names[i].err == err) {
			puts(names[i].name);
			return;
		}
	}
	printf("E%d\n", err);
}

static size_t unescape(char *s)
{
	char *out = s;

	for (char *in = s; *in; in++) {
		if (*in == '\\' && in[1]) {
			in++;
			*out++ = *in == 'n' ? '\n' : *in == 't' ? '\t' : *in;
		} else {
			*out++ = *in;
		}
	}
	*out = '\0';
	return (size_t)(out - s);
}

int main(int argc, char **argv)
{
	int escapes = 0, fd;
	size_t len;
	ssize_t ret;

	if (argc > 1 && !strcmp(argv[1], "-e")) {
		escapes = 1;
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: st_write [-e] FILE STRING\n");
		return 2;
	}
	len = escapes ? unescape(argv[2]) : strlen(argv[2]);
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		print_errno(errno);
		return 1;
	}
	ret = write(fd, argv[2], len);
	if (ret < 0) {
		print_errno(errno);
		close(fd);
		return 1;
	}
	close(fd);
	if ((size_t)ret != len) {
		printf("SHORT %zd/%zu\n", ret, len);
		return 1;
	}
	puts("OK");
	return 0;
}
