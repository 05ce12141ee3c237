/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-counter report --format: a recording's samples as stacks of
 * functions, and the writers of the formats other tools read (folded,
 * speedscope, pprof, an SVG flame graph). profile.c builds a struct
 * pc_profile from the replay; each writer reads one and writes one
 * file. Documentation/perf_counter/tool.rst shows each format.
 */
#ifndef PC_PROFILE_H
#define PC_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A function, or the addresses of one file that have no name. */
struct pc_frame {
	const char *name;	/* the function, or NULL */
	const char *dso;	/* its file's path, "[kernel]" for the kernel */
	const char *build_id;	/* the file's build-id in hex, or NULL */
	uint64_t addr;		/* the function's start, or the address */
	int kernel;
	int off_cpu;		/* PC_FRAME_BLOCKED, _PREEMPTED, or 0 */
};

/*
 * report --wall: the innermost frame of an off-CPU stack is not a
 * function but why the task was off the CPU, "[blocked]" (it waited)
 * or "[preempted]" (it could have run), or "[off-cpu]" where the record
 * did not say (a plain switch-out: the kernel's sample budget was
 * spent), in the file "[off-cpu]".
 */
#define PC_FRAME_BLOCKED	1
#define PC_FRAME_PREEMPTED	2
#define PC_FRAME_UNKNOWN	3

/* A thread, named by its command when the samples were taken. */
struct pc_thread {
	uint32_t pid, tid;
	const char *comm;
};

/* An event of the recording: its samples are weighed in @unit. */
struct pc_prof_event {
	const char *name;	/* as given to record -e */
	/* "nanoseconds" for a clock, else "events"; "samples" before v4 */
	const char *unit;
};

/*
 * A distinct stack of one thread and one event: its frames, outermost
 * first (frame[nr - 1] is where the samples were taken), and how many
 * samples had it and the events (ns for a clock) they stand for.
 */
struct pc_stack {
	uint32_t *frame;	/* indices into pc_profile.frame */
	uint32_t nr;		/* at least 1 */
	uint32_t thread;	/* index into pc_profile.thread */
	uint32_t event;		/* index into pc_profile.event */
	uint64_t samples, weight;
	uint64_t base;		/* a diff's: the baseline's samples */
};

struct pc_profile {
	const char *command;	/* what was recorded, or NULL */
	struct pc_prof_event *event;
	uint32_t nr_event;
	struct pc_frame *frame;
	uint32_t nr_frame;
	struct pc_thread *thread;
	uint32_t nr_thread;
	struct pc_stack *stack;
	uint32_t nr_stack;
	uint64_t start_ns, end_ns;	/* the first and last sample's time */
	/*
	 * perf-counter diff (diff.c): the new recording's stacks, each
	 * with its samples (and weight: the same) and the baseline's
	 * samples of the same stack (@base); the totals of each.
	 */
	int diff;
	uint64_t base_total, new_total;
};

/* profile.c: a profile built from a record file's replays (reader.h) */
struct pc_rfile;
struct pc_replay_sample;
struct pc_prof_builder;
struct pc_prof_builder *pc_prof_new(const struct pc_rfile *f);
uint32_t pc_prof_add(struct pc_prof_builder *b,
		     const struct pc_replay_sample *s, const char *comm,
		     uint32_t event);
void pc_prof_reweigh(struct pc_prof_builder *b, uint32_t stack, uint64_t was,
		     uint64_t weight);
void pc_prof_add_off(struct pc_prof_builder *b,
		     const struct pc_replay_sample *s, const char *comm,
		     uint32_t event, int why);
void pc_prof_wall(struct pc_prof_builder *b, uint32_t event);
int pc_stack_off_cpu(const struct pc_profile *p, const struct pc_stack *s);
const struct pc_profile *pc_prof_get(struct pc_prof_builder *b);
void pc_prof_free(struct pc_prof_builder *b);

/* diff.c: the two-proportion z score of x of n against y of m */
double pc_diff_z(uint64_t x, uint64_t n, uint64_t y, uint64_t m);

/* offcpu.c: report --wall's profile, its table */
struct pc_wall;
struct pc_replay_switch;
struct pc_wall *pc_wall_new(struct pc_prof_builder *prof, uint32_t event,
			    const char *machine);
void pc_wall_sample(struct pc_wall *w, const struct pc_replay_sample *s,
		    const char *comm);
void pc_wall_switch(struct pc_wall *w, const struct pc_replay_switch *s,
		    const char *comm);
void pc_wall_print(struct pc_wall *w, const struct pc_profile *p,
		   int max_lines);
void pc_wall_lost(struct pc_wall *w, uint64_t lost);
void pc_wall_exit(struct pc_wall *w, uint32_t pid, uint32_t tid);
void pc_wall_free(struct pc_wall *w);
void pc_wall_window(struct pc_wall *w, uint64_t from, uint64_t to);

/* A frame's label: its function, else "[file]" (profile.c) */
#define PC_FRAME_LABEL_MAX	1024
const char *pc_frame_label(const struct pc_frame *fr, char *buf, size_t len);

/* symbols.c: @ip of task @pid as a frame (a function, or an address) */
struct pc_maps;
void pc_resolve_frame(const struct pc_maps *maps, uint32_t pid, uint64_t ip,
		      struct pc_frame *f);

/*
 * deflate.c: @len bytes at @data as one gzip member (RFC 1952, its
 * deflate stream compressed with fixed Huffman codes, RFC 1951).
 * Return: 0, or -1 with errno when @f could not be written.
 */
int pc_gzip(const void *data, size_t len, FILE *f);

/* The writers: 0, or -1 with errno when @f could not be written. */
int pc_write_folded(const struct pc_profile *p, uint32_t event, FILE *f);
int pc_write_speedscope(const struct pc_profile *p, FILE *f);
int pc_write_pprof(const struct pc_profile *p, FILE *f);
int pc_write_svg(const struct pc_profile *p, uint32_t event, int inverted,
		 FILE *f);

#endif /* PC_PROFILE_H */
