// SPDX-License-Identifier: GPL-2.0
/*
 * pc_monitor: count the calling thread with perf_counter_open(), over
 * regions of code read through the counter pages, and take a signal
 * every so many events. See pc_monitor.h for the interface and
 * Documentation/perf_counter/tool.rst for a walk through it.
 *
 * The counter page is read with tools/perf_counter/pc_self.h. The
 * signals are the ones the uapi header describes: fcntl(F_SETOWN_EX)
 * to the calling thread, F_SETSIG and O_ASYNC on a sampling counter,
 * si_fd the counter's fd, si_code POLL_IN when records are ready and
 * POLL_HUP when a refresh has run out.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* F_SETOWN_EX, F_SETSIG, struct f_owner_ex */
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_counter.h>

#include "pc_monitor.h"
#include "../pc_self.h"

#ifndef __NR_perf_counter_open
#error "no __NR_perf_counter_open: build with -isystem <kernel headers>/include"
#endif

#define PCM_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)

/* What an overflow counter records: where, when and its value. */
#define PCM_RECORD	(PERF_RECORD_IRQ | PERF_RECORD_TIME | PERF_RECORD_VALUE)
#define PCM_SAMPLE_WORDS	3

/* read()s of records one signal makes at most. */
#define PCM_DRAIN_READS		64

struct pcm_name {
	const char	*name;
	unsigned int	type;
	unsigned int	id;
};

/* The generic names, as perf-counter knows them; the first of an event
 * is the one pcm_event_name() gives.
 */
static const struct pcm_name pcm_names[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE,
	  PERF_COUNT_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_BUS_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_PAGE_FAULTS_MAJ },
};

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define PCM_NR_NAMES	ARRAY_SIZE(pcm_names)

/**
 * pcm_event_config() - the event_config of an event name
 * @name:	a generic name (cycles, instructions, cache-references,
 *		cache-misses, branches, branch-misses, bus-cycles,
 *		cpu-clock, task-clock, page-faults, context-switches,
 *		cpu-migrations, minor-faults, major-faults and their
 *		short forms), or rNNN: a raw event, NNN in hex
 * @config:	where the event_config goes
 *
 * Return: 0, -EINVAL for a malformed raw code (or a NULL argument), or
 * -ENOENT for a name the table does not hold.
 */
int pcm_event_config(const char *name, uint64_t *config)
{
	uint64_t code = 0;
	unsigned int i, digit;
	const char *p;

	if (!name || !config)
		return -EINVAL;
	for (i = 0; i < PCM_NR_NAMES; i++) {
		if (!strcmp(name, pcm_names[i].name)) {
			*config = PERF_COUNTER_CONFIG(pcm_names[i].type,
						      pcm_names[i].id);
			return 0;
		}
	}
	if (name[0] != 'r')
		return -ENOENT;
	/* r, then 1 to 16 hex digits that fit the 63 bits of a raw code */
	if (!name[1] || strlen(name + 1) > 16)
		return -EINVAL;
	for (p = name + 1; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digit = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			digit = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			digit = *p - 'A' + 10;
		else
			return -EINVAL;
		code = code << 4 | digit;
	}
	if (code > PERF_COUNTER_CONFIG_MASK)
		return -EINVAL;
	*config = PERF_COUNTER_RAW_CONFIG(code);
	return 0;
}

/**
 * pcm_event_name() - the generic name of an event_config
 * @config:	an event_config
 *
 * Return: the name, or NULL for a raw event or one the table lacks.
 */
const char *pcm_event_name(uint64_t config)
{
	unsigned int i;

	for (i = 0; i < PCM_NR_NAMES; i++)
		if (config == PERF_COUNTER_CONFIG(pcm_names[i].type,
						  pcm_names[i].id))
			return pcm_names[i].name;
	return NULL;
}

/**
 * pcm_scale() - estimate the events of a counter that did not always count
 * @value:	events counted
 * @enabled:	ns the counter was enabled
 * @running:	ns of those it counted
 *
 * Return: @value * @enabled / @running, where @running is less than
 * @enabled (without overflow: in floating point when the product does
 * not fit, at most UINT64_MAX); @value itself where the counter ran all
 * the time it was enabled, or never ran.
 */
uint64_t pcm_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
	double d;

	if (!running || running >= enabled)
		return value;
	if (!value || enabled <= UINT64_MAX / value)
		return value * enabled / running;
	d = (double)value * (double)enabled / (double)running;
	return d >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)d;
}

static int pcm_sys_open(struct perf_counter_hw_event *hw, int group_fd)
{
	return syscall(__NR_perf_counter_open, hw, 0, -1, group_fd, 0);
}

/* The config @ev names, or -errno. */
static int pcm_event_resolve(const struct pcm_event *ev, uint64_t *config)
{
	if (ev->flags & ~PCM_USER)
		return -EINVAL;
	if (!ev->name) {
		*config = ev->config;
		return 0;
	}
	return pcm_event_config(ev->name, config);
}

static void pcm_hw_init(struct perf_counter_hw_event *hw, uint64_t config,
			unsigned int flags)
{
	memset(hw, 0, sizeof(*hw));		/* reserved fields 0 */
	hw->event_config = config;
	if (flags & PCM_USER) {
		hw->exclude_kernel = 1;
		hw->exclude_hv = 1;
	}
}

/* An empty set: nothing open, no fd. */
static void pcm_clear(struct pcm_set *set)
{
	int i;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < PCM_MAX_EVENTS; i++)
		set->fd[i] = -1;
}

/**
 * pcm_close() - close a set's counters
 * @set:	a set pcm_open() opened, or one it failed to open
 *
 * Unmaps the counter pages, closes the members, then the leader. The
 * set reads as empty afterwards.
 */
void pcm_close(struct pcm_set *set)
{
	long psz = sysconf(_SC_PAGESIZE);
	int i;

	if (!set)
		return;
	for (i = set->n - 1; i >= 0; i--) {
		if (set->page[i])
			munmap((void *)set->page[i], psz);
		if (set->fd[i] >= 0)
			close(set->fd[i]);
	}
	pcm_clear(set);
}

/**
 * pcm_open() - open counters on the calling thread as one group
 * @set:	the set to fill
 * @events:	what to count, the group's leader first
 * @n:		how many, 1 to PCM_MAX_EVENTS
 *
 * Each counter counts the calling thread on any CPU, with both times,
 * and its page is mapped for reads without a system call. The leader
 * is opened disabled and enabled once the group is whole, so that all
 * count from the same moment; they count until pcm_close().
 *
 * Return: 0, or -errno (-EINVAL for bad arguments, -ENOENT for an
 * unknown name, else perf_counter_open()'s error); nothing is left open
 * on failure.
 */
int pcm_open(struct pcm_set *set, const struct pcm_event *events, int n)
{
	uint64_t config[PCM_MAX_EVENTS];
	struct perf_counter_hw_event hw;
	struct pc_self self;
	int i, fd, err;

	if (!set || !events || n < 1 || n > PCM_MAX_EVENTS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		err = pcm_event_resolve(&events[i], &config[i]);
		if (err)
			return err;
	}
	pcm_clear(set);
	for (i = 0; i < n; i++) {
		pcm_hw_init(&hw, config[i], events[i].flags);
		hw.read_format = PCM_TIMES;
		hw.disabled = i == 0;
		fd = pcm_sys_open(&hw, i ? set->fd[0] : -1);
		if (fd < 0) {
			err = -errno;
			goto fail;
		}
		set->fd[i] = fd;
		set->config[i] = config[i];
		set->n = i + 1;
		/* no page (an old kernel): every read is a read() */
		pc_self_map(&self, fd, PCM_TIMES);
		set->page[i] = self.page;
	}
	if (ioctl(set->fd[0], PERF_COUNTER_IOC_ENABLE, 0)) {
		err = -errno;
		goto fail;
	}
	return 0;
fail:
	pcm_close(set);
	return err;
}

/* Counter @i now: from its page if it can, else read(). */
static int pcm_read_counter(struct pcm_set *set, int i, struct pcm_reading *r)
{
	struct pc_self self = {
		.fd = set->fd[i],
		.read_format = PCM_TIMES,
		.page = set->page[i],
	};
	struct pc_self_values v;
	int how;

	errno = 0;
	how = pc_self_read(&self, &v);
	if (how < 0)
		return errno ? -errno : -EIO;
	if (how == PC_SELF_PAGE)
		set->page_reads++;
	else
		set->syscall_reads++;
	r->value = v.value;
	r->enabled = v.time_enabled;
	r->running = v.time_running;
	return 0;
}

static int pcm_read_all(struct pcm_set *set, struct pcm_reading *r)
{
	int i, err;

	for (i = 0; i < set->n; i++) {
		err = pcm_read_counter(set, i, &r[i]);
		if (err)
			return err;
	}
	return 0;
}

/**
 * pcm_start() - begin a region
 * @set:	an open set, not in a region
 *
 * Reads every counter (through its page where it can).
 *
 * Return: 0, -EINVAL if @set is not open or already in a region, or
 * the error of a read() the page could not spare.
 */
int pcm_start(struct pcm_set *set)
{
	int err;

	if (!set || set->n < 1 || set->in_region)
		return -EINVAL;
	err = pcm_read_all(set, set->start);
	if (err)
		return err;
	set->in_region = 1;
	return 0;
}

/* @b - @a, or 0 if an extrapolated clock went back a little. */
static uint64_t pcm_delta(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/**
 * pcm_stop() - end a region
 * @set:	a set in a region
 *
 * Reads every counter again and adds what each counted since
 * pcm_start() to its total, scaled by the region's times.
 *
 * Return: 0, -EINVAL if @set is not in a region, or a read()'s error
 * (the region then stays open).
 */
int pcm_stop(struct pcm_set *set)
{
	struct pcm_reading now[PCM_MAX_EVENTS];
	uint64_t dv, de, dr;
	int i, err;

	if (!set || !set->in_region)
		return -EINVAL;
	err = pcm_read_all(set, now);
	if (err)
		return err;
	for (i = 0; i < set->n; i++) {
		dv = pcm_delta(set->start[i].value, now[i].value);
		de = pcm_delta(set->start[i].enabled, now[i].enabled);
		dr = pcm_delta(set->start[i].running, now[i].running);
		set->total[i].value += dv;
		set->total[i].enabled += de;
		set->total[i].running += dr;
		set->total[i].scaled += pcm_scale(dv, de, dr);
	}
	set->in_region = 0;
	set->regions++;
	return 0;
}

/**
 * pcm_read() - the counts of the regions so far
 * @set:	an open set
 * @values:	where they go, one per counter in the order opened
 * @n:		room in @values
 *
 * Return: the counters copied (the smaller of @n and the set's), or
 * -EINVAL.
 */
int pcm_read(const struct pcm_set *set, struct pcm_value *values, int n)
{
	int i;

	if (!set || !values || n < 0)
		return -EINVAL;
	for (i = 0; i < n && i < set->n; i++)
		values[i] = set->total[i];
	return i;
}

/**
 * pcm_read_now() - the counters' values and times since pcm_open()
 * @set:	an open set
 * @now:	where they go, one per counter in the order opened
 * @n:		room in @now
 *
 * Return: the counters read (the smaller of @n and the set's), or
 * -errno.
 */
int pcm_read_now(struct pcm_set *set, struct pcm_reading *now, int n)
{
	int i, err;

	if (!set || !now || n < 0)
		return -EINVAL;
	for (i = 0; i < n && i < set->n; i++) {
		err = pcm_read_counter(set, i, &now[i]);
		if (err)
			return err;
	}
	return i;
}

/**
 * pcm_reset() - forget the regions so far
 * @set:	an open set
 *
 * The totals, the region count and the read counts go back to 0 (the
 * counters themselves run on); a region in progress is abandoned.
 */
void pcm_reset(struct pcm_set *set)
{
	if (!set)
		return;
	memset(set->total, 0, sizeof(set->total));
	set->in_region = 0;
	set->regions = 0;
	set->page_reads = 0;
	set->syscall_reads = 0;
}

/*
 * Overflow counters. The signal handler finds its counter by si_fd in
 * pcm_active[]; a signal that is none of ours goes on to the handler
 * that was installed before ours. A signal number's old action is
 * kept in pcm_sigs[] while any of our counters uses it and put back
 * when the last one stops. Both tables change under pcm_lock_word, a
 * spin lock taken only by open and stop (never in the handler, which
 * reads the tables alone).
 */
struct pcm_sigslot {
	int			signo;
	int			users;
	struct sigaction	old;
};

static struct pcm_overflow *pcm_active[PCM_OVERFLOW_MAX];
static struct pcm_sigslot pcm_sigs[PCM_OVERFLOW_MAX];
static int pcm_lock_word;

static void pcm_lock(void)
{
	while (__atomic_exchange_n(&pcm_lock_word, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void pcm_unlock(void)
{
	__atomic_store_n(&pcm_lock_word, 0, __ATOMIC_RELEASE);
}

/* Pass a signal that is not ours to the action installed before ours. */
static void pcm_chain(int sig, siginfo_t *si, void *uc)
{
	struct sigaction *old = NULL;
	int i;

	for (i = 0; i < PCM_OVERFLOW_MAX; i++)
		if (pcm_sigs[i].users && pcm_sigs[i].signo == sig)
			old = &pcm_sigs[i].old;
	/* SIG_DFL and SIG_IGN: the signal is dropped */
	if (!old || old->sa_handler == SIG_DFL || old->sa_handler == SIG_IGN)
		return;
	if (old->sa_flags & SA_SIGINFO)
		old->sa_sigaction(sig, si, uc);
	else
		old->sa_handler(sig);
}

/*
 * Read every record waiting, never blocking (the fd is O_NONBLOCK):
 * the queue never fills while signals come. Async-signal-safe: read()
 * into @ov's own buffer, no allocation. Returns the samples read.
 */
static unsigned int pcm_drain(struct pcm_overflow *ov)
{
	struct perf_counter_record_header h;
	uint64_t w[PCM_SAMPLE_WORDS];
	unsigned int got = 0, reads;
	size_t off, len;
	ssize_t n;

	for (reads = 0; reads < PCM_DRAIN_READS; reads++) {
		n = read(ov->fd, ov->buf, sizeof(ov->buf));
		if (n <= 0)
			break;		/* EAGAIN: empty; 0: a counter in error */
		len = n;
		for (off = 0; off + sizeof(h) <= len; off += h.size) {
			memcpy(&h, (char *)ov->buf + off, sizeof(h));
			if (h.size < sizeof(h) || h.size % 8 ||
			    h.size > len - off)
				return got;	/* malformed: stop here */
			if (h.type == PERF_COUNTER_REC_SAMPLE &&
			    h.size >= sizeof(h) + sizeof(w)) {
				memcpy(w, (char *)ov->buf + off + sizeof(h),
				       sizeof(w));
				ov->last.ip = w[0];
				ov->last.time = w[1];
				ov->last.value = w[2];
				ov->samples++;
				got++;
			} else if (h.type == PERF_COUNTER_REC_LOST &&
				   h.size >= sizeof(h) + sizeof(w[0])) {
				memcpy(w, (char *)ov->buf + off + sizeof(h),
				       sizeof(w[0]));
				ov->lost += w[0];
			}
		}
	}
	return got;
}

/* The counter @sig came for, or NULL. */
static struct pcm_overflow *pcm_find(int sig, const siginfo_t *si)
{
	struct pcm_overflow *ov;
	int i;

	/* Only the kernel's POLL_* signals carry si_fd. */
	if (si->si_code < POLL_IN || si->si_code > POLL_HUP)
		return NULL;
	for (i = 0; i < PCM_OVERFLOW_MAX; i++) {
		ov = __atomic_load_n(&pcm_active[i], __ATOMIC_ACQUIRE);
		if (ov && ov->fd == si->si_fd && ov->signo == sig)
			return ov;
	}
	return NULL;
}

static void pcm_dispatch(int sig, siginfo_t *si, void *uc)
{
	struct pcm_overflow *ov = pcm_find(sig, si);

	if (!ov) {
		pcm_chain(sig, si, uc);
		return;
	}
	ov->batch = pcm_drain(ov);
	ov->signals++;
	if (si->si_code == POLL_HUP)
		ov->hups++;
	ov->handler(ov, si, ov->arg);
}

/* The SA_SIGINFO handler of every signal number an overflow uses. */
static void pcm_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;

	pcm_dispatch(sig, si, uc);
	errno = saved;
}

/* Our handler on @signo, the old action kept: 0 or -errno; locked. */
static int pcm_sig_get(int signo)
{
	struct pcm_sigslot *free_slot = NULL;
	struct sigaction act;
	int i;

	for (i = 0; i < PCM_OVERFLOW_MAX; i++) {
		if (pcm_sigs[i].users && pcm_sigs[i].signo == signo) {
			pcm_sigs[i].users++;
			return 0;
		}
		if (!pcm_sigs[i].users && !free_slot)
			free_slot = &pcm_sigs[i];
	}
	if (!free_slot)
		return -ENOSPC;
	memset(&act, 0, sizeof(act));
	act.sa_sigaction = pcm_signal;
	act.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&act.sa_mask);
	if (sigaction(signo, &act, &free_slot->old))
		return -errno;
	free_slot->signo = signo;
	free_slot->users = 1;
	return 0;
}

/* One user of @signo fewer: the last puts the old action back; locked. */
static void pcm_sig_put(int signo)
{
	int i;

	for (i = 0; i < PCM_OVERFLOW_MAX; i++) {
		if (!pcm_sigs[i].users || pcm_sigs[i].signo != signo)
			continue;
		if (--pcm_sigs[i].users == 0)
			sigaction(signo, &pcm_sigs[i].old, NULL);
		return;
	}
}

static int pcm_claim(struct pcm_overflow *ov)
{
	int i;

	for (i = 0; i < PCM_OVERFLOW_MAX; i++) {
		if (!pcm_active[i]) {
			__atomic_store_n(&pcm_active[i], ov, __ATOMIC_RELEASE);
			return 0;
		}
	}
	return -ENOSPC;
}

static void pcm_release(struct pcm_overflow *ov)
{
	int i;

	for (i = 0; i < PCM_OVERFLOW_MAX; i++)
		if (pcm_active[i] == ov)
			__atomic_store_n(&pcm_active[i], NULL,
					 __ATOMIC_RELEASE);
}

/* Signals to the calling thread, @signo with siginfo, never blocking. */
static int pcm_arm(int fd, int signo)
{
	struct f_owner_ex owner = {
		.type = F_OWNER_TID,
		.pid = syscall(SYS_gettid),
	};
	int fl;

	if (fcntl(fd, F_SETOWN_EX, &owner) || fcntl(fd, F_SETSIG, signo))
		return -errno;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_ASYNC | O_NONBLOCK))
		return -errno;
	/*
	 * The refresh ioctl and the overflow signals are one step of the
	 * ABI (the uapi header brings them together). A kernel before it
	 * takes O_ASYNC silently and never signals; its counters refuse
	 * the ioctl as unknown (ENOTTY), where a newer one refuses the
	 * out-of-range count 0 (EINVAL) and changes nothing.
	 */
	if (ioctl(fd, PERF_COUNTER_IOC_REFRESH, 0) && errno == ENOTTY)
		return -EOPNOTSUPP;
	return 0;
}

static int pcm_signo_ok(int signo)
{
	return signo >= 1 && signo <= SIGRTMAX && signo != SIGKILL &&
	       signo != SIGSTOP;
}

/**
 * pcm_overflow_open() - a sampling counter that will signal this thread
 * @ov:		the overflow counter to fill; it must stay in place until
 *		pcm_overflow_stop()
 * @event:	what to count
 * @period:	events a sample, and a signal
 * @signo:	the signal (a real-time one queues every signal; SIGIO and
 *		the like merge while one is pending)
 * @handler:	called in the signal handler, async-signal-safe
 * @arg:	its last argument
 *
 * Opens the counter disabled on the calling thread, installs the
 * library's SA_SIGINFO handler for @signo (the action before it is
 * kept, and called for any @signo that is not one of our counters'),
 * and has the counter signal this thread. Start it with
 * pcm_overflow_enable() or pcm_overflow_refresh().
 *
 * Return: 0; -EINVAL for bad arguments; -ENOENT for an unknown event
 * name; -EOPNOTSUPP where the kernel has no overflow signals; -ENOSPC
 * when PCM_OVERFLOW_MAX are open; or the error of the open, sigaction()
 * or fcntl(). On failure nothing is left open and @signo's action is
 * as it was.
 */
int pcm_overflow_open(struct pcm_overflow *ov, const struct pcm_event *event,
		      uint64_t period, int signo, pcm_overflow_fn handler,
		      void *arg)
{
	struct perf_counter_hw_event hw;
	uint64_t config;
	int fd, err;

	if (!ov || !event || !handler || !period || !pcm_signo_ok(signo))
		return -EINVAL;
	err = pcm_event_resolve(event, &config);
	if (err)
		return err;
	memset(ov, 0, sizeof(*ov));
	ov->fd = -1;
	pcm_hw_init(&hw, config, event->flags);
	hw.irq_period = period;
	hw.record_type = PCM_RECORD;
	hw.disabled = 1;
	fd = pcm_sys_open(&hw, -1);
	if (fd < 0)
		return -errno;
	ov->signo = signo;
	ov->config = config;
	ov->period = period;
	ov->handler = handler;
	ov->arg = arg;
	ov->fd = fd;

	pcm_lock();
	err = pcm_sig_get(signo);
	if (!err) {
		err = pcm_claim(ov);
		if (err)
			pcm_sig_put(signo);
	}
	pcm_unlock();
	if (err)
		goto fail_close;
	err = pcm_arm(fd, signo);
	if (err)
		goto fail_unclaim;
	return 0;

fail_unclaim:
	close(fd);			/* disabled all along: no signal sent */
	fd = -1;
	pcm_lock();
	pcm_release(ov);
	pcm_sig_put(signo);
	pcm_unlock();
fail_close:
	if (fd >= 0)
		close(fd);
	ov->fd = -1;
	return err;
}

/**
 * pcm_overflow_enable() - let an overflow counter count, with no end
 * @ov:	an open overflow counter
 *
 * Return: 0 or -errno.
 */
int pcm_overflow_enable(struct pcm_overflow *ov)
{
	if (!ov || ov->fd < 0)
		return -EINVAL;
	return ioctl(ov->fd, PERF_COUNTER_IOC_ENABLE, 0) ? -errno : 0;
}

/**
 * pcm_overflow_disable() - stop an overflow counter counting
 * @ov:	an open overflow counter
 *
 * Async-signal-safe: a handler may call it.
 *
 * Return: 0 or -errno.
 */
int pcm_overflow_disable(struct pcm_overflow *ov)
{
	if (!ov || ov->fd < 0)
		return -EINVAL;
	return ioctl(ov->fd, PERF_COUNTER_IOC_DISABLE, 0) ? -errno : 0;
}

/**
 * pcm_overflow_start() - pcm_overflow_open(), then count at once
 * @ov:		as pcm_overflow_open()
 * @event:	as pcm_overflow_open()
 * @period:	as pcm_overflow_open()
 * @signo:	as pcm_overflow_open()
 * @handler:	as pcm_overflow_open()
 * @arg:	as pcm_overflow_open()
 *
 * Return: as pcm_overflow_open(), or the enable's error (the counter
 * then closed again).
 */
int pcm_overflow_start(struct pcm_overflow *ov,
		       const struct pcm_event *event, uint64_t period,
		       int signo, pcm_overflow_fn handler, void *arg)
{
	int err = pcm_overflow_open(ov, event, period, signo, handler, arg);

	if (err)
		return err;
	err = pcm_overflow_enable(ov);
	if (err)
		pcm_overflow_stop(ov);
	return err;
}

/**
 * pcm_overflow_refresh() - count for so many more samples, then stop
 * @ov:		an open overflow counter
 * @samples:	1 to INT_MAX, added to what an earlier refresh left
 *
 * Enables the counter; it disables itself once it has written
 * @samples more samples, and that last signal has si_code POLL_HUP.
 * Async-signal-safe: a handler may call it.
 *
 * Return: 0 or -errno (-EINVAL for @samples out of range).
 */
int pcm_overflow_refresh(struct pcm_overflow *ov, int samples)
{
	if (!ov || ov->fd < 0 || samples < 1)
		return -EINVAL;
	if (ioctl(ov->fd, PERF_COUNTER_IOC_REFRESH, samples))
		return -errno;
	return 0;
}

/**
 * pcm_overflow_period() - change an overflow counter's period
 * @ov:		an open overflow counter
 * @period:	events a sample from now on
 *
 * A period that has already run past @period ends at the next event.
 *
 * Return: 0 or -errno.
 */
int pcm_overflow_period(struct pcm_overflow *ov, uint64_t period)
{
	if (!ov || ov->fd < 0 || !period)
		return -EINVAL;
	if (ioctl(ov->fd, PERF_COUNTER_IOC_PERIOD, &period))
		return -errno;
	ov->period = period;
	return 0;
}

/**
 * pcm_overflow_stats() - an overflow counter's counts, taken whole
 * @ov:		an overflow counter, open or stopped
 * @stats:	where the counts go
 *
 * Outside the handler, the signal is blocked while they are copied: no
 * signal lands between two of them.
 *
 * Return: 0, or -EINVAL.
 */
int pcm_overflow_stats(struct pcm_overflow *ov,
		       struct pcm_overflow_stats *stats)
{
	sigset_t block, old;

	if (!ov || !stats || !pcm_signo_ok(ov->signo))
		return -EINVAL;
	sigemptyset(&block);
	sigaddset(&block, ov->signo);
	sigprocmask(SIG_BLOCK, &block, &old);
	/* and the compiler's loads after the block, before the unblock */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	stats->signals = ov->signals;
	stats->hups = ov->hups;
	stats->samples = ov->samples;
	stats->lost = ov->lost;
	stats->last = ov->last;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

/**
 * pcm_overflow_stop() - close an overflow counter
 * @ov:	an overflow counter, open or not (then nothing is done)
 *
 * Call it in the thread that opened @ov, not in a signal handler. With
 * the signal blocked: disables the counter, reads the records left
 * (counted in @ov, the handler not called), closes it, takes any of
 * its signals still pending, and, if no other counter uses the signal,
 * puts back the action it had before.
 *
 * Return: 0, or the disable's -errno (the counter is closed anyway).
 */
int pcm_overflow_stop(struct pcm_overflow *ov)
{
	struct timespec zero = { 0, 0 };
	sigset_t block, old;
	siginfo_t si;
	int err = 0;

	if (!ov || ov->fd < 0)
		return 0;
	sigemptyset(&block);
	sigaddset(&block, ov->signo);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (ioctl(ov->fd, PERF_COUNTER_IOC_DISABLE, 0))
		err = -errno;
	pcm_drain(ov);
	pcm_lock();
	pcm_release(ov);
	pcm_unlock();
	close(ov->fd);
	ov->fd = -1;
	/* Ours now find no counter; any other is dispatched as it would be. */
	while (sigtimedwait(&block, &si, &zero) == ov->signo)
		pcm_dispatch(ov->signo, &si, NULL);
	pcm_lock();
	pcm_sig_put(ov->signo);
	pcm_unlock();
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}
