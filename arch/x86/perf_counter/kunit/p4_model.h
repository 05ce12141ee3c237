/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of one hyper-threaded Pentium 4 core's performance-monitoring
 * MSRs, as the Intel SDM (vol. 3B, "Performance Monitoring (Processors
 * Based on Intel NetBurst Microarchitecture)") describes them, for
 * running the P4 driver under KUnit where the emulated CPU does not
 * count.
 *
 * One register file, two threads: 18 counters of 40 bits, their CCCRs
 * and the 45 ESCRs belong to the core, and each thread has its own
 * local APIC (LVTPC entry, pending interrupt). A counter counts the
 * events of thread N when its CCCR is enabled with ACTIVE_THREAD "one
 * thread" or "any" (the model runs one thread at a time), the ESCR its
 * select routes to — by the SDM's table of ESCRs and the counters they
 * feed, written out here by hand, not taken from the driver — has TN_OS
 * or TN_USR for the mode, and that ESCR's event select and mask mean
 * something on that ESCR (p4_model.c: what each counts). A wrap sets the
 * CCCR's OVF flag; with OVF_PMI_TN it raises thread N's interrupt, lost
 * if LVTPC is masked; it is delivered as LVTPC says (an NMI, or the
 * vector, which must be ours); delivery masks LVTPC, and unmasking it
 * while an OVF flag with that thread's PMI bit is set raises it again
 * (the line stays asserted). While the handler runs, the thread it
 * interrupted goes on counting kernel events: @handler_events of every
 * kind at each register access it makes.
 *
 * Faults (a test ends by checking there were none): reserved bits
 * written, a CCCR enabled with a select its counter has no ESCR for,
 * MSRs the core lacks. Errata: a counter write takes only when the same
 * value is written again at once (N15); counter 1 does not count and
 * enabling its CCCR is a fault; with @unflagged a wrap raises the
 * interrupt without setting OVF.
 */
#ifndef _PC_P4_MODEL_H
#define _PC_P4_MODEL_H

#include <kunit/test.h>
#include <linux/perf_counter_hw.h>

#include "kunit/hw_model.h"

#include "../p4.h"
#include "../x86_pmu.h"

struct p4_model;

/* One hyper-thread: its view of the registers and its local APIC. */
struct p4_thread {
	struct p4_model		*core;
	unsigned int		id;
	struct pc_hw_regs	regs;		/* the core's, by this thread */
	struct pc_hw_cpu	cpuc;
	u32			lvtpc;
	unsigned long		pending;	/* counters that raised it */
	unsigned int		pmis_lost;
	unsigned int		unclaimed;	/* deliveries found nothing */
	unsigned int		nmis;		/* deliveries as NMI ... */
	unsigned int		vectors;	/* ... and as our vector */
	unsigned int		writes;		/* MSR and LVTPC writes it made */
};

struct p4_model {
	u64			ctr[P4_COUNTERS];
	u64			cccr[P4_COUNTERS];
	u64			escr[0x42];	/* by MSR - 0x3a0 */
	u64			ctr_pending[P4_COUNTERS]; /* N15: first writes */
	u64			counted[P4_COUNTERS];	/* events each counted */
	unsigned int		handler_events;	/* at each access in it */
	bool			in_handler;
	unsigned int		faults;
	bool			unflagged;	/* wraps leave OVF clear */
	struct p4_thread	t[2];
};

#define P4_MASK40	GENMASK_ULL(39, 0)

struct p4_model *p4_model_new(struct kunit *test);
u16 p4_model_route(unsigned int idx, unsigned int select);
void p4_model_run_kinds(struct p4_model *m, unsigned int thread,
			const u64 *kinds, bool user);
void p4_model_run(struct p4_model *m, u64 events, bool user);
int p4_model_service_thread(struct p4_thread *t);

/* Thread 0's interrupt, delivered if raised; what the handler said. */
static inline int p4_model_service(struct p4_model *m)
{
	return p4_model_service_thread(&m->t[0]);
}

#endif
