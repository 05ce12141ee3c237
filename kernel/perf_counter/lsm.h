/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: what a security module decides (lsm.c), and nothing on
 * kernels without one.
 */
#ifndef _KERNEL_PERF_COUNTER_LSM_H
#define _KERNEL_PERF_COUNTER_LSM_H

#include <linux/types.h>

struct perf_counter;
struct perf_counter_hw_event_ext;

#ifdef CONFIG_PERF_COUNTERS_LSM
int pc_lsm_open(const struct perf_counter_hw_event_ext *desc,
		const u64 *extra, int type);
int pc_lsm_alloc(struct perf_counter *counter);
void pc_lsm_free(struct perf_counter *counter);
int pc_lsm_read(struct perf_counter *counter);
int pc_lsm_write(struct perf_counter *counter);
#else
static inline int pc_lsm_open(const struct perf_counter_hw_event_ext *desc,
			      const u64 *extra, int type)
{
	return 0;
}

static inline int pc_lsm_alloc(struct perf_counter *counter)
{
	return 0;
}

static inline void pc_lsm_free(struct perf_counter *counter)
{
}

static inline int pc_lsm_read(struct perf_counter *counter)
{
	return 0;
}

static inline int pc_lsm_write(struct perf_counter *counter)
{
	return 0;
}
#endif

#endif /* _KERNEL_PERF_COUNTER_LSM_H */
