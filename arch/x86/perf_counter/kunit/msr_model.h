/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of the P6 and K7 counter MSRs, as seed 004 and the manuals
 * describe them, for running the real drivers under KUnit where the
 * emulated CPU does not count.
 *
 * Counters advance when the model runs events in user or kernel mode:
 * a counter counts if it is enabled (P6: the enable bit of EVNTSEL0,
 * for both; K7: its own) and its EVNTSEL has the mode's USR or OS bit.
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
#include <linux/perf_counter_hw.h>

#include "kunit/hw_model.h"

#include "../evntsel.h"
#include "../x86_pmu.h"

struct pc_msr_model {
	const struct pc_evntsel_pmu	*p;
	bool				p6;
	u64				ctr[4];
	u64				sel[4];
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
void pc_msr_model_run(struct pc_msr_model *m, u64 events, bool user);
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
