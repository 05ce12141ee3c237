/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on 32-bit PowerPC: the performance monitor SPRs of the
 * 604, 604e, 750 and 74xx and the fields of MMCR0 and MMCR2, as the
 * driver writes them. Only the driver includes this: the KUnit register
 * model (kunit/spr_model.h) spells the fields itself, from the manuals,
 * so that a bit wrong here is a difference its cases see.
 */
#ifndef _PC_PPC_MMCR_REGS_H
#define _PC_PPC_MMCR_REGS_H

/* The SPRs, by number. */
#define PC_SPR_MMCR2	944
#define PC_SPR_PMC5	945
#define PC_SPR_PMC6	946
#define PC_SPR_MMCR0	952
#define PC_SPR_PMC1	953
#define PC_SPR_PMC2	954
#define PC_SPR_MMCR1	956
#define PC_SPR_PMC3	957
#define PC_SPR_PMC4	958

/* MMCR0; the manuals number bits from the most significant, 0 to 31. */
#define PC_MMCR0_FC		0x80000000	/* 0: freeze all counters */
#define PC_MMCR0_FCS		0x40000000	/* 1: freeze in supervisor state */
#define PC_MMCR0_FCP		0x20000000	/* 2: freeze in problem state */
#define PC_MMCR0_FCM1		0x10000000	/* 3: freeze while marked */
#define PC_MMCR0_FCM0		0x08000000	/* 4: freeze while not marked */
#define PC_MMCR0_PMXE		0x04000000	/* 5: exception enable */
#define PC_MMCR0_FCECE		0x02000000	/* 6: freeze on condition */
#define PC_MMCR0_TBSEL		0x01800000	/* 7-8: time base bit */
#define PC_MMCR0_TBEE		0x00400000	/* 9: time base condition */
#define PC_MMCR0_THRESHOLD	0x003f0000	/* 10-15 */
#define PC_MMCR0_PMC1CE		0x00008000	/* 16: PMC1 condition */
#define PC_MMCR0_PMCJCE		0x00004000	/* 17: PMC2-6 condition */
#define PC_MMCR0_TRIGGER	0x00002000	/* 18 */
#define PC_MMCR0_PMC1SEL	0x00001fc0	/* 19-25 */
#define PC_MMCR0_PMC2SEL	0x0000003f	/* 26-31 */
#define PC_MMCR0_FREEZE_MODE	(PC_MMCR0_FCS | PC_MMCR0_FCP)

#define PC_MMCR2_THRESHMULT	0x80000000	/* threshold x32, not x2 */

#define PC_PMC_OVERFLOW		0x80000000	/* bit 0 of every PMC */

#endif /* _PC_PPC_MMCR_REGS_H */
