/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on 64-bit Book3S PowerPC: the performance monitor
 * registers of Power ISA 2.07 (POWER8) as the driver writes them. The
 * SPR numbers (SPRN_MMCR0/1/2, SPRN_MMCRA, SPRN_PMC1-6) and the MMCR0
 * bits are the kernel's asm/reg.h's, in its 64-bit numbering (the driver
 * is built for Book3S-64 only; reg.h's MMCR0_PMXE is the ISA's PMAE);
 * here are the fields it lacks. Only the driver includes this: the KUnit
 * register model (kunit/isa207_model.h) spells the fields itself, from
 * the ISA and the POWER8 user's manual, so that a bit the driver has
 * wrong is a difference its cases see.
 */
#ifndef _PC_PPC_ISA207_REGS_H
#define _PC_PPC_ISA207_REGS_H

#include <linux/bits.h>
#include <asm/reg.h>

/*
 * MMCR0 bits reg.h does not name (of PMCC's values it has only 0b10,
 * MMCR0_PMCC_U6); the ISA numbers bits from the most significant, 0 to 63.
 */
#define PC_MMCR0_8_PMCC_NONE	BIT_ULL(18)	/* 44-45 = 0b01: no access */
#define PC_MMCR0_8_FC14		BIT_ULL(5)	/* 58: freeze PMC1-4 */

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
