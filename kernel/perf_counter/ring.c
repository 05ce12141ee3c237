// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the memory of a record queue's ring (queue.c).
 *
 * A ring is kernel memory a user can ask for in megabytes, so it is
 * charged twice: to the memory cgroup of the task that allocates it
 * (the opener; for a resize, the caller of the ioctl), and to the
 * opener's RLIMIT_MEMLOCK count of pinned pages, which its user shares
 * with SHM_LOCK'ed memory in its user namespace. Past the limit a queue
 * is refused with ENOMEM, unless the caller has CAP_IPC_LOCK.
 *
 * A ring user space maps (queue_map.c) is a page longer, for the
 * control page in front, and comes from vmalloc as vmalloc_user()'s
 * do: whole zeroed pages the mapping may take, charged alike.
 *
 * A ring made at a queue's first use (queue.c) is charged to the
 * RLIMIT_MEMLOCK count at the open (pc_ring_reserve()), its pages to
 * the memory cgroup of the task whose use made it.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>
#include <linux/vmalloc.h>

#include <asm/shmparam.h>

#include "ring.h"

static unsigned long pc_ring_pages(u32 bytes)
{
	return DIV_ROUND_UP(bytes, PAGE_SIZE);
}

/* Charge @bytes of ring to @ucounts' RLIMIT_MEMLOCK count. */
static bool pc_ring_charge(struct ucounts *ucounts, u32 bytes)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK);
	long pages = pc_ring_pages(bytes);
	long locked;

	if (limit != RLIM_INFINITY)
		limit >>= PAGE_SHIFT;
	locked = inc_rlimit_ucounts(ucounts, UCOUNT_RLIMIT_MEMLOCK, pages);
	if ((locked == LONG_MAX || locked > limit) && !capable(CAP_IPC_LOCK)) {
		dec_rlimit_ucounts(ucounts, UCOUNT_RLIMIT_MEMLOCK, pages);
		return false;
	}
	return true;
}

static void pc_ring_uncharge(struct ucounts *ucounts, u32 bytes)
{
	dec_rlimit_ucounts(ucounts, UCOUNT_RLIMIT_MEMLOCK, pc_ring_pages(bytes));
}

/**
 * pc_ring_reserve() - charge a ring of @bytes before it is made
 * @ucounts:	the user namespace count to charge (the queue's opener)
 * @bytes:	the ring's size
 *
 * A queue whose ring comes at its first use is charged at its open, so
 * that the opener's limit, not the first user's, decides.
 *
 * Return: true, or false past the caller's limit.
 */
bool pc_ring_reserve(struct ucounts *ucounts, u32 bytes)
{
	return pc_ring_charge(ucounts, bytes);
}

/**
 * pc_ring_make() - a zeroed ring of @bytes, already charged
 * @bytes:	the ring's size
 *
 * Return: the ring, or NULL without memory.
 */
u64 *pc_ring_make(u32 bytes)
{
	/* A size the user chose: failing is ENOMEM, not a warning. */
	return kvzalloc(bytes, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
}

/**
 * pc_ring_alloc() - a zeroed ring of @bytes, charged to its user
 * @ucounts:	the user namespace count to charge (the queue's opener)
 * @bytes:	the ring's size
 *
 * Return: the ring, or NULL past the limit or without memory.
 */
u64 *pc_ring_alloc(struct ucounts *ucounts, u32 bytes)
{
	u64 *ring;

	if (!pc_ring_charge(ucounts, bytes))
		return NULL;
	ring = pc_ring_make(bytes);
	if (!ring)
		pc_ring_uncharge(ucounts, bytes);
	return ring;
}

/**
 * pc_ring_free() - free what pc_ring_alloc() gave, and its charge
 * @ucounts:	the count it was charged to
 * @ring:	the ring, or NULL for a charge whose ring was never made
 * @bytes:	its size
 */
void pc_ring_free(struct ucounts *ucounts, u64 *ring, u32 bytes)
{
	kvfree(ring);
	pc_ring_uncharge(ucounts, bytes);
}

/**
 * pc_ring_alloc_mapped() - a control page and a ring of @bytes after it
 * @ucounts:	the count to charge, as for pc_ring_alloc()
 * @bytes:	the ring's size, whole pages
 *
 * Return: the control page, the ring following it, or NULL.
 */
void *pc_ring_alloc_mapped(struct ucounts *ucounts, u32 bytes)
{
	void *base;

	if (!pc_ring_charge(ucounts, PAGE_SIZE + bytes))
		return NULL;
	/* vmalloc_user()'s, charged to the memory cgroup too */
	base = __vmalloc_node_range(PAGE_SIZE + bytes, SHMLBA, VMALLOC_START,
				    VMALLOC_END,
				    GFP_KERNEL_ACCOUNT | __GFP_ZERO |
				    __GFP_NOWARN, PAGE_KERNEL, VM_USERMAP,
				    NUMA_NO_NODE, __builtin_return_address(0));
	if (!base)
		pc_ring_uncharge(ucounts, PAGE_SIZE + bytes);
	return base;
}

/**
 * pc_ring_free_mapped() - free what pc_ring_alloc_mapped() gave
 * @ucounts:	the count it was charged to
 * @base:	the control page
 * @bytes:	the ring's size
 */
void pc_ring_free_mapped(struct ucounts *ucounts, void *base, u32 bytes)
{
	vfree(base);
	pc_ring_uncharge(ucounts, PAGE_SIZE + bytes);
}
