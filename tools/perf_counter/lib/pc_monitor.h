/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pc_monitor.h: a small library for a C program that counts its own
 * thread with perf_counter_open(). libc only.
 *
 * Regions: a set of counting counters on the calling thread, one group,
 * read through each counter's page (no system call where the page can
 * give the value) at the start and the end of each region of code; the
 * deltas add up per counter, with an estimate scaled by the times where
 * the counters did not count all the time they were enabled.
 *
 *	struct pcm_event ev[2] = { { .name = "task-clock" },
 *				   { .name = "page-faults" } };
 *	struct pcm_value v[2];
 *	struct pcm_set set;
 *
 *	if (pcm_open(&set, ev, 2) == 0) {
 *		pcm_start(&set);
 *		work();
 *		pcm_stop(&set);
 *		pcm_read(&set, v, 2);	// v[i].value, v[i].scaled
 *		pcm_close(&set);
 *	}
 *
 * Overflow: a sampling counter on the calling thread that sends that
 * thread a signal every @period events; the library's handler reads
 * the counter's records (never blocking) and calls the program's.
 *
 * Every function that can fail returns 0 (or a count) or -errno, and a
 * failed open leaves nothing open behind it.
 *
 * Build: compile pc_monitor.c with the program, with the kernel's
 * exported headers (<linux/perf_counter.h>) on the include path.
 */
#ifndef _PC_MONITOR_H
#define _PC_MONITOR_H

#include <signal.h>
#include <stdint.h>

/* The most counters in a set. */
#define PCM_MAX_EVENTS		8

/* The most overflow counters open at once in a process. */
#define PCM_OVERFLOW_MAX	16

/* The bytes of records an overflow handler reads at a time. */
#define PCM_OVERFLOW_BUF	512

/* pcm_event.flags */
#define PCM_USER		0x1U	/* user mode only: no kernel, no hv */

/**
 * struct pcm_event - an event to count
 * @name:	a generic name ("cycles", "task-clock", ... see
 *		pcm_event_config()), or NULL to count @config
 * @config:	an event_config (PERF_COUNTER_CONFIG() or
 *		PERF_COUNTER_RAW_CONFIG()), when @name is NULL
 * @flags:	PCM_USER or 0
 */
struct pcm_event {
	const char	*name;
	uint64_t	config;
	unsigned int	flags;
};

/**
 * struct pcm_reading - one counter as read at one moment
 * @value:	its value
 * @enabled:	ns it has been enabled
 * @running:	ns it has counted
 */
struct pcm_reading {
	uint64_t	value;
	uint64_t	enabled;
	uint64_t	running;
};

/**
 * struct pcm_value - one counter over the regions since open or reset
 * @value:	events counted in them
 * @enabled:	ns it was enabled in them
 * @running:	ns it counted in them
 * @scaled:	the estimate of the events in them: each region's value
 *		times its enabled over its running time, where it ran
 *		for less than it was enabled; else the value
 */
struct pcm_value {
	uint64_t	value;
	uint64_t	enabled;
	uint64_t	running;
	uint64_t	scaled;
};

/**
 * struct pcm_set - counters of the calling thread, one group
 * @n:		how many
 * @fd:		their fds, the leader first
 * @config:	their event_configs
 * @page:	their counter pages, NULL where mmap() refused one
 * @start:	each counter as read by the last pcm_start()
 * @total:	each counter over the regions so far
 * @in_region:	between pcm_start() and pcm_stop()
 * @regions:	regions ended since open or reset
 * @page_reads:	reads taken from a counter page, no system call
 * @syscall_reads: reads that needed read(): the page could not give
 *		the value (a hardware counter that user mode cannot read,
 *		a counter off the CPU, no page)
 *
 * A set is its thread's: start, stop and read it in that thread.
 */
struct pcm_set {
	int			n;
	int			fd[PCM_MAX_EVENTS];
	uint64_t		config[PCM_MAX_EVENTS];
	const void		*page[PCM_MAX_EVENTS];
	struct pcm_reading	start[PCM_MAX_EVENTS];
	struct pcm_value	total[PCM_MAX_EVENTS];
	int			in_region;
	unsigned long		regions;
	unsigned long		page_reads;
	unsigned long		syscall_reads;
};

/**
 * struct pcm_sample - what a sample record says
 * @ip:		where the thread was when the period ran out
 * @time:	when, CLOCK_MONOTONIC ns
 * @value:	the counter's value then
 */
struct pcm_sample {
	uint64_t	ip;
	uint64_t	time;
	uint64_t	value;
};

struct pcm_overflow;

/*
 * An overflow handler: called in the signal handler, with the signal
 * blocked, after the records waiting have been read into @ov. It must
 * be async-signal-safe.
 */
typedef void (*pcm_overflow_fn)(struct pcm_overflow *ov,
				const siginfo_t *si, void *arg);

/**
 * struct pcm_overflow - a sampling counter that signals its thread
 * @fd:		the counter, -1 when not open
 * @signo:	the signal it sends
 * @config:	its event_config
 * @period:	events a sample
 * @handler:	the program's handler, and @arg, its argument
 * @arg:	passed to @handler
 * @signals:	the library's handler's calls for this counter, this
 *		one included when @handler reads it
 * @hups:	of them, signals with si_code POLL_HUP: a refresh ran out
 * @samples:	sample records read, in all
 * @batch:	sample records the signal being handled read
 * @lost:	records the queue dropped (LOST records read)
 * @last:	the newest sample read
 * @buf:	where the handler reads records into
 *
 * The counts change in the signal handler: read them in @handler, or
 * elsewhere through pcm_overflow_stats().
 */
struct pcm_overflow {
	int			fd;
	int			signo;
	uint64_t		config;
	uint64_t		period;
	pcm_overflow_fn		handler;
	void			*arg;
	unsigned int		signals;
	unsigned int		hups;
	unsigned int		samples;
	unsigned int		batch;
	uint64_t		lost;
	struct pcm_sample	last;
	uint64_t		buf[PCM_OVERFLOW_BUF / sizeof(uint64_t)];
};

/**
 * struct pcm_overflow_stats - an overflow counter's counts at one moment
 * @signals:	as struct pcm_overflow's
 * @hups:	as struct pcm_overflow's
 * @samples:	as struct pcm_overflow's
 * @lost:	as struct pcm_overflow's
 * @last:	as struct pcm_overflow's
 */
struct pcm_overflow_stats {
	unsigned int		signals;
	unsigned int		hups;
	unsigned int		samples;
	uint64_t		lost;
	struct pcm_sample	last;
};

int pcm_event_config(const char *name, uint64_t *config);
const char *pcm_event_name(uint64_t config);
uint64_t pcm_scale(uint64_t value, uint64_t enabled, uint64_t running);

int pcm_open(struct pcm_set *set, const struct pcm_event *events, int n);
int pcm_start(struct pcm_set *set);
int pcm_stop(struct pcm_set *set);
int pcm_read(const struct pcm_set *set, struct pcm_value *values, int n);
int pcm_read_now(struct pcm_set *set, struct pcm_reading *now, int n);
void pcm_reset(struct pcm_set *set);
void pcm_close(struct pcm_set *set);

int pcm_overflow_open(struct pcm_overflow *ov, const struct pcm_event *event,
		      uint64_t period, int signo, pcm_overflow_fn handler,
		      void *arg);
int pcm_overflow_start(struct pcm_overflow *ov,
		       const struct pcm_event *event, uint64_t period,
		       int signo, pcm_overflow_fn handler, void *arg);
int pcm_overflow_enable(struct pcm_overflow *ov);
int pcm_overflow_disable(struct pcm_overflow *ov);
int pcm_overflow_refresh(struct pcm_overflow *ov, int samples);
int pcm_overflow_period(struct pcm_overflow *ov, uint64_t period);
int pcm_overflow_stats(struct pcm_overflow *ov,
		       struct pcm_overflow_stats *stats);
int pcm_overflow_stop(struct pcm_overflow *ov);

#endif /* _PC_MONITOR_H */
