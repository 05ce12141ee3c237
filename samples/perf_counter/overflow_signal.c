// SPDX-License-Identifier: GPL-2.0
/*
 * overflow_signal: a program that watches itself with the self-monitoring
 * library, tools/perf_counter/lib/pc_monitor.[ch]. It shows
 *
 *  - a region: task-clock, page-faults and context-switches counted, as
 *    one group, over code that touches REGION_PAGES fresh pages, read
 *    through the counter pages without a system call (it prints how
 *    many reads needed read() after all: none, for these events);
 *  - overflow signals: a real-time signal every PERIOD page faults while
 *    it touches SIGNAL_PAGES pages, whose handler notes each sample's
 *    address and value (async-signal-safe: no printf(), no malloc());
 *  - a refresh: a counter allowed REFRESH samples and no more, which
 *    then stops itself; its last signal says POLL_HUP.
 *
 * Build it in this directory with the kernel's exported headers (make
 * headers_install), the library's source beside it:
 *
 *	gcc -static -O2 -Wall -Wextra -isystem <kernel headers> \
 *		-I ../../tools/perf_counter/lib overflow_signal.c \
 *		../../tools/perf_counter/lib/pc_monitor.c
 *
 * It counts user mode only, so an unprivileged user may run it at the
 * default kernel.perf_event_paranoid (2). It exits 0 when the counts
 * fit the work, 1 with a message otherwise. On a kernel without
 * overflow signals it says so and shows the region alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pc_monitor.h"

#define REGION_PAGES	256
#define SIGNAL_PAGES	2000
#define PERIOD		100	/* page faults a signal */
#define REFRESH		3	/* samples the refreshed counter may take */

#define MAX_NOTES	64

/* What the handler notes; written only in the handler. */
struct notes {
	unsigned int	n;
	unsigned int	hup;		/* signals that said POLL_HUP */
	uint64_t	ip[MAX_NOTES];
	uint64_t	value[MAX_NOTES];
};

static struct notes every, refreshed;

/* The overflow handler: called in the signal handler, after the read. */
static void note(struct pcm_overflow *ov, const siginfo_t *si, void *arg)
{
	struct notes *notes = arg;

	if (si->si_code == POLL_HUP)
		notes->hup++;
	if (notes->n < MAX_NOTES && ov->batch) {
		notes->ip[notes->n] = ov->last.ip;
		notes->value[notes->n] = ov->last.value;
		notes->n++;
	}
}

/* The work: the first write to each page of a fresh mapping faults. */
static int touch_pages(int pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (p == MAP_FAILED) {
		fprintf(stderr, "overflow_signal: mmap: %s\n", strerror(errno));
		return -1;
	}
	for (i = 0; i < pages; i++)
		p[i * psz] = 1;
	munmap(p, pages * psz);
	return 0;
}

static int count_region(void)
{
	const struct pcm_event events[3] = {
		{ .name = "task-clock", .flags = PCM_USER },
		{ .name = "page-faults", .flags = PCM_USER },
		{ .name = "context-switches", .flags = PCM_USER },
	};
	struct pcm_value v[3];
	struct pcm_set set;
	int err;

	err = pcm_open(&set, events, 3);
	if (err) {
		fprintf(stderr, "overflow_signal: pcm_open: %s\n",
			strerror(-err));
		return -1;
	}
	err = pcm_start(&set);
	if (!err && touch_pages(REGION_PAGES))
		err = -EIO;
	if (!err)
		err = pcm_stop(&set);
	if (!err && pcm_read(&set, v, 3) != 3)
		err = -EINVAL;
	if (err) {
		fprintf(stderr, "overflow_signal: region: %s\n",
			strerror(-err));
		pcm_close(&set);
		return -1;
	}
	printf("overflow_signal: region of %d pages: task-clock %" PRIu64
	       " ns, page-faults %" PRIu64 ", context-switches %" PRIu64
	       " (%lu reads from the counter pages, %lu by read())\n",
	       REGION_PAGES, v[0].scaled, v[1].scaled, v[2].scaled,
	       set.page_reads, set.syscall_reads);
	pcm_close(&set);
	if (v[1].value < REGION_PAGES) {
		fprintf(stderr, "overflow_signal: %" PRIu64 " page faults, fewer than the %d pages touched\n",
			v[1].value, REGION_PAGES);
		return -1;
	}
	return 0;
}

/* 0, 1 for no overflow signals in this kernel, or -1. */
static int take_signals(void)
{
	const struct pcm_event faults = { .name = "page-faults",
					  .flags = PCM_USER };
	struct pcm_overflow_stats st;
	struct pcm_overflow ov;
	unsigned int i;
	int err;

	err = pcm_overflow_start(&ov, &faults, PERIOD, SIGRTMIN, note,
				 &every);
	if (err == -EOPNOTSUPP) {
		printf("overflow_signal: this kernel has no overflow signals\n");
		return 1;
	}
	if (err) {
		fprintf(stderr, "overflow_signal: pcm_overflow_start: %s\n",
			strerror(-err));
		return -1;
	}
	err = touch_pages(SIGNAL_PAGES);
	pcm_overflow_stats(&ov, &st);
	pcm_overflow_stop(&ov);
	if (err)
		return -1;
	printf("overflow_signal: %d pages, a signal every %d page faults: %u signals, %u samples, %" PRIu64
	       " lost\n", SIGNAL_PAGES, PERIOD, st.signals, st.samples,
	       st.lost);
	for (i = 0; i < every.n && i < 3; i++)
		printf("overflow_signal:   sample at 0x%" PRIx64 ", value %" PRIu64
		       "\n", every.ip[i], every.value[i]);
	if (st.samples < SIGNAL_PAGES / PERIOD) {
		fprintf(stderr, "overflow_signal: %u samples, fewer than %d\n",
			st.samples, SIGNAL_PAGES / PERIOD);
		return -1;
	}

	/* Opened disabled; the refresh lets it take REFRESH samples. */
	err = pcm_overflow_open(&ov, &faults, PERIOD, SIGRTMIN, note,
				&refreshed);
	if (!err)
		err = pcm_overflow_refresh(&ov, REFRESH);
	if (err) {
		fprintf(stderr, "overflow_signal: refresh: %s\n",
			strerror(-err));
		pcm_overflow_stop(&ov);
		return -1;
	}
	err = touch_pages(SIGNAL_PAGES);
	pcm_overflow_stats(&ov, &st);
	pcm_overflow_stop(&ov);
	if (err)
		return -1;
	printf("overflow_signal: refreshed for %d samples: %u signals, %u samples, %u POLL_HUP, stopped at %" PRIu64
	       "\n", REFRESH, st.signals, st.samples, st.hups, st.last.value);
	if (st.samples != REFRESH || st.hups != 1) {
		fprintf(stderr, "overflow_signal: the refresh did not stop the counter after %d samples\n",
			REFRESH);
		return -1;
	}
	return 0;
}

int main(void)
{
	if (count_region())
		return 1;
	if (take_signals() < 0)
		return 1;
	printf("overflow_signal: ok\n");
	return 0;
}
