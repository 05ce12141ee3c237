// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: does a function set up a frame pointer? The kernel
 * walks a user call chain through the frame pointers; a function built
 * without one (gcc's -fomit-frame-pointer, the default at -O2) leaves
 * its caller out of every chain that passes through it, or puts a
 * stranger in. On x86 the first bytes of the function tell: an
 * optional endbr (CET), then push %ebp/%rbp and mov %esp,%ebp or
 * mov %rsp,%rbp (either encoding of the mov). PowerPC needs no check:
 * its back chain is the ABI, kept by every function that has a frame.
 */
#include <elf.h>
#include <string.h>

#include "pc.h"

static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
static const unsigned char endbr32[] = { 0xf3, 0x0f, 0x1e, 0xfb };

/* push %rbp; mov %rsp,%rbp (89 /r or 8b /r) */
static const unsigned char fp64[][4] = {
	{ 0x55, 0x48, 0x89, 0xe5 },
	{ 0x55, 0x48, 0x8b, 0xec },
};

/* push %ebp; mov %esp,%ebp */
static const unsigned char fp32[][3] = {
	{ 0x55, 0x89, 0xe5 },
	{ 0x55, 0x8b, 0xec },
};

static int starts(const unsigned char *p, size_t len, const void *with,
		  size_t n)
{
	return len >= n && !memcmp(p, with, n);
}

/**
 * pc_prologue_fp() - whether a function's first bytes set up a frame
 * @machine:	the ELF file's e_machine
 * @p:		the function's first bytes, as the file holds them
 * @len:	how many there are (16 are plenty)
 *
 * Return: 1 if they push and set the frame pointer, 0 if not, -1 when
 * the machine is not x86 (nothing to check) or the bytes are too few.
 */
int pc_prologue_fp(unsigned int machine, const unsigned char *p, size_t len)
{
	size_t i;

	switch (machine) {
	case EM_X86_64:
		if (starts(p, len, endbr64, sizeof(endbr64))) {
			p += sizeof(endbr64);
			len -= sizeof(endbr64);
		}
		if (len < sizeof(fp64[0]))
			return -1;
		for (i = 0; i < ARRAY_SIZE(fp64); i++)
			if (starts(p, len, fp64[i], sizeof(fp64[i])))
				return 1;
		return 0;
	case EM_386:
		if (starts(p, len, endbr32, sizeof(endbr32))) {
			p += sizeof(endbr32);
			len -= sizeof(endbr32);
		}
		if (len < sizeof(fp32[0]))
			return -1;
		for (i = 0; i < ARRAY_SIZE(fp32); i++)
			if (starts(p, len, fp32[i], sizeof(fp32[i])))
				return 1;
		return 0;
	default:
		return -1;
	}
}
