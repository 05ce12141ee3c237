// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: does a function set up a frame pointer? The kernel
 * walks a user call chain through the frame pointers; a function built
 * without one (gcc's -fomit-frame-pointer, the default at -O2) leaves
 * its caller out of every chain that passes through it, or puts a
 * stranger in. On x86 the first bytes of the function tell: an
 * optional endbr (CET), then push %ebp/%rbp and mov %esp,%ebp or
 * mov %rsp,%rbp (either encoding of the mov), which gcc -O2 may
 * schedule after a few instructions that touch neither: the mov is
 * looked for in the first PC_PROLOGUE_BYTES after the push (its bytes
 * inside another instruction would pass a function without a frame:
 * the check warns, it proves nothing). PowerPC needs no check:
 * its back chain is the ABI, kept by every function that has a frame.
 */
#include <elf.h>
#include <string.h>

#include "pc.h"

/* How far after the push the mov may be. */
#define PC_PROLOGUE_BYTES	32

static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
static const unsigned char endbr32[] = { 0xf3, 0x0f, 0x1e, 0xfb };

/* after push %rbp (0x55): mov %rsp,%rbp (89 /r or 8b /r) */
static const unsigned char mov64[][3] = {
	{ 0x48, 0x89, 0xe5 },
	{ 0x48, 0x8b, 0xec },
};

/* after push %ebp: mov %esp,%ebp */
static const unsigned char mov32[][2] = {
	{ 0x89, 0xe5 },
	{ 0x8b, 0xec },
};

static int starts(const unsigned char *p, size_t len, const void *with,
		  size_t n)
{
	return len >= n && !memcmp(p, with, n);
}

/*
 * push %Xbp first, then one of @nr movs of @n bytes within
 * PC_PROLOGUE_BYTES: 1, 0, or -1 when the bytes are too few to tell
 * (unless they are @whole: the whole function).
 */
static int push_then_mov(const unsigned char *p, size_t len,
			 const unsigned char *mov, size_t nr, size_t n,
			 int whole)
{
	size_t at, i;

	if (!len)
		return whole ? 0 : -1;
	if (p[0] != 0x55)
		return 0;
	for (at = 1; at + n <= len && at <= PC_PROLOGUE_BYTES; at++)
		for (i = 0; i < nr; i++)
			if (!memcmp(p + at, mov + i * n, n))
				return 1;
	return whole || len > PC_PROLOGUE_BYTES + n ? 0 : -1;
}

/**
 * pc_prologue_fp() - whether a function's first bytes set up a frame
 * @machine:	the ELF file's e_machine
 * @p:		the function's first bytes, as the file holds them
 * @len:	how many there are (PC_PROLOGUE_BYTES and a few: 40)
 * @whole:	they are all of the function's
 *
 * Return: 1 if they push and set the frame pointer, 0 if not, -1 when
 * the machine is not x86 (nothing to check) or the bytes are too few.
 */
int pc_prologue_fp(unsigned int machine, const unsigned char *p, size_t len,
		   int whole)
{
	switch (machine) {
	case EM_X86_64:
		if (starts(p, len, endbr64, sizeof(endbr64))) {
			p += sizeof(endbr64);
			len -= sizeof(endbr64);
		}
		return push_then_mov(p, len, mov64[0], ARRAY_SIZE(mov64),
				     sizeof(mov64[0]), whole);
	case EM_386:
		if (starts(p, len, endbr32, sizeof(endbr32))) {
			p += sizeof(endbr32);
			len -= sizeof(endbr32);
		}
		return push_then_mov(p, len, mov32[0], ARRAY_SIZE(mov32),
				     sizeof(mov32[0]), whole);
	default:
		return -1;
	}
}
