// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter record: the end of a portable record file (record.h).
 * The file written is replayed as report will replay it (reader.c),
 * each sample and each address of its chain named as report's exports
 * name them (profile.c) while symbols.c marks the symbols used; then
 * come a HOST item (this boot), a DSO item for each file with a marked
 * symbol and a KSYMS item for the kernel's, when /proc/kallsyms gave
 * their addresses.
 */
#include <string.h>
#include <sys/utsname.h>

#include "pc.h"
#include "profile.h"
#include "reader.h"
#include "record.h"

static void write_item(void *ctx, uint32_t type, const void *body,
		       size_t len)
{
	static const char zero[8];
	struct pc_item it = { type, (uint32_t)((sizeof(it) + len + 7) & ~7) };
	FILE *f = ctx;

	fwrite(&it, sizeof(it), 1, f);
	fwrite(body, len, 1, f);
	fwrite(zero, it.size - sizeof(it) - len, 1, f);
}

static void mark_sample(void *ctx, const struct pc_replay_sample *s)
{
	pc_prof_add(ctx, s, "", 0);
}

/**
 * pc_portable_append() - end the record file @path with its symbols
 * @path:	the file, all its items written and flushed
 * @f:		open on it for writing, at its end
 *
 * Return: how many items of symbols were written (a file's, the
 * kernel's).
 */
int pc_portable_append(const char *path, FILE *f)
{
	struct pc_item_host host;
	struct pc_replay p;
	struct pc_rfile rf;
	struct utsname u;
	char id[64] = "";

	memset(&host, 0, sizeof(host));
	if (pc_read_file("/proc/sys/kernel/random/boot_id", id,
			 sizeof(id)) >= 0)
		id[strcspn(id, "\n")] = '\0';
	/* NUL-padded; the host's is cut where it is longer */
	snprintf(host.boot_id, sizeof(host.boot_id), "%.39s", id);
	if (!uname(&u)) {
		snprintf(host.release, sizeof(host.release), "%.63s",
			 u.release);
		snprintf(host.machine, sizeof(host.machine), "%.23s",
			 u.machine);
	}
	write_item(f, PC_ITEM_HOST, &host, sizeof(host));
	if (fflush(f))
		return 0;

	pc_rfile_open(&rf, path, 1, 0);
	memset(&p, 0, sizeof(p));
	p.f = &rf;
	p.sample = mark_sample;
	p.ctx = pc_prof_new(&rf);
	pc_symbols_mark(1);
	for (p.event = 0; p.event < rf.nr_ev; p.event++) {
		pc_replay_run(&p);
		pc_replay_done(&p);
	}
	pc_symbols_mark(0);
	pc_prof_free(p.ctx);
	pc_rfile_close(&rf);
	return pc_symbols_write(write_item, f);
}
