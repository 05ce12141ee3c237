// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: a record queue mapped into user space.
 *
 * mmap() of a counter with a queue in the headered format gives user
 * space the ring itself, after a control page (struct
 * perf_counter_ring_page): producers write records as they do for
 * read() (queue.c), and publish the head in @data_head as well; the
 * reader reads records in place and gives their room back by moving
 * @data_tail. No copy, and no system call while records keep coming.
 *
 * The mapping replaces the queue's ring (an empty one, or none yet) by
 * one of the mapping's size, and stays the queue's ring for the rest of
 * its life: mapped again, it is the same memory; unmapped, producers go
 * on filling it, and drop what does not fit. The kernel never reads a
 * mapped ring: read() of records is refused (EBUSY) and so is a resize,
 * so nothing user space writes there can mislead it. @data_tail is all
 * it reads, and a value that cannot be a tail leaves the ring full
 * (pc_queue_tail()).
 *
 * The mapping holds the counter's file, so the ring outlives every
 * mapping of it. fork() does not give it to a child (VM_DONTCOPY): a
 * ring has one reader's tail, which the child would move too.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "internal.h"
#include "queue_impl.h"
#include "ring.h"

/**
 * pc_queue_is_mapped() - are @q's records read in a mapping?
 * @q:	the queue
 *
 * Return: true once the queue has been mapped.
 */
bool pc_queue_is_mapped(struct pc_queue *q)
{
	return READ_ONCE(q->user);
}

/**
 * pc_queue_has_ring() - has @q a ring yet?
 * @q:	the queue
 *
 * Return: false for a queue whose counter was opened disabled, until its
 * first use (pc_queue_prepare()).
 */
bool pc_queue_has_ring(struct pc_queue *q)
{
	return READ_ONCE(q->ring);
}

/**
 * pc_queue_format_2009() - does read() of @q leave headers out?
 * @q:	the queue
 *
 * Return: true for a queue in the 2009 format, which has no mapping.
 */
bool pc_queue_format_2009(const struct pc_queue *q)
{
	return q->format_2009;
}

/* The ring's size a mapping of @vma asks for, or 0 for none it may. */
static u32 pc_queue_map_bytes(struct vm_area_struct *vma)
{
	unsigned long pages = vma_pages(vma);

	if (vma->vm_pgoff || pages < 2 || pages - 1 > PC_QUEUE_MAX >> PAGE_SHIFT)
		return 0;
	if (!is_power_of_2(pages - 1))
		return 0;
	return (pages - 1) << PAGE_SHIFT;
}

/*
 * Give @q the mapped ring @base of @bytes, under q->read_mutex: from
 * an empty queue, whose drops still pending go into the new ring's
 * first LOST record. Return: the old ring to free (NULL if a lazy
 * queue's was never made; its charge is freed all the same), or an
 * ERR_PTR().
 */
static u64 *pc_queue_map_ring(struct pc_queue *q, void *base, u32 bytes)
{
	struct perf_counter_ring_page *up = base;
	unsigned long flags;
	u64 *old;

	up->version = PERF_COUNTER_RING_VERSION;
	up->data_offset = PAGE_SIZE;
	up->data_size = bytes;
	pc_queue_lock(q, &flags);
	if (q->head != q->tail) {
		pc_queue_unlock(q, flags);
		return ERR_PTR(-EBUSY);
	}
	old = q->ring;
	q->ring = base + PAGE_SIZE;
	q->mask = bytes / sizeof(u64) - 1;
	q->head = 0;
	q->tail = 0;
	q->head_bytes = 0;
	/* The page filled in before producers and pollers look at it. */
	smp_store_release(&q->user, up);
	pc_queue_show_lost(q);
	pc_queue_unlock(q, flags);
	return old;
}

/**
 * pc_queue_mmap() - mmap() of a counter with a queue: its ring
 * @q:		the counter's queue
 * @vma:	the mapping: shared, writable, at offset 0, a control page
 *		and 2^n pages of ring, no more than PC_QUEUE_MAX of them
 *
 * Return: 0, -EOPNOTSUPP for a queue in the 2009 format, -EINVAL for a
 * mapping not as above (or of another size than the ring mapped),
 * -EACCES for an executable one, -EBUSY
 * while records wait to be read() or a read() is in progress, -ENOMEM,
 * or what remap_vmalloc_range() gives.
 */
int pc_queue_mmap(struct pc_queue *q, struct vm_area_struct *vma)
{
	u32 bytes = pc_queue_map_bytes(vma), old_bytes;
	bool replaced = false;
	void *base = NULL;
	u64 *old = NULL;
	int err = 0;

	if (q->format_2009)
		return -EOPNOTSUPP;	/* as before the headered format */
	if (!bytes || !(vma->vm_flags & VM_SHARED) ||
	    !(vma->vm_flags & VM_WRITE))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EACCES;
	/* Mapped once, a queue keeps its ring: no lock to map it again. */
	base = READ_ONCE(q->user);
	if (base) {
		if (bytes != pc_queue_bytes(q))
			return -EINVAL;
		goto map;
	}
	/* The read_mutex is taken outside mmap_lock, which we hold. */
	if (!mutex_trylock(&q->read_mutex))
		return -EBUSY;
	old_bytes = pc_queue_bytes(q);	/* a resize needs the read_mutex */
	if (q->user) {
		base = q->user;
		if (bytes != pc_queue_bytes(q))
			err = -EINVAL;
		goto unlock;
	}
	base = pc_ring_alloc_mapped(q->ucounts, bytes);
	if (!base) {
		err = -ENOMEM;
		goto unlock;
	}
	old = pc_queue_map_ring(q, base, bytes);
	if (IS_ERR(old)) {
		err = PTR_ERR(old);
		pc_ring_free_mapped(q->ucounts, base, bytes);
	} else {
		replaced = true;
	}
unlock:
	mutex_unlock(&q->read_mutex);
	if (replaced) {
		pc_ring_free(q->ucounts, old, old_bytes);
		/* a read() that waited on the old ring: EBUSY now */
		wake_up_all(&q->wait);
	}
	if (err)
		return err;
map:
	/*
	 * VM_IO: no madvise(MADV_DOFORK) makes a fork share it after all
	 * (a child would move a tail that is not its own), and nothing
	 * pins its pages through get_user_pages(). Never executable.
	 */
	vma->vm_flags &= ~VM_MAYEXEC;
	vma->vm_flags |= VM_IO | VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP;
	return remap_vmalloc_range(vma, base, 0);
}
