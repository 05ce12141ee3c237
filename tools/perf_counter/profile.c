// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter report --format: the samples replayed into a struct
 * pc_profile, its distinct stacks per thread and event. A sample's
 * chain is walked as report's trees walk it (pc_chain_walk()), a
 * return address named one byte back, in its call. Frames are
 * functions; a file's
 * addresses without a name are one frame, as in report's table.
 * Threads are told apart by pid, tid and the command they had.
 */
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "reader.h"

/* An open hash of indices + 1 (0 empty), its capacity a power of two. */
struct prof_hash {
	uint32_t *slot;
	size_t cap, used;
};

struct prof_stack {
	size_t at;		/* its frames in the pool */
	uint32_t nr, thread, event;
	uint64_t samples, weight;
	uint64_t hash;
};

struct pc_prof_builder {
	struct pc_profile p;
	size_t frame_cap, thread_cap;
	struct prof_hash frames, threads, stacks;
	struct prof_stack *st;
	size_t st_cap;
	uint32_t nr_st;
	uint32_t *pool;		/* every stack's frames, one after another */
	size_t pool_len, pool_cap;
	uint32_t *fr;		/* this sample's, innermost first */
	size_t fr_cap;
	int have_time;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static uint64_t str_hash(uint64_t h, const char *s)
{
	while (s && *s)
		h = mix(h, (unsigned char)*s++);
	return h;
}

/*
 * The slot for a key of hash @h: one whose index @eq says matches, or
 * the empty one where it goes. The table is never more than half full.
 */
static uint32_t *find_slot(struct prof_hash *t, uint64_t h,
			   int (*eq)(const void *ctx, uint32_t i),
			   const void *ctx)
{
	size_t mask = t->cap - 1, i = h & mask;

	while (t->slot[i] && !eq(ctx, t->slot[i] - 1))
		i = (i + 1) & mask;
	return &t->slot[i];
}

/* Make room for one more; @rehash gives an index's hash. */
static void reserve(struct prof_hash *t,
		    uint64_t (*rehash)(const void *ctx, uint32_t i),
		    const void *ctx)
{
	uint32_t *old = t->slot;
	size_t old_cap = t->cap, i;

	if ((t->used + 1) * 2 <= t->cap)
		return;
	t->cap = t->cap ? t->cap * 2 : 256;
	t->slot = pc_zalloc(t->cap * sizeof(*t->slot));
	for (i = 0; i < old_cap; i++) {
		size_t k;

		if (!old[i])
			continue;
		k = rehash(ctx, old[i] - 1) & (t->cap - 1);
		while (t->slot[k])
			k = (k + 1) & (t->cap - 1);
		t->slot[k] = old[i];
	}
	free(old);
}

/* What a lookup compares with: the builder and the key sought. */
struct prof_key {
	const struct pc_prof_builder *b;
	const void *key;
};

/* Frames: by name and file; a file's nameless addresses are one. */
static uint64_t frame_hash(const struct pc_frame *f)
{
	uint64_t h = str_hash(mix(0, f->kernel), f->name);

	return mix(str_hash(h, f->dso), !f->name);
}

static int frame_eq(const void *ctx, uint32_t i)
{
	const struct prof_key *k = ctx;
	const struct pc_frame *x = &k->b->p.frame[i], *y = k->key;

	return x->kernel == y->kernel && !x->name == !y->name &&
	       (!x->name || !strcmp(x->name, y->name)) &&
	       !strcmp(x->dso, y->dso);
}

static uint64_t frame_rehash(const void *ctx, uint32_t i)
{
	const struct pc_prof_builder *b = ctx;

	return frame_hash(&b->p.frame[i]);
}

static uint32_t intern_frame(struct pc_prof_builder *b,
			     const struct pc_frame *f)
{
	struct prof_key k = { b, f };
	uint32_t *slot;

	reserve(&b->frames, frame_rehash, b);
	slot = find_slot(&b->frames, frame_hash(f), frame_eq, &k);
	if (!*slot) {
		b->p.frame = pc_grow(b->p.frame, &b->frame_cap,
				     b->p.nr_frame + 1, sizeof(*b->p.frame));
		b->p.frame[b->p.nr_frame] = *f;
		*slot = ++b->p.nr_frame;
		b->frames.used++;
	}
	return *slot - 1;
}

/* Threads: by pid, tid and command. */
static uint64_t thread_hash(const struct pc_thread *t)
{
	return str_hash(mix(mix(1, t->pid), t->tid), t->comm);
}

static int thread_eq(const void *ctx, uint32_t i)
{
	const struct prof_key *k = ctx;
	const struct pc_thread *x = &k->b->p.thread[i], *y = k->key;

	return x->pid == y->pid && x->tid == y->tid &&
	       !strcmp(x->comm, y->comm);
}

static uint64_t thread_rehash(const void *ctx, uint32_t i)
{
	const struct pc_prof_builder *b = ctx;

	return thread_hash(&b->p.thread[i]);
}

static uint32_t intern_thread(struct pc_prof_builder *b, uint32_t pid,
			      uint32_t tid, const char *comm)
{
	struct pc_thread t = { pid, tid, comm };
	struct prof_key k = { b, &t };
	uint32_t *slot;

	reserve(&b->threads, thread_rehash, b);
	slot = find_slot(&b->threads, thread_hash(&t), thread_eq, &k);
	if (!*slot) {
		b->p.thread = pc_grow(b->p.thread, &b->thread_cap,
				      b->p.nr_thread + 1,
				      sizeof(*b->p.thread));
		/* the replay's names end with it: a copy */
		t.comm = pc_strdup(comm);
		b->p.thread[b->p.nr_thread] = t;
		*slot = ++b->p.nr_thread;
		b->threads.used++;
	}
	return *slot - 1;
}

/* Stacks: by thread, event and frames (b->fr, innermost first). */
struct stack_key {
	uint32_t thread, event, nr;
	const uint32_t *fr;
	uint64_t hash;
};

static int stack_eq(const void *ctx, uint32_t i)
{
	const struct prof_key *k = ctx;
	const struct prof_stack *x = &k->b->st[i];
	const struct stack_key *y = k->key;
	uint32_t n;

	if (x->hash != y->hash || x->nr != y->nr || x->thread != y->thread ||
	    x->event != y->event)
		return 0;
	/* the pool holds them outermost first */
	for (n = 0; n < y->nr; n++)
		if (k->b->pool[x->at + n] != y->fr[y->nr - 1 - n])
			return 0;
	return 1;
}

static uint64_t stack_rehash(const void *ctx, uint32_t i)
{
	const struct pc_prof_builder *b = ctx;

	return b->st[i].hash;
}

static uint32_t add_stack(struct pc_prof_builder *b, uint32_t thread,
			  uint32_t event, uint32_t nr, uint64_t weight)
{
	struct stack_key key = { thread, event, nr, b->fr, 0 };
	struct prof_key k = { b, &key };
	struct prof_stack *st;
	uint32_t *slot, n;
	uint64_t h = mix(mix(mix(2, thread), event), nr);

	for (n = 0; n < nr; n++)
		h = mix(h, b->fr[n]);
	key.hash = h;
	reserve(&b->stacks, stack_rehash, b);
	slot = find_slot(&b->stacks, h, stack_eq, &k);
	if (!*slot) {
		b->st = pc_grow(b->st, &b->st_cap, b->nr_st + 1,
				sizeof(*b->st));
		st = &b->st[b->nr_st];
		memset(st, 0, sizeof(*st));
		st->at = b->pool_len;
		st->nr = nr;
		st->thread = thread;
		st->event = event;
		st->hash = h;
		b->pool = pc_grow(b->pool, &b->pool_cap, b->pool_len + nr,
				  sizeof(*b->pool));
		for (n = 0; n < nr; n++)
			b->pool[b->pool_len + n] = b->fr[nr - 1 - n];
		b->pool_len += nr;
		*slot = ++b->nr_st;
		b->stacks.used++;
	}
	st = &b->st[*slot - 1];
	st->samples++;
	st->weight += weight;
	return *slot - 1;
}

/* pc_chain_walk()'s frames into b->fr */
struct prof_walk {
	struct pc_prof_builder *b;
	const struct pc_replay_sample *s;
	uint32_t n;
};

static void push(void *ctx, uint64_t addr, int ret)
{
	struct prof_walk *w = ctx;
	struct pc_frame f = { 0 };

	pc_resolve_frame(w->s->maps, w->s->pid, ret ? addr - 1 : addr, &f);
	if (!f.name)
		f.addr = addr;
	w->b->fr = pc_grow(w->b->fr, &w->b->fr_cap, w->n + 1,
			   sizeof(*w->b->fr));
	w->b->fr[w->n++] = intern_frame(w->b, &f);
}

/**
 * pc_prof_new() - a profile to build from a file's replays
 * @f:		the file: its events and command
 *
 * Return: the builder; pc_prof_add() each sample, then pc_prof_get().
 */
struct pc_prof_builder *pc_prof_new(const struct pc_rfile *f)
{
	struct pc_prof_builder *b = pc_zalloc(sizeof(*b));
	uint32_t i;

	b->p.command = f->cmd;
	b->p.nr_event = f->nr_ev;
	b->p.event = pc_zalloc(f->nr_ev * sizeof(*b->p.event));
	for (i = 0; i < f->nr_ev; i++) {
		uint64_t c = f->ev[i].config;
		int clock = PERF_COUNTER_TYPE(c) == PERF_TYPE_SOFTWARE &&
			    (PERF_COUNTER_ID(c) == PERF_COUNT_CPU_CLOCK ||
			     PERF_COUNTER_ID(c) == PERF_COUNT_TASK_CLOCK);

		b->p.event[i].name = f->ev[i].name;
		/* before version 4 every sample weighs 1 (reader.c) */
		b->p.event[i].unit = f->version < 4 ? "samples" :
			clock ? "nanoseconds" : "events";
	}
	return b;
}

/**
 * pc_prof_add() - add a replayed sample to the profile
 * @b:		the builder
 * @s:		the sample, with its chain if it has one
 * @comm:	its thread's command then
 * @event:	its event
 *
 * Return: the index of its stack, for pc_prof_reweigh().
 */
uint32_t pc_prof_add(struct pc_prof_builder *b,
		     const struct pc_replay_sample *s, const char *comm,
		     uint32_t event)
{
	struct prof_walk w = { b, s, 0 };
	uint32_t at;

	pc_chain_walk(s->ip, s->chain, s->chain ? s->nr : 0, push, &w);
	at = add_stack(b, intern_thread(b, s->pid, s->tid, comm), event, w.n,
		       s->weight);
	if (!b->have_time || s->time < b->p.start_ns)
		b->p.start_ns = s->time;
	if (!b->have_time || s->time > b->p.end_ns)
		b->p.end_ns = s->time;
	b->have_time = 1;
	return at;
}

/**
 * pc_prof_reweigh() - a sample added stands for @weight, not @was
 * @b:		the builder
 * @stack:	its stack, as pc_prof_add() returned it
 * @was:	the weight it was added with
 * @weight:	the weight it stands for
 */
void pc_prof_reweigh(struct pc_prof_builder *b, uint32_t stack, uint64_t was,
		     uint64_t weight)
{
	if (stack >= b->nr_st || b->st[stack].weight < was)
		return;
	b->st[stack].weight += weight - was;
}

/**
 * pc_prof_add_off() - add a time off the CPU to the profile
 * @b:		the builder
 * @s:		the task's chain when it left, as a sample's (@s->ip its
 *		first address) and the ns it was off (@s->weight)
 * @comm:	its thread's command then
 * @event:	the event whose switch records told
 * @why:	PC_FRAME_BLOCKED, _PREEMPTED or _UNKNOWN: the stack's
 *		innermost frame
 */
void pc_prof_add_off(struct pc_prof_builder *b,
		     const struct pc_replay_sample *s, const char *comm,
		     uint32_t event, int why)
{
	struct pc_frame f = {
		.name = why == PC_FRAME_PREEMPTED ? "[preempted]" :
			why == PC_FRAME_BLOCKED ? "[blocked]" : "[off-cpu]",
		.dso = "[off-cpu]", .off_cpu = why,
	};
	struct prof_walk w = { b, s, 1 };

	b->fr = pc_grow(b->fr, &b->fr_cap, 1, sizeof(*b->fr));
	b->fr[0] = intern_frame(b, &f);
	pc_chain_walk(s->ip, s->chain, s->chain ? s->nr : 0, push, &w);
	add_stack(b, intern_thread(b, s->pid, s->tid, comm), event, w.n,
		  s->weight);
}

/**
 * pc_prof_wall() - @event's stacks are a wall-clock profile
 * @b:		the builder
 * @event:	its samples (a clock's, in ns) and off-CPU times
 */
void pc_prof_wall(struct pc_prof_builder *b, uint32_t event)
{
	if (event >= b->p.nr_event)
		return;
	b->p.event[event].name = "wall-clock";
	b->p.event[event].unit = "nanoseconds";
}

/**
 * pc_stack_off_cpu() - is a stack a time off the CPU?
 * @p:		the profile
 * @s:		one of its stacks
 *
 * Return: PC_FRAME_BLOCKED or PC_FRAME_PREEMPTED, or 0 for samples.
 */
int pc_stack_off_cpu(const struct pc_profile *p, const struct pc_stack *s)
{
	uint32_t leaf = s->nr ? s->frame[s->nr - 1] : UINT32_MAX;

	return leaf < p->nr_frame ? p->frame[leaf].off_cpu : 0;
}

/**
 * pc_prof_get() - the profile built
 * @b:		the builder; no sample may be added after
 *
 * Return: the profile, which lives as long as @b.
 */
const struct pc_profile *pc_prof_get(struct pc_prof_builder *b)
{
	uint32_t i;

	if (b->p.stack)
		return &b->p;
	b->p.stack = pc_zalloc((b->nr_st ? b->nr_st : 1) *
			       sizeof(*b->p.stack));
	for (i = 0; i < b->nr_st; i++) {
		struct pc_stack *st = &b->p.stack[i];

		st->frame = b->pool + b->st[i].at;
		st->nr = b->st[i].nr;
		st->thread = b->st[i].thread;
		st->event = b->st[i].event;
		st->samples = b->st[i].samples;
		st->weight = b->st[i].weight;
	}
	b->p.nr_stack = b->nr_st;
	return &b->p;
}

void pc_prof_free(struct pc_prof_builder *b)
{
	uint32_t i;

	if (!b)
		return;
	for (i = 0; i < b->p.nr_thread; i++)
		free((char *)b->p.thread[i].comm);
	free(b->p.thread);
	free(b->p.frame);
	free(b->p.event);
	free(b->p.stack);
	free(b->frames.slot);
	free(b->threads.slot);
	free(b->stacks.slot);
	free(b->st);
	free(b->pool);
	free(b->fr);
	free(b);
}

/**
 * pc_frame_label() - how a frame is shown
 * @fr:		the frame
 * @buf:	where its label goes
 * @len:	@buf's size
 *
 * Return: @buf: the function's name, or its file's base name in
 * brackets for addresses with no name.
 */
const char *pc_frame_label(const struct pc_frame *fr, char *buf, size_t len)
{
	const char *base;

	if (fr->name && fr->name[0]) {
		snprintf(buf, len, "%s", fr->name);
	} else if (!fr->dso) {
		snprintf(buf, len, "[unknown]");
	} else if (fr->dso[0] == '[') {
		snprintf(buf, len, "%s", fr->dso);
	} else {
		base = strrchr(fr->dso, '/');
		snprintf(buf, len, "[%s]", base ? base + 1 : fr->dso);
	}
	return buf;
}
