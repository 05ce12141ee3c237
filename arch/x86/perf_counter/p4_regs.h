/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on x86: the Pentium 4's registers as the P4 driver writes
 * them — the counter, CCCR and ESCR MSRs from the kernel's msr-index.h,
 * the fields of the CCCRs and ESCRs from its asm/perf_event_p4.h, and
 * what a raw event may set. Only the driver includes this: the KUnit
 * register model (kunit/p4_model.h) spells the fields itself, from the
 * SDM, so that a bit the driver takes wrongly is a difference its cases
 * see.
 */
#ifndef _ARCH_X86_PERF_COUNTER_P4_REGS_H
#define _ARCH_X86_PERF_COUNTER_P4_REGS_H

#include <asm/msr-index.h>
#include <asm/perf_event_p4.h>

/*
 * What a raw event's CCCR word may set. Ours: the kernel's
 * P4_CONFIG_MASK_CCCR differs (ACTIVE_THREAD and the reserved bits in,
 * the ESCR select out).
 */
#define P4_CCCR_RAW		(P4_CCCR_ESCR_SELECT_MASK | P4_CCCR_COMPARE | \
				 P4_CCCR_COMPLEMENT | P4_CCCR_THRESHOLD_MASK | \
				 P4_CCCR_EDGE)

/*
 * What a raw event's ESCR word may set: the kernel's P4_CONFIG_MASK_ESCR
 * (event select, event mask, tag value and enable), which it leaves
 * unbracketed.
 */
#define P4_ESCR_RAW		(P4_CONFIG_MASK_ESCR)

#endif /* _ARCH_X86_PERF_COUNTER_P4_REGS_H */
