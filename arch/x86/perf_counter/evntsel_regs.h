/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on x86: the fields of an EVNTSEL, as the P6 and K7-family
 * drivers write them. Only the drivers include this: the KUnit register
 * model (kunit/msr_model.h) spells the fields itself, from the manuals,
 * so that a bit wrong here is a difference its cases see.
 */
#ifndef _ARCH_X86_PERF_COUNTER_EVNTSEL_REGS_H
#define _ARCH_X86_PERF_COUNTER_EVNTSEL_REGS_H

#include <linux/bits.h>

/* EVNTSEL fields, the same on P6 and K7 (Intel SDM, AMD BKDG, perfctr's low-level notes) */
#define PC_EVNTSEL_EVENT	0x000000ffULL	/* event select */
#define PC_EVNTSEL_UMASK	0x0000ff00ULL	/* unit mask */
#define PC_EVNTSEL_USR		BIT_ULL(16)	/* count at CPL 3 */
#define PC_EVNTSEL_OS		BIT_ULL(17)	/* count at CPL 0 */
#define PC_EVNTSEL_EDGE		BIT_ULL(18)
#define PC_EVNTSEL_PC		BIT_ULL(19)	/* pin control: reserved */
#define PC_EVNTSEL_INT		BIT_ULL(20)	/* APIC interrupt on overflow */
#define PC_EVNTSEL_EN		BIT_ULL(22)	/* P6: EVNTSEL0 only, gates both */
#define PC_EVNTSEL_INV		BIT_ULL(23)
#define PC_EVNTSEL_CMASK	0xff000000ULL
#define PC_EVNTSEL_EVENT_HI	0xf00000000ULL	/* AMD family 10h+: event 11:8 */

/* What a raw event may set: everything but the bits the driver owns. */
#define PC_EVNTSEL_RAW		(PC_EVNTSEL_EVENT | PC_EVNTSEL_UMASK | \
				 PC_EVNTSEL_EDGE | PC_EVNTSEL_INV | \
				 PC_EVNTSEL_CMASK)

#endif /* _ARCH_X86_PERF_COUNTER_EVNTSEL_REGS_H */
