/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on 64-bit Book3S PowerPC: the performance monitor SPRs of
 * Power ISA 2.07 (POWER8) and the fields of MMCR0, MMCR1 and MMCR2, as
 * the driver writes them. Only the driver includes this: the KUnit
 * register model (kunit/isa207_model.h) spells the fields itself, from
 * the ISA and the POWER8 user's manual, so that a bit wrong here is a
 * difference its cases see.
 */
#ifndef _PC_PPC_ISA207_REGS_H
#define _PC_PPC_ISA207_REGS_H

#include <linux/bits.h>

/* The 64-bit SPRs, by number. */
#define PC_SPR8_MMCR2	785
#define PC_SPR8_MMCRA	786
#define PC_SPR8_PMC1	787	/* PMC1-6 are 787-792 */
#define PC_SPR8_MMCR0	795
#define PC_SPR8_MMCR1	798

/* MMCR0; the ISA numbers bits from the most significant, 0 to 63. */
#define PC_MMCR0_8_FC		BIT_ULL(31)	/* 32: freeze all */
#define PC_MMCR0_8_FCS		BIT_ULL(30)	/* 33: in privileged state */
#define PC_MMCR0_8_FCP		BIT_ULL(29)	/* 34: in problem state */
#define PC_MMCR0_8_PMAE		BIT_ULL(26)	/* 37: alert enable */
#define PC_MMCR0_8_FCECE	BIT_ULL(25)	/* 38: freeze on alert */
#define PC_MMCR0_8_PMCC	GENMASK_ULL(19, 18) /* 44-45: problem state */
#define PC_MMCR0_8_PMCC_NONE	BIT_ULL(18)	/* 0b01: no access there */
#define PC_MMCR0_8_PMC1CE	BIT_ULL(15)	/* 48: PMC1 condition */
#define PC_MMCR0_8_PMCJCE	BIT_ULL(14)	/* 49: PMC2-6 condition */
#define PC_MMCR0_8_PMAO		BIT_ULL(7)	/* 56: an alert occurred */
#define PC_MMCR0_8_FC14		BIT_ULL(5)	/* 58: freeze PMC1-4 */
#define PC_MMCR0_8_FC56		BIT_ULL(4)	/* 59: freeze PMC5-6 */

/*
 * MMCR2: nine bits for each PMC n, from bit 9(n-1): FCnS (privileged),
 * FCnP (problem), ..., FCnH (hypervisor) at offset 6.
 */
#define PC_MMCR2_FCS(n)		BIT_ULL(63 - 9 * ((n) - 1))
#define PC_MMCR2_FCP(n)		BIT_ULL(62 - 9 * ((n) - 1))
#define PC_MMCR2_FCH(n)		BIT_ULL(57 - 9 * ((n) - 1))

/* MMCR1, for PMC n of 1-4: unit (bits 4(n-1) to +3), combine, selector. */
#define PC_MMCR1_UNIT_SHIFT(n)	(60 - 4 * ((n) - 1))
#define PC_MMCR1_COMB_SHIFT(n)	(35 - ((n) - 1))
#define PC_MMCR1_SEL_SHIFT(n)	(24 - 8 * ((n) - 1))

#define PC_ISA207_OVERFLOW	0x80000000	/* bit 0 of every PMC */

#endif /* _PC_PPC_ISA207_REGS_H */
