/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of the P6 and AMD counter MSRs, as perfctr's low-level notes and the manuals
 * describe them, for running the real drivers under KUnit where the
 * emulated CPU does not count.
 *
 * The model is of a part (struct pc_model_part): P6, K7, K8, AMD
 * families 10h, 15h, 17h/19h and Zen 4, with their registers — P6's two
 * counters, AMD's four legacy ones and, from family 15h, the six core
 * counters at 0xC0010200 + 2i (the legacy MSRs aliases of the first
 * four), and on Zen 4 PerfCntrGlobalCtl — and with what each event code
 * and unit mask counts there.
 *
 * Counters advance when the model runs a workload (struct
 * pc_model_work: so many cycles, instructions, branches, cache accesses
 * and misses, ...) in user or kernel mode: a counter counts if it is
 * enabled (P6: the enable bit of EVNTSEL0, for both; AMD: its own, and
 * on Zen 4 its PerfCntrGlobalCtl bit too) and its EVNTSEL has the mode's
 * USR or OS bit, and then it counts what its event code and unit mask
 * mean on that part (the part's events[]): an event the part does not
 * have, one with edge, invert or a counter mask (which the model does
 * not follow), and one on a counter its constraints forbid count
 * nothing. pc_msr_model_run() runs a workload in which every kind
 * advances by the same number.
 *
 * They wrap at their width; a wrap with INT set raises the interrupt
 * (a pending bit, serviced by pc_msr_model_service()). P6 counter
 * writes keep the low 32 bits and sign-extend bit 31. Writes of
 * reserved bits, and accesses to MSRs the model lacks, are counted as
 * faults: a test ends by checking there were none.
 *
 * As on the silicon, the counters go on counting while the overflow
 * handler runs: pc_msr_model_storm() delivers interrupts for as long as
 * they are raised, with @handler_events kernel-mode events happening at
 * each register access the handler makes.
 *
 * Interrupts go through the local APIC's LVTPC entry, as on the CPU:
 * delivered as it says, an NMI (@nmis) or the fixed vector it names
 * (@vectors; one that is not PERF_COUNTER_VECTOR is a fault); one
 * raised while it is masked is lost (@pmis_lost), and with
 * @mask_on_pmi (the P6 family's later parts, as P4) delivering one
 * masks it, for the handler to unmask. An interrupt stays raised until
 * delivered, whatever the driver does to the counters meanwhile: it
 * may come after its counter was stopped or moved, and one interrupt
 * may be for several counters. The handler run is the driver's own
 * entry, pc_x86_pmi(); @handled is what it returned last, @unclaimed
 * counts the deliveries it did not claim (the NMI layer's "unknown").
 */
#ifndef _PC_MSR_MODEL_H
#define _PC_MSR_MODEL_H

#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/perf_counter_hw.h>

#include "kunit/hw_model.h"

/* The drivers' descriptors and entry points: no register layout. */
#include "../evntsel.h"
#include "../x86_pmu.h"

/*
 * The registers, spelled here from the manuals and not taken from where
 * the drivers take them (the kernel's asm/perf_event.h and msr-index.h,
 * amd.h): the model reads and checks what the drivers write by these
 * alone, so a field a driver has in the wrong place is a difference the
 * cases see.
 *
 * The event select register: P6's EVNTSEL0/1 (Intel SDM vol. 3B,
 * "Performance Monitoring (P6 Family Processor)", "PerfEvtSel0 and
 * PerfEvtSel1 MSRs") and AMD's PerfEvtSel0-3 / PERF_CTL0-5 (AMD64 APM
 * vol. 2, 24593, section 13.2, "Performance Monitoring Counters",
 * PerfEvtSeln; BKDG 26094 chapter 10 and 31116, MSRC001_00[03:00]).
 * Bit 21 is reserved on both; P6's bit 22 (EN) is reserved in EVNTSEL1,
 * whose counter EVNTSEL0's EN starts too. Bits 35:32, EventSelect[11:8],
 * exist from AMD family 10h; bits 41:40 (host/guest only, AMD) are not
 * the drivers' to set, and the model takes them as reserved.
 */
#define MSRM_EVNTSEL_EVENT	GENMASK_ULL(7, 0)	/* EventSelect[7:0] */
#define MSRM_EVNTSEL_UMASK	GENMASK_ULL(15, 8)	/* UnitMask */
#define MSRM_EVNTSEL_USR	BIT_ULL(16)	/* count at CPL 1-3 */
#define MSRM_EVNTSEL_OS		BIT_ULL(17)	/* count at CPL 0 */
#define MSRM_EVNTSEL_EDGE	BIT_ULL(18)	/* E: edge detect */
#define MSRM_EVNTSEL_PC		BIT_ULL(19)	/* pin control */
#define MSRM_EVNTSEL_INT	BIT_ULL(20)	/* APIC interrupt on overflow */
#define MSRM_EVNTSEL_EN		BIT_ULL(22)	/* enable counter(s) */
#define MSRM_EVNTSEL_INV	BIT_ULL(23)	/* invert the counter mask */
#define MSRM_EVNTSEL_CMASK	GENMASK_ULL(31, 24)	/* counter mask */
#define MSRM_EVNTSEL_EVENT_HI	GENMASK_ULL(35, 32)	/* EventSelect[11:8] */

/* The MSRs. P6: SDM vol. 3B, as above; vol. 4, the P6 family's MSRs. */
#define MSRM_P6_PERFCTR0	0xc1		/* PerfCtr0, PerfCtr1 at 0xc2 */
#define MSRM_P6_EVNTSEL0	0x186		/* EVNTSEL1 at 0x187 */
/* AMD: four legacy counters (BKDG 26094; APM vol. 2, 13.2) */
#define MSRM_AMD_EVNTSEL0	0xc0010000	/* PerfEvtSel0-3 */
#define MSRM_AMD_PERFCTR0	0xc0010004	/* PerfCtr0-3 */
/*
 * and from family 15h six core counters, PERF_CTL[i] and PERF_CTR[i]
 * interleaved, the legacy MSRs aliases of the first four (APM vol. 2,
 * 13.2; BKDG 42301, MSRC001_020[B:0])
 */
#define MSRM_AMD_PERF_CTL(i)	(0xc0010200 + 2 * (i))
#define MSRM_AMD_PERF_CTR(i)	(0xc0010201 + 2 * (i))
/*
 * PerfMonV2 (APM vol. 2, 13.2): PerfCntrGlobalStatus, PerfCntrGlobalCtl,
 * PerfCntrGlobalStatusClr; in each, bit i is core counter i.
 */
#define MSRM_AMD_GLOBAL_STATUS		0xc0000300
#define MSRM_AMD_GLOBAL_CTL		0xc0000301
#define MSRM_AMD_GLOBAL_STATUS_CLR	0xc0000302
#define MSRM_AMD_GLOBAL_CTR(i)		BIT_ULL(i)

/**
 * msrm_evntsel() - an event select register's event and unit mask
 * @event:	the event select, 12 bits (bits 11:8 in EventSelect[11:8])
 * @umask:	the unit mask
 *
 * Return: the register's bits for them, as the manuals place them.
 */
static inline u64 msrm_evntsel(u16 event, u8 umask)
{
	return FIELD_PREP(MSRM_EVNTSEL_EVENT, event & 0xff) |
	       FIELD_PREP(MSRM_EVNTSEL_EVENT_HI, event >> 8) |
	       FIELD_PREP(MSRM_EVNTSEL_UMASK, umask);
}

/* What the model's workloads are made of: what an event can count. */
enum pc_model_kind {
	PC_KIND_CYCLES,		/* core cycles, not halted */
	PC_KIND_INSTRUCTIONS,	/* retired */
	PC_KIND_BRANCHES,	/* retired branches */
	PC_KIND_BRANCH_MISSES,	/* retired mispredicted branches */
	PC_KIND_L1D_ACCESSES,	/* data cache accesses */
	PC_KIND_L1D_MISSES,	/* data cache misses */
	PC_KIND_L2_REQUESTS,	/* requests to the L2 */
	PC_KIND_L2_MISSES,	/* of those, the misses */
	PC_KIND_BUS_CYCLES,	/* bus clocks with data ready (P6) */
	PC_KIND_FP_OPS,		/* floating-point operations */
	PC_KIND_FP_ASSISTS,	/* microcode FP assists */
	PC_KIND_MULS,		/* multiplies */
	PC_KIND_DIVS,		/* divides */
	PC_KIND_DIV_BUSY,	/* cycles the divider is busy */
	PC_KINDS
};

/* A workload: how many of each kind happen. */
struct pc_model_work {
	u64	n[PC_KINDS];
};

/* What an event code and unit mask count on a part. */
struct pc_model_event {
	u16	event;		/* event select, 11:0 */
	u8	umask;
	u8	kind;		/* enum pc_model_kind */
	u8	counters;	/* the counters it counts on; 0: every one */
};

/**
 * struct pc_model_part - a part the model is of
 * @name:	for messages
 * @p6:		P6's registers and rules, else AMD's
 * @nr_legacy:	counters at the legacy MSRs (P6 0xC1, AMD 0xC0010004)
 * @nr_core:	AMD core counters (PerfCtrExtCore), 0 if none
 * @perfmon_v2:	PerfCntrGlobalCtl gates the counters
 * @event_hi:	EVNTSEL bits 35:32 (event select 11:8) exist
 * @events:	what each known event code and unit mask counts
 * @nr_events:	how many
 */
struct pc_model_part {
	const char			*name;
	bool				p6;
	unsigned int			nr_legacy;
	unsigned int			nr_core;
	bool				perfmon_v2;
	bool				event_hi;
	const struct pc_model_event	*events;
	unsigned int			nr_events;
};

extern const struct pc_model_part pc_model_p6, pc_model_k7, pc_model_k8,
	pc_model_f10h, pc_model_f15h, pc_model_zen, pc_model_zen4;

#define PC_MODEL_MAX_COUNTERS	6

struct pc_msr_model {
	const struct pc_evntsel_pmu	*p;
	const struct pc_model_part	*part;
	bool				p6;
	u64				ctr[PC_MODEL_MAX_COUNTERS];
	u64				sel[PC_MODEL_MAX_COUNTERS];
	u64				counted[PC_MODEL_MAX_COUNTERS]; /* all, each */
	u64				global_ctl;
	u64				global_status;	/* sticky wraps */
	unsigned long			pending;
	unsigned int			faults;
	unsigned int			handler_events;
	bool				in_handler;
	/* The state the storm's interrupts find; NULL: the kernel's. */
	struct pt_regs			*irq_regs;
	/* Run once inside the next counter read, after the value is taken. */
	void				(*in_read)(struct pc_msr_model *m);
	struct pc_hw_regs		regs;
	struct pc_hw_cpu		cpuc;
	u32				lvtpc;
	bool				mask_on_pmi;
	unsigned int			pmis_lost;
	int				handled;
	unsigned int			unclaimed;
	unsigned int			nmis;
	unsigned int			vectors;
	struct pc_x86_msr_safe		safe;
};

struct pc_msr_model *pc_msr_model_new(struct kunit *test,
				      const struct pc_evntsel_pmu *p);
struct pc_msr_model *pc_msr_model_new_part(struct kunit *test,
					   const struct pc_evntsel_pmu *p,
					   const struct pc_model_part *part);
void pc_msr_model_run(struct pc_msr_model *m, u64 events, bool user);
void pc_msr_model_work(struct pc_msr_model *m, const struct pc_model_work *w,
		       bool user);
int pc_msr_model_service(struct pc_msr_model *m);
int pc_msr_model_nmi(struct pc_msr_model *m);
unsigned int pc_msr_model_storm(struct pc_msr_model *m, unsigned int max);

/*
 * Run @chunk-sized batches of events through @counter (on @m) until
 * @total is passed, serving each interrupt; the events run, and in
 * *@wraps how many interrupts the driver handled.
 */
u64 pc_msr_model_wrap_run(struct pc_msr_model *m, struct perf_counter *counter,
			  u64 chunk, u64 total, unsigned int *wraps);

/* A counter decoded by the model's driver; NULL if refused. */
static inline struct perf_counter *
pc_model_counter(struct kunit *test, struct pc_msr_model *m,
		 struct perf_counter_hw_event *hw)
{
	return pc_hw_model_counter(test, m->cpuc.pmu, hw, NULL);
}

static inline void pc_model_counter_free(struct pc_msr_model *m,
					 struct perf_counter *counter)
{
	pc_hw_model_free(&m->cpuc, counter);
}

#endif
