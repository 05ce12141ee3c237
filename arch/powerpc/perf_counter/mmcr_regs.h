/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on 32-bit PowerPC: the performance monitor registers of
 * the 604, 604e, 750 and 74xx as the driver writes them. The SPR numbers
 * (SPRN_MMCR0 ... SPRN_PMC6), the MMCR0 bits and the PMCn selector
 * fields of MMCR0 and MMCR1 are the kernel's asm/reg.h's, in its 32-bit
 * numbering (the driver is built for Book3S-32 only); here are those it
 * lacks. Only the driver includes this: the KUnit register model
 * (kunit/spr_model.h) spells the fields itself, from the manuals, so
 * that a bit the driver has wrong is a difference its cases see.
 */
#ifndef _PC_PPC_MMCR_REGS_H
#define _PC_PPC_MMCR_REGS_H

#include <asm/reg.h>

/*
 * Not in reg.h: MMCR0's THRESHOLD, MMCR2's THRESHMULT, a PMC's overflow
 * bit. The manuals number bits from the most significant, 0 to 31.
 */
#define PC_MMCR0_THRESHOLD	0x003f0000	/* 10-15 */
#define PC_MMCR0_FREEZE_MODE	(MMCR0_FCS | MMCR0_FCP)

#define PC_MMCR2_THRESHMULT	0x80000000	/* threshold x32, not x2 */

#define PC_PMC_OVERFLOW		0x80000000	/* bit 0 of every PMC */

#endif /* _PC_PPC_MMCR_REGS_H */
