/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: the objects alive (objects.c), counted for tests to see
 * that none is left, and the slab caches they come from.
 */
#ifndef _KERNEL_PERF_COUNTER_OBJECTS_H
#define _KERNEL_PERF_COUNTER_OBJECTS_H

#include <linux/atomic.h>
#include <linux/slab.h>

enum pc_object_kind {
	PC_OBJ_COUNTER,
	PC_OBJ_CONTEXT,
	PC_OBJ_QUEUE,
	PC_OBJ_ARRAY,		/* a call's scratch array, freed by it */
	PC_OBJ_TRACEPOINT,	/* a tracepoint's probe and its lists */
	PC_OBJ_PAGE,		/* a counter's mmap() page */
	PC_OBJ_KINDS
};

extern atomic_long_t pc_objects[PC_OBJ_KINDS];

/*
 * The slab caches of counters and task contexts (queue.c has the record
 * queues'), made at boot before any counter can exist. Caches of their
 * own let a test count in /sys/kernel/slab/ what is allocated, apart
 * from the counts above (on a kernel booted with slab_nomerge).
 */
extern struct kmem_cache *pc_counter_cache;
extern struct kmem_cache *pc_ctx_cache;

static inline void pc_object_made(enum pc_object_kind kind)
{
	atomic_long_inc(&pc_objects[kind]);
}

static inline void pc_object_ended(enum pc_object_kind kind)
{
	atomic_long_dec(&pc_objects[kind]);
}

#endif /* _KERNEL_PERF_COUNTER_OBJECTS_H */
