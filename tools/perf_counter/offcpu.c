// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter report --wall: where a program's wall-clock time went,
 * on the CPU and off it, from a record --off-cpu file.
 *
 * On the CPU, the clock event's samples each stand for their period in
 * ns. Off it, each switch-out record of a thread is paired with the
 * thread's next switch-in: the time between is added, exactly, to the
 * stack the thread left with, under an innermost frame that says why,
 * "[blocked]" (it waited: sleep, pipe, lock, page-in) or "[preempted]"
 * (it could have run). One profile holds both (profile.c), for the
 * table here and for every --format.
 *
 * Per thread the switch records also give, exactly, the time between
 * its first and its last switch record (elapsed) as time on the CPU
 * (switch-in to switch-out) and off it (switch-out to switch-in).
 *
 * Frameless callers: a system call wrapper of the C library built
 * without a frame pointer (x86) leaves its caller out of the chain the
 * kernel walks by frame pointers, as it leaves %bp to that caller: the
 * chain goes from the wrapper to the caller's caller. The switch-out
 * record has the first words of the user stack too (record --off-cpu
 * asks for PC_SWITCH_STACK of them): when the innermost user function
 * has no frame-pointer prologue (prologue.c), the words up to the
 * chain's next address, the return address the walk read from the
 * caller's frame, are searched for return addresses into named
 * functions, and those found go between. Where the walk ended at its
 * first frame instead (an i386 C library keeps no frame pointer in
 * %ebp), the return addresses up the words to the first into a
 * function with a frame-pointer prologue are the chain's rest. Else the
 * chain is left as the kernel gave it. Words are read as 8 bytes, then
 * 4 (as 4 first where HOST says the machine was i386 to i686).
 */
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "profile.h"
#include "reader.h"

/* Return addresses taken from the stack words between two, at most */
#define WALL_FOUND_MAX	8

/* One thread's switches. */
struct wall_thread {
	uint32_t pid, tid;
	char comm[16];		/* when it last left */
	uint64_t first, last;	/* its first and last switch record */
	uint64_t on, blocked, preempted, unknown;	/* ns */
	uint64_t in_at;		/* its last switch-in, while on the CPU */
	int on_cpu;
	int exited;		/* its EXIT was seen: no wait after */
	int out;		/* left the CPU: @chain, @out_at, @why */
	uint64_t out_at;
	int why;
	uint64_t *chain;
	uint32_t nr, chain_cap;
	uint64_t first_ip;
	/* this run's samples, reweighed at its switch-out */
	struct wall_sample *run;
	size_t nr_run, run_cap;
};

/* A sample of a run on the CPU: its stack in the profile, its period */
struct wall_sample {
	uint32_t stack;
	uint64_t weight;
};

struct pc_wall {
	struct pc_prof_builder *prof;
	uint32_t event;
	struct wall_thread *t;
	size_t nr, cap;
	uint32_t *slot;		/* tid hash of indices + 1 */
	size_t slots;
	uint64_t fixed;		/* chains given callers from the stack */
	uint64_t sampled;	/* ns the samples stand for */
	int word_bytes;		/* the stack words' first reading */
	uint64_t lost;		/* records the replay told lost */
	uint64_t unpaired;	/* runs or waits a lost record cut */
	uint64_t from, to;	/* --time: the window counted */
};

/* The part of [@a, @b) in the window, in ns. */
static uint64_t in_window(const struct pc_wall *w, uint64_t a, uint64_t b)
{
	if (a < w->from)
		a = w->from;
	if (b > w->to)
		b = w->to;
	return b > a ? b - a : 0;
}

static struct wall_thread *thread_of(struct pc_wall *w, uint32_t pid,
				     uint32_t tid)
{
	size_t i, k;

	if ((w->nr + 1) * 2 > w->slots) {
		uint32_t *old = w->slot;
		size_t n = w->slots;

		w->slots = n ? 2 * n : 64;
		w->slot = pc_zalloc(w->slots * sizeof(*w->slot));
		for (i = 0; i < n; i++) {
			if (!old[i])
				continue;
			k = w->t[old[i] - 1].tid & (w->slots - 1);
			while (w->slot[k])
				k = (k + 1) & (w->slots - 1);
			w->slot[k] = old[i];
		}
		free(old);
	}
	for (k = tid & (w->slots - 1); w->slot[k];
	     k = (k + 1) & (w->slots - 1))
		if (w->t[w->slot[k] - 1].tid == tid &&
		    w->t[w->slot[k] - 1].pid == pid)
			return &w->t[w->slot[k] - 1];
	w->t = pc_grow(w->t, &w->cap, w->nr + 1, sizeof(*w->t));
	memset(&w->t[w->nr], 0, sizeof(*w->t));
	w->t[w->nr].pid = pid;
	w->t[w->nr].tid = tid;
	w->slot[k] = ++w->nr;
	return &w->t[w->nr - 1];
}

/**
 * pc_wall_new() - a wall-clock profile of one event's samples and
 * switch records
 * @prof:	the profile to add to
 * @event:	the event
 * @machine:	the recording machine's (uname -m), or NULL
 *
 * Return: the builder; pc_wall_sample() and pc_wall_switch() each
 * sample and switch of the replay, then pc_wall_print().
 */
struct pc_wall *pc_wall_new(struct pc_prof_builder *prof, uint32_t event,
			    const char *machine)
{
	struct pc_wall *w = pc_zalloc(sizeof(*w));

	w->prof = prof;
	w->event = event;
	w->to = UINT64_MAX;
	/* words of 4 bytes on a 32-bit x86 machine; else 8, then 4 */
	w->word_bytes = machine && machine[0] == 'i' &&
			!strcmp(machine + 2, "86") ? 4 : 8;
	pc_prof_wall(prof, event);
	return w;
}

/**
 * pc_wall_window() - count only the time from @from to @to
 * @w:		the builder, before the replay
 * @from:	CLOCK_MONOTONIC ns
 * @to:		likewise, after @from
 *
 * Samples taken outside are left out (report --time does), and every
 * thread's times on and off the CPU are cut to the window: the times a
 * program measures of itself between two clock reads compare exactly.
 */
void pc_wall_window(struct pc_wall *w, uint64_t from, uint64_t to)
{
	w->from = from;
	w->to = to;
}

/**
 * pc_wall_lost() - the replay's count of records the kernel dropped
 * @w:		the builder
 * @lost:	LOST records' sum, of the event's queues
 */
void pc_wall_lost(struct pc_wall *w, uint64_t lost)
{
	w->lost = lost;
}

/* The stack word @i of @s as @bytes-sized values: *@n of them at @v. */
static void stack_values(const struct pc_replay_switch *s, uint32_t i,
			 int bytes, uint64_t v[2], int *n)
{
	uint64_t x = s->stack[i];

	if (bytes == 8) {
		v[0] = x;
		*n = 1;
		return;
	}
	/* two 4-byte words, in the order they are in memory */
	v[s->stack_le ? 0 : 1] = x & 0xffffffffULL;
	v[s->stack_le ? 1 : 0] = x >> 32;
	*n = 2;
}

/*
 * Might @addr be a return address: after the start of a named function?
 * Return: that function's start, or 0.
 */
static uint64_t return_address(const struct pc_replay_switch *s,
			       uint64_t addr)
{
	struct pc_frame f = { 0 };

	/* (a word that is no mapping's reads no kernel symbols) */
	if (addr < 2 || !pc_maps_find(s->maps, s->pid, addr - 1))
		return 0;
	pc_resolve_frame(s->maps, s->pid, addr - 1, &f);
	return f.name && !f.kernel && addr > f.addr ? f.addr : 0;
}

/*
 * The return addresses in @s's stack words before @next, read as words
 * of @bytes: how many into @found, or -1 if @next is not there.
 */
static int stack_callers(const struct pc_replay_switch *s, uint64_t next,
			 int bytes, uint64_t *found)
{
	uint64_t v[2];
	uint32_t i;
	int n, j, nr = 0;

	for (i = 0; i < s->stack_words; i++) {
		stack_values(s, i, bytes, v, &n);
		for (j = 0; j < n; j++) {
			if (v[j] == next)
				return nr;
			if (nr < WALL_FOUND_MAX && return_address(s, v[j]))
				found[nr++] = v[j];
		}
	}
	return -1;
}

/*
 * No next address to stop at: the walk ended at its first frame, the
 * frame pointer register holding something else, or 0 (i386 C libraries
 * use it as any other, and pass the sixth system call argument in it). The
 * return addresses up the words, to the first into a function that
 * sets up a frame pointer, the one whose frame the walk could not
 * find; none unless that one is reached. A function's second return
 * address in a row (a slot its call of a helper left) is not taken.
 */
static int stack_scan(const struct pc_replay_switch *s, int bytes,
		      uint64_t *found)
{
	uint64_t v[2], fn, last = 0;
	uint32_t i;
	int n, j, nr = 0;

	for (i = 0; i < s->stack_words; i++) {
		stack_values(s, i, bytes, v, &n);
		for (j = 0; j < n && nr < WALL_FOUND_MAX; j++) {
			fn = return_address(s, v[j]);
			if (!fn || fn == last)
				continue;
			last = fn;
			found[nr++] = v[j];
			if (pc_frame_pointer(s->maps, s->pid, v[j] - 1) == 1)
				return nr;
		}
	}
	return 0;
}

/* The callers to put after the first user address u + 1, or 0. */
static int stack_fix(const struct pc_wall *w, const struct pc_replay_switch *s,
		     uint32_t u, uint64_t *found)
{
	int bytes = w->word_bytes, nr, k;

	if (!s->stack_words || u + 1 >= s->nr ||
	    pc_frame_pointer(s->maps, s->pid, s->chain[u + 1]) == 1)
		return 0;
	for (k = 0; k < 2; k++, bytes = bytes == 8 ? 4 : 8) {
		/* the walk's next address, or none (broken, or %bp 0) */
		if (u + 2 < s->nr &&
		    s->chain[u + 2] < (uint64_t)PERF_CONTEXT_MAX)
			nr = stack_callers(s, s->chain[u + 2], bytes, found);
		else
			nr = stack_scan(s, bytes, found);
		if (nr > 0)
			return nr;
	}
	return 0;
}

/*
 * @s's chain into @t, with the callers a frameless innermost user
 * function left out put back from the stack words (see the top).
 */
static void keep_chain(struct pc_wall *w, struct wall_thread *t,
		       const struct pc_replay_switch *s)
{
	uint64_t found[WALL_FOUND_MAX];
	uint32_t u, i, at = 0;
	int nr;

	for (u = 0; u < s->nr; u++)
		if (s->chain[u] == PERF_CONTEXT_USER)
			break;
	nr = stack_fix(w, s, u, found);
	w->fixed += nr > 0;
	if (s->nr + nr > t->chain_cap) {
		t->chain_cap = s->nr + nr;
		t->chain = pc_realloc(t->chain,
				      t->chain_cap * sizeof(*t->chain));
	}
	for (i = 0; i < s->nr; i++) {
		t->chain[at++] = s->chain[i];
		if (i == u + 1 && nr > 0) {
			memcpy(t->chain + at, found, nr * sizeof(*found));
			at += nr;
		}
	}
	t->nr = at;
	t->first_ip = 0;
	for (i = 0; i < at; i++)
		if (t->chain[i] < (uint64_t)PERF_CONTEXT_MAX) {
			t->first_ip = t->chain[i];
			break;
		}
}

/* The wait @t began at its last switch-out ends at @end (ns). */
static void end_wait(struct pc_wall *w, struct wall_thread *t, uint64_t end,
		     const struct pc_maps *maps)
{
	struct pc_replay_sample off = { 0 };

	t->out = 0;
	off.pid = t->pid;
	off.tid = t->tid;
	off.ip = t->first_ip;
	off.time = t->out_at;
	off.weight = in_window(w, t->out_at, end);
	if (!off.weight)
		return;
	off.chain = t->nr ? t->chain : NULL;
	off.nr = t->nr;
	off.maps = maps;
	if (t->why == PC_FRAME_PREEMPTED)
		t->preempted += off.weight;
	else if (t->why == PC_FRAME_BLOCKED)
		t->blocked += off.weight;
	else
		t->unknown += off.weight;
	pc_prof_add_off(w->prof, &off, t->comm, w->event, t->why);
}

/**
 * pc_wall_exit() - a thread of the event's tasks ended
 * @w:		the builder
 * @pid:	its process
 * @tid:	and itself
 *
 * Its last switch-out (the exit's, after the record) ends its last run
 * and no wait: a new thread that takes its number starts afresh.
 */
void pc_wall_exit(struct pc_wall *w, uint32_t pid, uint32_t tid)
{
	thread_of(w, pid, tid)->exited = 1;
}

/**
 * pc_wall_sample() - a sample of the event, on the CPU
 * @w:		the builder
 * @s:		the sample
 * @comm:	its thread's command
 */
void pc_wall_sample(struct pc_wall *w, const struct pc_replay_sample *s,
		    const char *comm)
{
	struct wall_thread *t = thread_of(w, s->pid, s->tid);
	/*
	 * A thread seen first in a sample was on the CPU for the sample's
	 * period (ns of a clock) before: from there, not from its first
	 * switch-out.
	 */
	uint64_t start = s->time - (s->weight < s->time ? s->weight : 0);

	if (start < w->from)
		start = w->from;
	if (!t->first) {
		t->first = start;
		t->last = start;
		t->on_cpu = 1;
		t->in_at = start;
	} else if (!t->on_cpu) {
		/* its switch-in was lost: on the CPU since its period began */
		if (t->out && start < t->out_at)
			start = t->out_at;
		if (t->out)
			end_wait(w, t, start, s->maps);
		t->on_cpu = 1;
		t->in_at = start;
		w->unpaired++;
	}
	w->sampled += s->weight;
	t->run = pc_grow(t->run, &t->run_cap, t->nr_run + 1, sizeof(*t->run));
	t->run[t->nr_run].stack = pc_prof_add(w->prof, s, comm, w->event);
	t->run[t->nr_run].weight = s->weight;
	t->nr_run++;
}

/*
 * The end of a run of @t's on the CPU, @on ns of it in the window,
 * at the switch-out @s: the run's time goes to the stacks sampled in it,
 * each its share of their periods (the samples see only the modes
 * their event counts, and a period a switch cut short is in none), or,
 * if none was, to the stack the thread left the CPU with. The samples
 * went into the profile as they came, named with their task's mappings
 * then: here only their weights change.
 */
static void end_run(struct pc_wall *w, struct wall_thread *t, uint64_t on,
		    const struct pc_replay_switch *s)
{
	struct pc_replay_sample one = { 0 };
	uint64_t sum = 0, given = 0, part;
	size_t i;

	for (i = 0; i < t->nr_run; i++)
		sum += t->run[i].weight;
	for (i = 0; i < t->nr_run && sum; i++) {
		/* the last takes what rounding left */
		part = i + 1 < t->nr_run ?
		       (uint64_t)((double)on * t->run[i].weight / sum) :
		       on - given;
		if (part > on - given)
			part = on - given;
		given += part;
		pc_prof_reweigh(w->prof, t->run[i].stack, t->run[i].weight,
				part);
	}
	if (!t->nr_run && on) {
		one.pid = t->pid;
		one.tid = t->tid;
		one.ip = t->first_ip;
		one.time = s->time;
		one.weight = on;
		one.chain = t->nr ? t->chain : NULL;
		one.nr = t->nr;
		one.maps = s->maps;
		pc_prof_add(w->prof, &one, t->comm, w->event);
	}
	t->nr_run = 0;
}

/**
 * pc_wall_switch() - a switch record of the event's
 * @w:		the builder
 * @s:		the switch
 * @comm:	its thread's command
 */
void pc_wall_switch(struct pc_wall *w, const struct pc_replay_switch *s,
		    const char *comm)
{
	struct wall_thread *t = thread_of(w, s->pid, s->tid);
	uint64_t at = s->time < w->from ? w->from :
		      s->time > w->to ? w->to : s->time;

	if (!t->first)
		t->first = at;
	t->last = at;
	if (s->out) {
		uint64_t on = t->on_cpu ? in_window(w, t->in_at, s->time) : 0;

		t->on += on;
		t->on_cpu = 0;
		t->out = 1;
		t->out_at = s->time;
		/* a plain switch-out (no chain) does not say why */
		t->why = !s->chain ? PC_FRAME_UNKNOWN : s->preempted ?
			 PC_FRAME_PREEMPTED : PC_FRAME_BLOCKED;
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
		t->nr = 0;
		t->first_ip = 0;
		if (s->chain)
			keep_chain(w, t, s);
		end_run(w, t, on, s);
		if (t->exited)
			t->out = 0;	/* gone: nothing comes back */
		return;
	}
	t->exited = 0;
	if (t->on_cpu) {
		/* its switch-out was lost: the run keeps its samples' periods */
		t->nr_run = 0;
		w->unpaired++;
	}
	t->on_cpu = 1;
	t->in_at = s->time;
	if (t->out)
		end_wait(w, t, s->time, s->maps);
}

/* A function's wall-clock time: in its stacks, and as their leaf. */
struct wall_func {
	uint32_t frame;
	uint64_t total, self, on, blocked, preempted;
	uint32_t stamp;		/* the last stack counted in */
};

static int by_total(const void *a, const void *b)
{
	const struct wall_func *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/* The functions' times over the event's stacks; the wall time there. */
static struct wall_func *wall_funcs(const struct pc_profile *p,
				    uint32_t event, uint64_t *all)
{
	struct wall_func *fn = pc_zalloc((p->nr_frame + 1) * sizeof(*fn));
	uint32_t i, j;

	*all = 0;
	for (i = 0; i < p->nr_frame; i++)
		fn[i].frame = i;
	for (i = 0; i < p->nr_stack; i++) {
		const struct pc_stack *s = &p->stack[i];
		int why = pc_stack_off_cpu(p, s);

		if (s->event != event)
			continue;
		*all += s->weight;
		for (j = 0; j < s->nr; j++) {
			struct wall_func *f = &fn[s->frame[j]];

			if (f->stamp == i + 1)
				continue;	/* recursion: once a stack */
			f->stamp = i + 1;
			f->total += s->weight;
			if (why == PC_FRAME_BLOCKED)
				f->blocked += s->weight;
			else if (why == PC_FRAME_PREEMPTED)
				f->preempted += s->weight;
			else
				f->on += s->weight;
		}
		if (s->nr)
			fn[s->frame[s->nr - 1]].self += s->weight;
	}
	return fn;
}

static int by_tid(const void *a, const void *b)
{
	const struct wall_thread *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/**
 * pc_wall_print() - the wall-clock table of the profile built
 * @w:		the builder, its replay done
 * @p:		the profile (pc_prof_get())
 * @max_lines:	functions shown at most, -1 for all above 0.5%
 *
 * Per function: its share of the wall time of every thread (Children:
 * in its stacks, Self: as their innermost frame), and that time on the
 * CPU, blocked and preempted; then per thread, the switch records' own
 * account of its time.
 */
void pc_wall_print(struct pc_wall *w, const struct pc_profile *p,
		   int max_lines)
{
	char label[PC_FRAME_LABEL_MAX], esc[84];
	struct wall_func *fn;
	uint64_t all, on = 0, blocked = 0, preempted = 0, unknown = 0;
	uint32_t i;
	int shown = 0;
	size_t k;

	fn = wall_funcs(p, w->event, &all);
	for (k = 0; k < w->nr; k++) {
		on += w->t[k].on;
		blocked += w->t[k].blocked;
		preempted += w->t[k].preempted;
		unknown += w->t[k].unknown;
	}
	printf("# wall-clock profile: %.3f ms of %zu thread%s: on the CPU %.3f ms, off it %.3f ms (blocked %.3f, preempted %.3f",
	       ms(all), w->nr, w->nr == 1 ? "" : "s",
	       ms(all - blocked - preempted - unknown),
	       ms(blocked + preempted + unknown), ms(blocked), ms(preempted));
	if (unknown)
		printf(", why not said %.3f: past the kernel's sample budget",
		       ms(unknown));
	printf(")\n");
	if (w->lost || w->unpaired)
		printf("# %llu records lost; %llu runs or waits a lost record cut are counted by their samples only\n",
		       (unsigned long long)w->lost,
		       (unsigned long long)w->unpaired);
	printf("# on the CPU by the switch records %.3f ms, of which the samples' periods %.3f ms (not the modes their event excludes, nor periods a switch cut short): each run on the CPU is shared among the stacks sampled in it\n",
	       ms(on), ms(w->sampled));
	if (w->fixed)
		printf("# %llu off-CPU chains given callers from the stack words (frameless wrappers)\n",
		       (unsigned long long)w->fixed);
	printf("#\n# Children     Self      On-CPU ms   Blocked ms Preempted ms  Shared Object         Symbol\n");
	qsort(fn, p->nr_frame, sizeof(*fn), by_total);
	for (i = 0; i < p->nr_frame; i++) {
		const struct pc_frame *fr = &p->frame[fn[i].frame];
		const char *dso = fr->dso ? strrchr(fr->dso, '/') : NULL;

		if (!fn[i].total)
			break;
		if (max_lines >= 0 ? shown >= max_lines :
		    pct(fn[i].total, all) < 0.5)
			break;
		dso = dso ? dso + 1 : fr->dso ? fr->dso : "[unknown]";
		printf("  %7.2f%%  %7.2f%%  %11.3f  %11.3f  %11.3f  %-20.20s  ",
		       pct(fn[i].total, all), pct(fn[i].self, all),
		       ms(fn[i].on), ms(fn[i].blocked), ms(fn[i].preempted),
		       pc_escaped(dso, esc, sizeof(esc)));
		pc_print_escaped(pc_frame_label(fr, label, sizeof(label)));
		putchar('\n');
		shown++;
	}
	free(fn);
	qsort(w->t, w->nr, sizeof(*w->t), by_tid);
	printf("\n# per thread, from its switch records: elapsed = on + off the CPU\n");
	printf("#     pid      tid  command            elapsed ms    on-CPU ms   off-CPU ms   blocked ms preempted ms\n");
	for (k = 0; k < w->nr; k++) {
		const struct wall_thread *t = &w->t[k];

		if (t->last == t->first)
			continue;	/* no switch record: no account */
		printf("  %7u  %7u  %-16.16s  %11.3f  %11.3f  %11.3f  %11.3f  %11.3f\n",
		       t->pid, t->tid,
		       pc_escaped(t->comm[0] ? t->comm : "?", esc, sizeof(esc)),
		       ms(t->last - t->first), ms(t->on),
		       ms(t->blocked + t->preempted), ms(t->blocked),
		       ms(t->preempted));
	}
}

/** pc_wall_free() - what the builder holds (not its profile) */
void pc_wall_free(struct pc_wall *w)
{
	size_t k;

	if (!w)
		return;
	for (k = 0; k < w->nr; k++) {
		free(w->t[k].chain);
		free(w->t[k].run);
	}
	free(w->t);
	free(w->slot);
	free(w);
}
