/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-counter: reading a record file (record.h) and replaying it, for
 * report (its table, trees and exports) and for record itself (the
 * symbols a portable file carries). Every item is checked before it is
 * read: a file is any bytes.
 */
#ifndef PC_READER_H
#define PC_READER_H

#include <stddef.h>
#include <stdint.h>

#include "pc.h"

struct pc_rfile_event {
	const char *name;
	uint64_t period;	/* -c's, every sample's; 0 under -F */
	uint32_t freq;		/* -F's */
	uint64_t config;	/* event_config as opened */
};

/* Where an item is, and its time (0 for one that has none). */
struct pc_rfile_at {
	uint64_t time;
	size_t off;
};

struct pc_rfile {
	const char *in;		/* its path, for messages */
	char *buf;
	size_t len;
	uint32_t version;
	int swap;		/* of the other byte order */
	struct pc_rfile_event *ev;
	uint32_t nr_ev;
	const char *cmd;
	int has_chains;
	int has_ksyms;		/* the kernel's symbols, loaded */
	int other_boot;		/* HOST says another boot recorded it */
	char machine[24];	/* HOST's uname -m, or "" */
	uint32_t switch_event;	/* the first SWITCH item's event, or -1 */
	struct pc_rfile_at *at;	/* version 3 on: the items by time */
	size_t nr_at, at_cap;
};

uint32_t pc_rfile_u32(const struct pc_rfile *f, uint32_t v);
uint64_t pc_rfile_u64(const struct pc_rfile *f, uint64_t v);
void pc_rfile_open(struct pc_rfile *f, const char *path, int force,
		   int symbols);
void pc_rfile_open_fd(struct pc_rfile *f, int fd, const char *path);
void pc_rfile_close(struct pc_rfile *f);
size_t pc_rfile_fixed(const struct pc_rfile *f, uint32_t type);
uint64_t pc_rfile_time(const struct pc_rfile *f, uint32_t type,
		       const void *body);
int pc_rfile_item(struct pc_rfile *f, size_t i, size_t *off, uint32_t *type,
		  const void **body, size_t *blen);

/* A sample as a replay gives it, in host order. */
struct pc_replay_sample {
	uint32_t pid, tid;
	int32_t cpu;		/* a CPU-wide counter's, else -1 */
	uint64_t ip, time;
	uint64_t weight;	/* the events it stands for; 1 before v4 */
	const uint64_t *chain;	/* its chain's words, or NULL */
	uint32_t nr, flags;	/* how many, PERF_COUNTER_CHAIN_* */
	int bad_chain;		/* a chain longer than its item */
	const struct pc_maps *maps;	/* its task's mappings now */
	struct pc_task *task;
	size_t off;		/* the item's place in the file */
};

/*
 * A switch of a task of the event's, as a replay gives it: a switch-in,
 * or a switch-out with why and (record --off-cpu) where the task was:
 * its chain, and words of its user stack (@stack_le: in little-endian
 * memory order, for a 32-bit task's halves).
 */
#define PC_STACK_WORDS_MAX	64
struct pc_replay_switch {
	uint32_t pid, tid;
	int32_t cpu;
	uint64_t time;
	int out, preempted;
	const uint64_t *chain;	/* or NULL */
	uint32_t nr, flags;
	uint64_t stack[PC_STACK_WORDS_MAX];
	uint32_t stack_words;
	int stack_le;
	const struct pc_maps *maps;
	struct pc_task *task;
};

/*
 * One event's replay: every item in time order, the tasks' mappings
 * and names as they become, each sample of @event given to @sample.
 * @changed is told when a side-band item changed the tasks.
 */
struct pc_replay {
	struct pc_rfile *f;
	uint32_t event;
	void (*sample)(void *ctx, const struct pc_replay_sample *s);
	void (*changed)(void *ctx);
	/* and each of its SWITCH items, if set */
	void (*switched)(void *ctx, const struct pc_replay_switch *s);
	/* and each EXIT item, if set */
	void (*exited)(void *ctx, uint32_t pid, uint32_t tid);
	void *ctx;

	struct pc_tasks *tasks;
	struct pc_maps v2_maps;	/* a version 2 file's, for every task */
	uint64_t lost, lost_sideband, bad;
	uint64_t *words;
	size_t words_cap;
};

void pc_replay_run(struct pc_replay *p);
void pc_replay_done(struct pc_replay *p);

#endif /* PC_READER_H */
