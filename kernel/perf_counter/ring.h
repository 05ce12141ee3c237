/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: a record queue's ring memory (ring.c), for queue.c and
 * queue_map.c alone.
 */
#ifndef _KERNEL_PERF_COUNTER_RING_H
#define _KERNEL_PERF_COUNTER_RING_H

#include <linux/types.h>

struct ucounts;

bool pc_ring_reserve(struct ucounts *ucounts, u32 bytes);
u64 *pc_ring_make(u32 bytes);
u64 *pc_ring_alloc(struct ucounts *ucounts, u32 bytes);
void pc_ring_free(struct ucounts *ucounts, u64 *ring, u32 bytes);
void *pc_ring_alloc_mapped(struct ucounts *ucounts, u32 bytes);
void pc_ring_free_mapped(struct ucounts *ucounts, void *base, u32 bytes);

#endif /* _KERNEL_PERF_COUNTER_RING_H */
