// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter record: the end of a portable record file (record.h).
 * The file written is replayed as report will replay it (reader.c),
 * and each sample's address and each address of its chain is named as
 * report names them (pc_chain_walk(), pc_resolve()) while symbols.c
 * marks the symbols used; then come a HOST item (this boot), a DSO item
 * for each file with a marked symbol and a KSYMS item for the kernel's,
 * when /proc/kallsyms gave their addresses. They are made in memory and
 * written at once: a failed write is taken back, and the recording
 * stays whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "pc.h"
#include "reader.h"
#include "record.h"

/* The items being made. */
struct tail {
	char *p;
	size_t len, cap;
};

static void put_item(void *ctx, uint32_t type, const void *body, size_t len)
{
	struct tail *t = ctx;
	struct pc_item it = { type, (uint32_t)((sizeof(it) + len + 7) & ~7) };

	t->p = pc_grow(t->p, &t->cap, t->len + it.size, 1);
	memcpy(t->p + t->len, &it, sizeof(it));
	memcpy(t->p + t->len + sizeof(it), body, len);
	memset(t->p + t->len + sizeof(it) + len, 0,
	       it.size - sizeof(it) - len);
	t->len += it.size;
}

static void mark_addr(void *ctx, uint64_t addr, int ret)
{
	const struct pc_replay_sample *s = ctx;
	const char *dso;
	int kernel;

	pc_resolve(s->maps, s->pid, ret ? addr - 1 : addr, &dso, &kernel);
}

static void mark_sample(void *ctx, const struct pc_replay_sample *s)
{
	(void)ctx;
	pc_chain_walk(s->ip, s->chain, s->chain ? s->nr : 0, mark_addr,
		      (void *)s);
}

/* A stack word in a mapping of the task's, as a return address */
static void mark_mapped(const struct pc_replay_sample *s, uint64_t v)
{
	if (v > 1 && pc_maps_find(s->maps, s->pid, v - 1))
		mark_addr((void *)s, v, 1);
}

/*
 * A switch-out's chain, and the words of its user stack that may be
 * return addresses (of 8 or 4 bytes): report --wall looks for the
 * callers of frameless functions among them (offcpu.c).
 */
static void mark_switch(void *ctx, const struct pc_replay_switch *w)
{
	struct pc_replay_sample s = {
		.pid = w->pid, .tid = w->tid, .maps = w->maps,
	};
	uint32_t i;

	(void)ctx;
	if (!w->chain)
		return;
	for (i = 0; i < w->nr; i++)
		if (w->chain[i] < (uint64_t)PERF_CONTEXT_MAX) {
			s.ip = w->chain[i];
			break;
		}
	pc_chain_walk(s.ip, w->chain, w->nr, mark_addr, &s);
	for (i = 0; i < w->stack_words; i++) {
		mark_mapped(&s, w->stack[i]);
		mark_mapped(&s, w->stack[i] & 0xffffffffULL);
		mark_mapped(&s, w->stack[i] >> 32);
	}
}

static void put_host(struct tail *t)
{
	struct pc_item_host host;
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
	put_item(t, PC_ITEM_HOST, &host, sizeof(host));
}

/**
 * pc_portable_append() - end the record file with its symbols
 * @path:	its name, for messages
 * @f:		the file, open for reading and writing, every item written
 *
 * Return: how many items of symbols were written (a file's, the
 * kernel's), or -1 when they could not be (said; the file is as it was).
 */
int pc_portable_append(const char *path, FILE *f)
{
	struct tail t = { 0 };
	struct pc_replay p;
	struct pc_rfile rf;
	off_t before;
	int n;

	if (fflush(f))
		return -1;
	before = lseek(fileno(f), 0, SEEK_END);
	if (before < 0)
		return -1;
	pc_rfile_open_fd(&rf, fileno(f), path);
	memset(&p, 0, sizeof(p));
	p.f = &rf;
	p.sample = mark_sample;
	p.switched = mark_switch;
	pc_symbols_mark(1);
	for (p.event = 0; p.event < rf.nr_ev; p.event++) {
		pc_replay_run(&p);
		pc_replay_done(&p);
	}
	pc_symbols_mark(0);
	pc_rfile_close(&rf);

	put_host(&t);
	n = pc_symbols_write(put_item, &t);
	if (fseeko(f, 0, SEEK_END) || fwrite(t.p, t.len, 1, f) != 1 ||
	    fflush(f)) {
		pc_warn("%s: its symbols could not be written (%s): report it where it was recorded",
			path, strerror(errno));
		clearerr(f);
		if (ftruncate(fileno(f), before))
			pc_warn("%s: %s", path, strerror(errno));
		n = -1;
	}
	free(t.p);
	return n;
}
