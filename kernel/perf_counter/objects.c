// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: how many of the subsystem's objects are alive.
 *
 * Counters (top-level ones and their inherited copies), task contexts,
 * record queues, the scratch arrays a call allocates for itself (the
 * group placement check's, fork's list of inherited groups), the
 * tracepoints with a probe of ours (tp_counter.c) and the counters'
 * mmap() pages (page.c) are counted
 * from the allocation that makes them to the put or free that ends them
 * (a context's memory itself goes an RCU grace period later): every
 * allocation the subsystem makes. Root reads the counts in
 * /sys/kernel/debug/perf_counter/objects (debugfs.c): with every
 * counter closed and every task that inherited one gone, all are back
 * where they were, so a test can show that nothing was left behind,
 * whatever its size, where slab totals move by pages.
 *
 * These counts are the subsystem's word on itself: a free that forgot
 * its count, or a count that forgot its free, would go unseen by them.
 * So counters, task contexts and record queues come from slab caches of
 * their own, "perf_counter", "perf_counter_ctx" and "perf_counter_queue",
 * which the slab allocator counts independently: on the sanitizer boot
 * (slab_nomerge, so no other cache shares them; SLUB_DEBUG, for
 * /sys/kernel/slab/NAME/objects) the tests require the allocator's
 * counts of them, after a shrink, to equal the counts here, and /init
 * requires no counter or queue, and only live tasks' contexts, once
 * every program is gone (see
 * Documentation/perf_counter/testing.rst, "Leak checks").
 */
#include <linux/init.h>
#include <linux/slab.h>

#include "internal.h"

atomic_long_t pc_objects[PC_OBJ_KINDS];

struct kmem_cache *pc_counter_cache;
struct kmem_cache *pc_ctx_cache;

/*
 * At core_initcall, long before any program or KUnit suite runs,
 * so before any counter can exist. SLAB_ACCOUNT charges every object to
 * the allocating task's memory cgroup, as GFP_KERNEL_ACCOUNT did; a
 * kernel that cannot make its caches at boot cannot run, hence
 * SLAB_PANIC. The queues' cache is queue.c's, made the same way.
 */
static int __init pc_caches_init(void)
{
	pc_counter_cache = kmem_cache_create("perf_counter",
					     sizeof(struct perf_counter), 0,
					     SLAB_PANIC | SLAB_ACCOUNT, NULL);
	pc_ctx_cache = kmem_cache_create("perf_counter_ctx",
					 sizeof(struct perf_counter_context),
					 0, SLAB_PANIC | SLAB_ACCOUNT, NULL);
	return 0;
}
core_initcall(pc_caches_init);
