/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on x86: the Pentium 4's counter, CCCR and ESCR MSRs and
 * the fields of the CCCRs and ESCRs, as the P4 driver writes them. Only
 * the driver includes this: the KUnit register model (kunit/p4_model.h)
 * spells the fields itself, from the SDM, so that a bit wrong here is a
 * difference its cases see.
 */
#ifndef _ARCH_X86_PERF_COUNTER_P4_REGS_H
#define _ARCH_X86_PERF_COUNTER_P4_REGS_H

#include <linux/bits.h>
#include <linux/types.h>

#define P4_PERFCTR0		0x300
#define P4_CCCR0		0x360

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

#endif /* _ARCH_X86_PERF_COUNTER_P4_REGS_H */
