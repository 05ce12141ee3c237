/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on x86: Intel Pentium 4 (NetBurst, family 15) registers.
 *
 * 18 counters of 40 bits at 0x300-0x311, each with a CCCR at
 * 0x360-0x371; 45 ESCRs (event selection) at 0x3A0-0x3E1. Counters come
 * in four groups — BPU 0-3, MS 4-7, FLAME 8-11, IQ 12-17 — and each
 * ESCR feeds one half of one group: an ESCR0 counters 0 and 1 of its
 * group (IQ: 12, 13 and 16), an ESCR1 counters 2 and 3 (IQ: 14, 15, 17).
 * A counter's CCCR names the ESCR that feeds it by the ESCR's select
 * number within the group. An ESCR holds one event, so it serves one
 * counter at a time.
 *
 * Here: the driver's ESCR table and the raw event format. The driver
 * takes the MSRs from the kernel's msr-index.h and the fields of the
 * CCCRs and ESCRs from its asm/perf_event_p4.h, through p4_regs.h,
 * which only the driver includes: the KUnit register model
 * (kunit/p4_model.h) spells them itself, from the SDM.
 */
#ifndef _ARCH_X86_PERF_COUNTER_P4_H
#define _ARCH_X86_PERF_COUNTER_P4_H

#include <linux/bits.h>
#include <linux/types.h>

#define P4_COUNTERS		18
#define P4_BROKEN_COUNTER	1	/* BPU counter 1: never used */

/* A raw event: the CCCR word in bits 31..0, the ESCR's MSR above. */
#define P4_RAW_ESCR_SHIFT	32
#define P4_RAW_ESCR_MASK	GENMASK_ULL(47, 32)

enum p4_group { P4_BPU, P4_MS, P4_FLAME, P4_IQ };

/**
 * struct p4_escr - one ESCR
 * @msr:	its MSR
 * @group:	the counter group it feeds
 * @select:	its number in that group, as a CCCR's ESCR_SELECT
 * @half:	0 (an ESCR0: the group's first counters) or 1
 */
struct p4_escr {
	u16	msr;
	u8	group;
	u8	select;
	u8	half;
};

extern const struct p4_escr p4_escrs[];
extern const unsigned int p4_nr_escrs;

int p4_escr_index(u32 msr);
unsigned int p4_counters_of(const struct p4_escr *e, u8 *idx);
unsigned int p4_thread_of(unsigned int apicid, unsigned int siblings);

/* Threads per core for the shared-event rule; 0: smp_num_siblings. */
extern unsigned int p4_threads_per_core;

#endif /* _ARCH_X86_PERF_COUNTER_P4_H */
