/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-counter: the user tool of the perf_counter subsystem. Shared
 * declarations; each .c file has one concern (see Makefile).
 */
#ifndef PC_TOOL_H
#define PC_TOOL_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/perf_counter.h>

#define PC_NAME_MAX	96
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))


enum pc_kind {
	PC_HW,		/* a generic hardware event */
	PC_SW,		/* a software event */
	PC_TP,		/* a tracepoint, by its tracefs id */
	PC_RAW,		/* rNNN: a raw code */
	PC_NAMED,	/* this CPU's named event, from pc_pmu_tables */
};

struct pc_event {
	char name[PC_NAME_MAX];
	enum pc_kind kind;
	uint64_t config;		/* event_config as opened */
	uint64_t extra;			/* one control word, if nr_extra */
	unsigned int nr_extra;
	int exclude_user, exclude_kernel;
};

struct pc_open_args {
	pid_t pid;
	int cpu;
	int group_fd;
	int disabled, inherit, exclude_idle, exclusive;
	uint64_t period, record_type;
	uint64_t freq;			/* sample_freq: @period then 0 */
	unsigned int chain_depth;	/* callchain_depth; 0: the default */
	uint64_t sideband;		/* PERF_SIDEBAND_* */
	int context_switch;		/* switch records */
	uint32_t switch_out;		/* PERF_SWITCH_OUT_* */
	uint16_t switch_stack;		/* user stack words with each */
	uint64_t read_format;		/* PERF_FORMAT_ID, _GROUP (counting) */
	int inherit_stat;		/* TOTALS records at each task's exit */
};

/* util.c */
void *pc_zalloc(size_t size);
void *pc_realloc(void *p, size_t size);
void *pc_grow(void *p, size_t *cap, size_t need, size_t size);
char *pc_strdup(const char *s);
_Noreturn void pc_die(const char *fmt, ...);
void pc_warn(const char *fmt, ...);
void pc_print_escaped(const char *s);
char *pc_escaped(const char *s, char *buf, size_t len);
void pc_json_str(FILE *f, const char *s);
int pc_utf8_char(const char *s, uint32_t *c);
int pc_utf8_len(const char *s);
char *pc_commas(uint64_t v, char *buf, size_t len);
uint64_t pc_now_ns(void);
int pc_read_file(const char *path, char *buf, size_t len);
int pc_open_file_id(const char *path, uint64_t dev, uint64_t ino);
int pc_open_regular(const char *path);
int pc_nr_cpus(void);
int pc_parse_cpus(const char *list, int *cpus, int max);
int pc_online_cpus(int *cpus, int max);
long long pc_parse_num(const char *opt, const char *str, long long min,
		       long long max);
uint64_t pc_parse_u64(const char *opt, const char *str, uint64_t min,
		      uint64_t max);

/* options.c: the sampling commands' options, one table for all */
#define PC_OPT_MAX_CPUS	256
struct pc_sample_opts {
	const char	*event;		/* -e, given again: joined by ',' */
	uint64_t	period;		/* -c */
	int		freq;		/* -F */
	const char	*output;	/* -o */
	const char	*input;		/* -i */
	int		cpus[PC_OPT_MAX_CPUS];	/* -C */
	int		nr_cpus;
	int		delay;		/* -d */
	int		count;		/* -n */
	int		force;		/* -f */
	int		callchain;	/* -g */
	const char	*call_graph;	/* --call-graph */
	int		children;	/* --children 1, --no-children 0 */
	int		all_cpus;	/* -a */
	const char	*pids;		/* -p PID[,PID...] */
	const char	*sort;		/* -s, --sort KEY[,KEY...] */
	const char	*comms, *dsos, *symbols;	/* report's filters */
	int		dump;		/* -D: report's items, one a line */
	const char	*format;	/* report --format: an export */
	int		inverted;	/* report --inverted: an icicle */
	int		no_buildid;	/* record -B: no portable symbols */
	int		off_cpu;	/* record --off-cpu: switch-out chains */
	const char	*mmap_pages;	/* record -m: a ring's pages, or size */
	int		no_mmap;	/* record --no-mmap: read() the queues */
	int		wall;		/* report --wall: on- and off-CPU time */
	const char	*time;		/* report --time START,END */
	unsigned int	lists_given;	/* options.c's own */
};
int pc_sample_opts_parse(int argc, char **argv, const char *letters,
			 struct pc_sample_opts *opts, void (*help)(FILE *f));
int pc_paranoid(void);
unsigned int pc_max_sample_rate(void);
int pc_edit_distance(const char *a, const char *b);

/*
 * One record of a sampling counter's queue, as pc_take() gives it:
 * a sample, a drop (LOST, LOST_SIDEBAND: @lost) or a side-band or
 * switch record (MMAP, COMM, FORK, EXIT, SWITCH_IN, SWITCH_OUT and
 * SWITCH_OUT_CHAIN: @pid, @tid and @time, and the whole body,
 * unaligned, at @body).
 */
struct pc_rec {
	uint32_t type;		/* PERF_COUNTER_REC_* */
	uint32_t pid, tid;
	uint64_t ip, time, lost;
	uint64_t period;	/* PERF_RECORD_PERIOD, else 0 */
	/* PERF_RECORD_CALLCHAIN: nr words at chain, unaligned */
	uint32_t chain_nr, chain_flags;
	const char *chain;
	const char *body;
	size_t blen;
};

void pc_take(const char *buf, size_t len, uint64_t record_type,
	     void (*fn)(void *ctx, const struct pc_rec *r), void *ctx);

/* ring.c: a record queue read in its mapped ring (perf_counter_ring_page) */
struct pc_ring {
	struct perf_counter_ring_page *page;
	const char *data;	/* the ring: @size bytes */
	uint64_t size;		/* data_size, a power of two */
	uint64_t tail;		/* data_tail as last written */
	size_t len;		/* the mapping's bytes */
};

int pc_ring_map(struct pc_ring *r, int fd, size_t bytes);
size_t pc_ring_take(struct pc_ring *r, char *buf, size_t size);
uint64_t pc_ring_waiting(const struct pc_ring *r);
uint64_t pc_ring_lost(const struct pc_ring *r);
void pc_ring_unmap(struct pc_ring *r);

/* order.c: records of many queues into one stream in time order */
#define PC_ORDER_SLACK_NS	100000000ULL	/* read, if this much older */
struct pc_order;
struct pc_order *pc_order_new(void);
void pc_order_add(struct pc_order *o, uint64_t time, uint32_t type,
		  const void *body, size_t len);
void pc_order_flush(struct pc_order *o, uint64_t upto,
		    void (*write)(void *ctx, uint32_t type, const void *body,
				  size_t len),
		    void *ctx);
uint64_t pc_order_late(const struct pc_order *o);
void pc_order_free(struct pc_order *o);

/* Samples per function, for report and top. */
struct pc_hist_entry {
	const char *dso, *sym;
	uint64_t ip;		/* the first address seen, for no name */
	int kernel;
	uint64_t count;
};

struct pc_hist {
	struct pc_hist_entry *e;
	int nr;
	size_t cap;
	uint64_t total;
};

void pc_hist_add(struct pc_hist *h, const char *dso, const char *sym,
		 uint64_t ip, int kernel);
void pc_hist_sort(struct pc_hist *h);

/* sort.c: report's rows by --sort keys */
enum pc_sort_key {
	PC_SORT_COMM, PC_SORT_PID, PC_SORT_DSO, PC_SORT_SYM, PC_SORT_CPU,
};

struct pc_sort {
	int key[5];
	unsigned int nr;
};

struct pc_row {
	const char *comm;
	uint32_t pid;
	int32_t cpu;		/* a CPU-wide counter's, else -1 */
	const char *dso, *sym;
	uint64_t ip;
	int kernel;
	uint64_t count;		/* the events its samples stand for */
	uint64_t samples;
};

struct pc_rows {
	struct pc_row *row;
	size_t nr, cap;
	size_t *slot;		/* open hash of row + 1; 0 empty */
	size_t nr_slot;
	uint64_t total;
};

void pc_sort_parse(const char *list, struct pc_sort *s);
int pc_filter_match(const char *list, const char *name);
void pc_rows_add(struct pc_rows *r, const struct pc_sort *s,
		 const struct pc_row *k);
void pc_rows_print(struct pc_rows *r, const struct pc_sort *s,
		   uint64_t total, int max_lines);
void pc_rows_free(struct pc_rows *r);

/* sys.c */
int pc_open(const struct pc_event *ev, const struct pc_open_args *a);
void pc_open_error(const struct pc_event *ev, const struct pc_open_args *a,
		   int err);
int pc_wait_status(int status);
int pc_fork_command(char **argv, int *go_fd);
int pc_start_command(int go_fd);

/* events.c */
int pc_parse_event(const char *str, struct pc_event *ev);
int pc_parse_event_list(const char *list, struct pc_event **evs, int *nr);
void pc_unknown_event(const char *str);
const char *pc_cpu_identity(void);
const struct pc_pmu_table *pc_cpu_table(void);
int pc_event_is_clock(const struct pc_event *ev);
const char *pc_tracefs_events(void);
int pc_generic_event(unsigned int i, const char **name, const char **desc,
		     int *sw);

/* symbols.c */
struct pc_map {
	uint32_t pid;
	uint64_t start, end, pgoff;
	uint64_t dev, ino;	/* the file mapped (st_dev, st_ino) */
	char *path;
};

struct pc_maps {
	struct pc_map *map;
	int nr;
};

int pc_read_maps(pid_t pid, struct pc_maps *maps);
void pc_maps_add(struct pc_maps *maps, const struct pc_map *m);
const struct pc_map *pc_maps_find(const struct pc_maps *maps, uint32_t pid,
				  uint64_t ip);
void pc_maps_free(struct pc_maps *maps);
void pc_symbols_init(void);
const char *pc_resolve(const struct pc_maps *maps, uint32_t pid,
		       uint64_t ip, const char **dso, int *kernel);
int pc_frame_pointer(const struct pc_maps *maps, uint32_t pid, uint64_t ip);
void pc_symbols_mark(int on);
int pc_symbols_write(void (*write)(void *ctx, uint32_t type,
				   const void *body, size_t len),
		     void *ctx);
int pc_symbols_load(uint32_t type, const void *body, size_t blen, int swap);
void pc_symbols_no_kallsyms(void);

/* tasks.c: the tasks of a recording, replayed in time order */
struct pc_maplist;
struct pc_task {
	uint32_t pid;		/* first: tasks.c's hash table's key */
	struct pc_maplist *ml;	/* its mappings now: pc_task_maps() */
	int known;		/* learned from the start (tasks.c) */
	int threads;		/* alive, as the records tell */
	uint64_t samples;	/* of the event being reported */
	uint64_t unnamed;	/* of them, user addresses in no mapping */
	int unseen;		/* some of those while it was not known */
};

struct pc_tasks;
struct pc_tasks *pc_tasks_new(void);
void pc_tasks_free(struct pc_tasks *t);
struct pc_task *pc_tasks_get(struct pc_tasks *t, uint32_t pid);
void pc_tasks_each(struct pc_tasks *t, void (*fn)(void *ctx, struct pc_task *p),
		   void *ctx);
const struct pc_maps *pc_task_maps(const struct pc_task *p);
uint64_t pc_tasks_dropped(const struct pc_tasks *t);
const char *pc_tasks_comm(struct pc_tasks *t, uint32_t tid);
const char *pc_tasks_name(struct pc_tasks *t, uint32_t pid, uint32_t tid,
			  char *buf, size_t len);
int pc_tasks_mmap(struct pc_tasks *t, const struct perf_counter_mmap *m,
		  const char *path);
void pc_tasks_set_comm(struct pc_tasks *t, uint32_t pid, uint32_t tid,
		       const char *comm, int exec);
void pc_tasks_sideband_lost(struct pc_tasks *t);
void pc_tasks_fork(struct pc_tasks *t, uint32_t pid, uint32_t tid,
		   uint32_t ppid, uint32_t ptid);
void pc_tasks_exit(struct pc_tasks *t, uint32_t pid, uint32_t tid);

/* portable.c */
int pc_portable_append(const char *path, FILE *f);

/* prologue.c */
int pc_prologue_fp(unsigned int machine, const unsigned char *p,
		   size_t len, int whole);

/* callchain.c: the call chains of report */

struct pc_chain_view {
	int children;		/* a line per function its chains pass */
	int caller;		/* trees from the outermost caller down */
	int fractal;		/* percentages of the parent, not the total */
	int none;		/* no trees */
	double threshold;	/* percent under which a branch is hidden */
	int max_lines;		/* functions shown, -1 all */
};

struct pc_chains;
void pc_chain_walk(uint64_t ip, const uint64_t *words, uint32_t nr,
		   void (*fn)(void *ctx, uint64_t addr, int ret), void *ctx);
void pc_chain_view_parse(struct pc_chain_view *v, const char *arg);
struct pc_chains *pc_chains_new(const struct pc_chain_view *v);
void pc_chains_add(struct pc_chains *c, const struct pc_maps *maps,
		   uint32_t pid, uint64_t ip, const uint64_t *words,
		   uint32_t nr, uint32_t flags, uint64_t weight);
void pc_chains_add_none(struct pc_chains *c, const struct pc_maps *maps,
			uint32_t pid, uint64_t ip, uint64_t weight);
void pc_chains_forget(struct pc_chains *c);
void pc_chains_quality(const struct pc_chains *c);
void pc_chains_fp_warn(const struct pc_chains *c);
void pc_chains_print(struct pc_chains *c);
void pc_chains_free(struct pc_chains *c);

/* the subcommands */
int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_top(int argc, char **argv);

#endif /* PC_TOOL_H */
