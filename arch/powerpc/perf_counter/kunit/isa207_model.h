/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of the Power ISA 2.07 performance monitor SPRs (POWER8), as
 * the ISA and the POWER8 user's manual describe them, for running the
 * real driver under KUnit: QEMU's PMU counts, but ignores MMCR2 and
 * never delivers an alert, so the logic behind those is proven here.
 *
 * Cycles and instructions happen in problem, privileged or hypervisor
 * state. PMC1-4 count them when their MMCR1 selector is PM_CYC (0x1e)
 * or PM_INST_CMPL (0x02), with unit and combine 0; PMC5 counts
 * instructions and PMC6 cycles, always. A PMC counts only if nothing
 * freezes it: MMCR0[FC], FC14 (PMC1-4), FC56 (PMC5-6), MMCR0[FCS/FCP]
 * and its own MMCR2 bits for the state. The PMCs are 32 bits wide and
 * wrap.
 *
 * The alert's condition is a level, as the ISA has it: whenever
 * MMCR0[PMAE] is set and a PMC whose condition (PMC1CE, PMCjCE for
 * PMC2-6) is enabled reads negative, after events or any register
 * write, an alert is signalled: PMAO is set, PMAE cleared, and the
 * alert is pending until the test delivers it to pc_isa207_irq(). The
 * state the kernel runs in is the test's to say: privileged, or
 * hypervisor state where pc_isa207_kernel_hv. Writes of bits the driver must leave clear (MMCR0's
 * other controls, MMCRA, bits of MMCR1 and MMCR2 it has no use for, PMC
 * bits above 31) and accesses to other SPRs count as faults.
 */
#ifndef _PC_ISA207_MODEL_H
#define _PC_ISA207_MODEL_H

#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/bits.h>

#include "kunit/hw_model.h"
/* The driver's descriptor and entry points: no register layout. */
#include "../isa207.h"

/*
 * The registers, spelled here from the manuals and not taken from where
 * the driver takes them (the kernel's asm/reg.h, isa207_regs.h): the
 * model reads and checks what the driver writes by these alone, so a
 * field the driver has in the wrong place is a difference the cases see.
 * The ISA numbers a 64-bit register's bits from the most significant, 0
 * to 63; so do these. Power ISA 2.07 Book III-S, chapter 9, "Performance
 * Monitor Facility": the SPR numbers, MMCR0 and MMCR2 (MMCR1's layout is
 * the implementation's: POWER8 Processor User's Manual for the
 * Single-Chip Module, the performance monitor's MMCR1).
 */
#define I207M_BIT(b)		BIT_ULL(63 - (b))
#define I207M_FIELD(first, last) GENMASK_ULL(63 - (first), 63 - (last))

#define I207M_SPR_MMCR2		785
#define I207M_SPR_MMCRA		786
#define I207M_SPR_PMC(n)	(786 + (n))	/* PMC1-6: 787-792 */
#define I207M_SPR_MMCR0		795
#define I207M_SPR_MMCR1		798
#define I207M_NR_PMCS		6

/* MMCR0: its bits 32-63 hold the controls */
#define I207M_MMCR0_FC		I207M_BIT(32)	/* freeze all PMCs */
#define I207M_MMCR0_FCS		I207M_BIT(33)	/* ... in privileged state */
#define I207M_MMCR0_FCP		I207M_BIT(34)	/* ... in problem state */
#define I207M_MMCR0_FCM1	I207M_BIT(35)	/* ... while MSR[PMM] = 1 */
#define I207M_MMCR0_FCM0	I207M_BIT(36)	/* ... while MSR[PMM] = 0 */
#define I207M_MMCR0_PMAE	I207M_BIT(37)	/* alert enable */
#define I207M_MMCR0_FCECE	I207M_BIT(38)	/* freeze on enabled condition */
#define I207M_MMCR0_PMCC	I207M_FIELD(44, 45)	/* problem state access */
#define I207M_PMCC_NONE		1	/* 0b01: no access in problem state */
#define I207M_MMCR0_PMC1CE	I207M_BIT(48)	/* PMC1 condition enable */
#define I207M_MMCR0_PMCJCE	I207M_BIT(49)	/* PMC2-6 condition enable */
#define I207M_MMCR0_PMAO	I207M_BIT(56)	/* an alert occurred */
#define I207M_MMCR0_FC14	I207M_BIT(58)	/* freeze PMC1-4 */
#define I207M_MMCR0_FC56	I207M_BIT(59)	/* freeze PMC5-6 */

/*
 * MMCR1, for PMC n of 1-4: the unit (bits 0-15, four a PMC), the
 * combine bit (28-31) and the 8-bit selector (32-63).
 */
#define I207M_MMCR1_UNIT(n)	I207M_FIELD(4 * ((n) - 1), 4 * ((n) - 1) + 3)
#define I207M_MMCR1_COMB(n)	I207M_BIT(28 + (n) - 1)
#define I207M_MMCR1_SEL(n)	I207M_FIELD(32 + 8 * ((n) - 1), \
					    32 + 8 * ((n) - 1) + 7)

/*
 * MMCR2: nine bits for each PMC n from bit 9(n-1); the freezes the
 * driver may set are FCnS (+0, privileged state), FCnP (+1, problem
 * state) and FCnH (+6, hypervisor state).
 */
#define I207M_MMCR2_FCS(n)	I207M_BIT(9 * ((n) - 1))
#define I207M_MMCR2_FCP(n)	I207M_BIT(9 * ((n) - 1) + 1)
#define I207M_MMCR2_FCH(n)	I207M_BIT(9 * ((n) - 1) + 6)

/* A PMC is 32 bits wide; its bit 0 is the one the alert watches. */
#define I207M_PMC_MSB		BIT_ULL(31)

/**
 * i207m_get() - a field's value
 * @reg:	the register
 * @field:	the field's mask, I207M_FIELD() or I207M_BIT()
 *
 * Return: the field, shifted down.
 */
static inline u64 i207m_get(u64 reg, u64 field)
{
	return (reg & field) >> __ffs64(field);
}

/**
 * i207m_put() - a value placed in a field
 * @field:	the field's mask
 * @val:	the value; what does not fit is dropped
 *
 * Return: the register's bits for it.
 */
static inline u64 i207m_put(u64 field, u64 val)
{
	return (val << __ffs64(field)) & field;
}

enum pc_i207_event { PC_I207_CYCLES, PC_I207_INSTR };
enum pc_i207_state { PC_I207_USER, PC_I207_KERNEL, PC_I207_HV };

struct pc_isa207_model {
	u64			mmcr0, mmcr1, mmcr2, mmcra;
	u64			pmc[I207M_NR_PMCS];
	bool			pending;
	unsigned int		alerts;
	unsigned int		faults;
	int			handled;
	struct pc_hw_regs	regs;
	struct pc_hw_cpu	cpuc;
};

struct pc_isa207_model *pc_isa207_model_new(struct kunit *test);
void pc_isa207_model_run(struct pc_isa207_model *m, enum pc_i207_event ev,
			 u32 n, enum pc_i207_state state);
int pc_isa207_model_deliver(struct pc_isa207_model *m);

#endif /* _PC_ISA207_MODEL_H */
