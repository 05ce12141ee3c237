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
#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/perf_counter_hw.h>

#include "kunit/hw_model.h"

/* The driver's descriptor and entry points: no register layout. */
#include "../x86_pmu.h"

/*
 * The registers, spelled here from the SDM and not taken from where the
 * driver takes them (p4_regs.h: the kernel's msr-index.h and
 * asm/perf_event_p4.h): the model reads and checks what the driver
 * writes by these alone, so a field the driver has in the wrong place is
 * a difference the cases see. Intel SDM vol. 3B, "Performance Monitoring
 * (Processors Based on Intel NetBurst Microarchitecture)": the table of
 * performance counter MSRs and their ESCRs; "ESCR MSRs" and "CCCR MSRs"
 * with their figures, in the layout of processors with Intel
 * Hyper-Threading Technology ("Performance Monitoring and Intel
 * Hyper-Threading Technology ...": the T0/T1 bits of an ESCR, a CCCR's
 * ACTIVE_THREAD and OVF_PMI_T0/T1).
 */
#define P4M_PERFCTR0		0x300	/* MSR_BPU_COUNTER0 ... */
#define P4M_CCCR0		0x360	/* MSR_BPU_CCCR0 ... */
#define P4M_COUNTERS		18	/* ... MSR_IQ_COUNTER5, its CCCR */
#define P4M_ESCR_FIRST		0x3a0	/* MSR_BSU_ESCR0 */
#define P4M_ESCR_LAST		0x3e1	/* MSR_CRU_ESCR5 */
#define P4M_BROKEN_COUNTER	1	/* counts nothing: the errata, above */

/* CCCR: bits 11:0, 29:28 and 63:32 reserved */
#define P4M_CCCR_ENABLE		BIT_ULL(12)
#define P4M_CCCR_ESCR_SELECT	GENMASK_ULL(15, 13)
#define P4M_CCCR_ACTIVE_THREAD	GENMASK_ULL(17, 16)
#define P4M_CCCR_COMPARE	BIT_ULL(18)
#define P4M_CCCR_COMPLEMENT	BIT_ULL(19)
#define P4M_CCCR_THRESHOLD	GENMASK_ULL(23, 20)
#define P4M_CCCR_EDGE		BIT_ULL(24)
#define P4M_CCCR_FORCE_OVF	BIT_ULL(25)
#define P4M_CCCR_OVF_PMI_T0	BIT_ULL(26)
#define P4M_CCCR_OVF_PMI_T1	BIT_ULL(27)
#define P4M_CCCR_CASCADE	BIT_ULL(30)
#define P4M_CCCR_OVF		BIT_ULL(31)
#define P4M_CCCR_RESERVED	(GENMASK_ULL(11, 0) | GENMASK_ULL(29, 28) | \
				 GENMASK_ULL(63, 32))

/* ACTIVE_THREAD: 0 none, 1 one thread active, 2 both, 3 either (any) */
#define P4M_ACTIVE_ONE		1
#define P4M_ACTIVE_ANY		3

/* ESCR: bits 63:31 reserved */
#define P4M_ESCR_T1_USR		BIT_ULL(0)
#define P4M_ESCR_T1_OS		BIT_ULL(1)
#define P4M_ESCR_T0_USR		BIT_ULL(2)
#define P4M_ESCR_T0_OS		BIT_ULL(3)
#define P4M_ESCR_TAG_ENABLE	BIT_ULL(4)
#define P4M_ESCR_TAG_VALUE	GENMASK_ULL(8, 5)
#define P4M_ESCR_EVENT_MASK	GENMASK_ULL(24, 9)
#define P4M_ESCR_EVENT_SELECT	GENMASK_ULL(30, 25)
#define P4M_ESCR_RESERVED	GENMASK_ULL(63, 31)

/**
 * p4m_escr_event() - an ESCR's event select and event mask
 * @event:	the event select
 * @mask:	the event mask
 *
 * Return: the ESCR's bits for them, as the SDM places them.
 */
static inline u64 p4m_escr_event(u8 event, u16 mask)
{
	return FIELD_PREP(P4M_ESCR_EVENT_SELECT, event) |
	       FIELD_PREP(P4M_ESCR_EVENT_MASK, mask);
}

/**
 * p4m_cccr_select() - a CCCR's ESCR select
 * @select:	the ESCR's number in its counter group
 *
 * Return: the CCCR's bits for it, as the SDM places them.
 */
static inline u64 p4m_cccr_select(u8 select)
{
	return FIELD_PREP(P4M_CCCR_ESCR_SELECT, select);
}

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
	u64			ctr[P4M_COUNTERS];
	u64			cccr[P4M_COUNTERS];
	/* by MSR - P4M_ESCR_FIRST */
	u64			escr[P4M_ESCR_LAST - P4M_ESCR_FIRST + 1];
	u64			ctr_pending[P4M_COUNTERS]; /* N15: first writes */
	u64			counted[P4M_COUNTERS];	/* events each counted */
	unsigned int		handler_events;	/* at each access in it */
	bool			in_handler;
	unsigned int		faults;
	bool			unflagged;	/* wraps leave OVF clear */
	struct p4_thread	t[2];
};

#define P4M_MASK40	GENMASK_ULL(39, 0)

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
