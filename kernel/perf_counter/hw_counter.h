/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: what the hardware counter files share and nothing else
 * includes: hw_pmu.c (the driver and its registers' users),
 * hw_counter.c (a counter on a register), hw_overflow.c (the overflow
 * interrupt, late interrupts and throttling) and hw_poll.c.
 */
#ifndef _KERNEL_PERF_COUNTER_HW_COUNTER_H
#define _KERNEL_PERF_COUNTER_HW_COUNTER_H

#include <linux/perf_counter_hw.h>

#include "internal.h"

/* Raw register values fit in this many bits of pc_hw_counter.prev. */
#define PC_HW_RAW_BITS	48

/* The fewest events a register is ever loaded to overflow after. */
#define PC_HW_MIN_LOAD	2

/*
 * prev holds the raw value in its low PC_HW_RAW_BITS and, above them, a
 * generation that each load of the register bumps. A fold interrupted
 * between its read and its cmpxchg by an overflow that folds and loads
 * the register again finds prev changed even when the load wrote the
 * same raw value as before (every load of a counting counter does), so
 * it reads again instead of counting the interval twice.
 */
#define PC_HW_RAW_MASK	((1ULL << PC_HW_RAW_BITS) - 1)

static inline u64 pc_hw_mask(const struct pc_pmu *pmu)
{
	return pmu->width >= 64 ? ~0ULL : (1ULL << pmu->width) - 1;
}

/* hw_pmu.c: the hardware counter kind's init and destroy */
int pc_hw_init(struct perf_counter *counter);
void pc_hw_destroy(struct perf_counter *counter);

/* hw_counter.c */
void pc_hw_load(struct pc_hw_cpu *cpuc, struct perf_counter *counter);

/* hw_overflow.c */
void pc_hw_note_late_irq(struct pc_hw_cpu *cpuc, struct perf_counter *counter);
void pc_hw_reload(struct pc_hw_cpu *cpuc, struct perf_counter *counter);
void pc_hw_reload_change(struct pc_hw_cpu *cpuc, struct perf_counter *counter,
			 void (*fn)(struct perf_counter *counter, u64 arg),
			 u64 arg);

#endif /* _KERNEL_PERF_COUNTER_HW_COUNTER_H */
