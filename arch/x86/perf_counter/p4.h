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
 */
#ifndef _ARCH_X86_PERF_COUNTER_P4_H
#define _ARCH_X86_PERF_COUNTER_P4_H

#include <linux/bits.h>
#include <linux/types.h>

#define P4_PERFCTR0		0x300
#define P4_CCCR0		0x360
#define P4_COUNTERS		18
#define P4_BROKEN_COUNTER	1	/* BPU counter 1: never used */

/* CCCR (Intel SDM vol. 3B, Pentium 4 performance monitoring) */
#define P4_CCCR_ENABLE		BIT_ULL(12)
#define P4_CCCR_ESCR_SELECT	GENMASK_ULL(15, 13)
#define P4_CCCR_ACTIVE_THREAD	GENMASK_ULL(17, 16)	/* 3: any thread */
#define P4_CCCR_COMPARE		BIT_ULL(18)
#define P4_CCCR_COMPLEMENT	BIT_ULL(19)
#define P4_CCCR_THRESHOLD	GENMASK_ULL(23, 20)
#define P4_CCCR_EDGE		BIT_ULL(24)
#define P4_CCCR_FORCE_OVF	BIT_ULL(25)
#define P4_CCCR_OVF_PMI_T0	BIT_ULL(26)
#define P4_CCCR_OVF_PMI_T1	BIT_ULL(27)
#define P4_CCCR_CASCADE		BIT_ULL(30)
#define P4_CCCR_OVF		BIT_ULL(31)
#define P4_CCCR_SELECT(s)	((u64)(s) << 13)

/* What a raw event's CCCR word may set. */
#define P4_CCCR_RAW		(P4_CCCR_ESCR_SELECT | P4_CCCR_COMPARE | \
				 P4_CCCR_COMPLEMENT | P4_CCCR_THRESHOLD | \
				 P4_CCCR_EDGE)

/* ESCR */
#define P4_ESCR_T1_USR		BIT_ULL(0)
#define P4_ESCR_T1_OS		BIT_ULL(1)
#define P4_ESCR_T0_USR		BIT_ULL(2)
#define P4_ESCR_T0_OS		BIT_ULL(3)
#define P4_ESCR_TAG_ENABLE	BIT_ULL(4)
#define P4_ESCR_TAG_VALUE	GENMASK_ULL(8, 5)
#define P4_ESCR_EVENT_MASK	GENMASK_ULL(24, 9)
#define P4_ESCR_EVENT_SELECT	GENMASK_ULL(30, 25)
#define P4_ESCR_EVENT(e, mask)	(((u64)(e) << 25) | ((u64)(mask) << 9))

/* What a raw event's ESCR word may set. */
#define P4_ESCR_RAW		(P4_ESCR_EVENT_SELECT | P4_ESCR_EVENT_MASK | \
				 P4_ESCR_TAG_VALUE | P4_ESCR_TAG_ENABLE)

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

#endif /* _ARCH_X86_PERF_COUNTER_P4_H */
