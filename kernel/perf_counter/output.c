// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: where a counter's records go (PERF_COUNTER_IOC_SET_OUTPUT).
 *
 * Every top-level counter with a queue writes its records (and its
 * inherited copies theirs) to @out: its own queue, or since a
 * SET_OUTPUT another counter's, which a group, the counters of every
 * CPU of a system-wide profile or counters of several tasks then share
 * (one ring to read or map). A queue takes records from any CPU: its
 * producers take its lock (queue.c).
 *
 * Rules:
 * - Both counters have a queue in the headered format: a 2009 reader
 *   could not tell whose records it reads.
 * - The other counter's own records go to its own queue, so that no
 *   counter's records hop twice; a counter others write to may itself
 *   write elsewhere later: they still write to its own queue, which its
 *   fd reads.
 * - A counter whose own queue is mapped keeps its records there (EBUSY),
 *   and one whose records go elsewhere cannot be mapped (EINVAL): a
 *   mapping always shows the counter's records.
 *
 * Lifetimes: the counter holds a reference to @out besides the one to
 * its own queue, and is counted among @out's writers until its records
 * end (its task and copies have exited) or it is freed; a queue with
 * no writer left reads as end of file. Producers load @out with irqs
 * off (under a context's lock, in the overflow interrupt or NMI, under
 * rcu_read_lock() elsewhere), so the queue a SET_OUTPUT leaves is
 * dropped only after synchronize_rcu().
 *
 * Locking: pc_output_mutex serializes SET_OUTPUTs (the rule on the
 * other counter's @out); @out and @out_writer change under the
 * counter's @child_mutex too, where its records' end is decided
 * (inherit.c), so a writer is counted off exactly once.
 */
#include <linux/file.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

#include "internal.h"

static DEFINE_MUTEX(pc_output_mutex);

/*
 * The counter of @file, whose queue SET_OUTPUT gives @counter's records:
 * *@otherp, or NULL for @counter's own file.
 */
static int pc_output_other(struct perf_counter *counter, struct file *file,
			   struct perf_counter **otherp)
{
	struct perf_counter *other;
	int err;

	*otherp = NULL;
	if (file->f_op != &pc_fops)
		return -EINVAL;
	other = file->private_data;
	if (other == counter)
		return 0;
	/* Its queue gets records it did not make: a write to it. */
	err = pc_lsm_write(other);
	if (err)
		return err;
	if (!other->queue || pc_queue_format_2009(other->queue))
		return -EINVAL;
	err = pc_queue_prepare(other->queue);
	if (err)
		return err;
	*otherp = other;
	return 0;
}

/*
 * @counter's records to @q from now on, under pc_output_mutex. Return:
 * the queue they went to, or NULL if it is @q; *@writer_left says the
 * counter was one of its writers, to be counted off.
 */
static struct pc_queue *pc_output_switch(struct perf_counter *counter,
					 struct pc_queue *q, bool *writer_left)
{
	struct pc_queue *old;

	mutex_lock(&counter->child_mutex);
	old = counter->out;
	*writer_left = counter->out_writer;
	if (old == q) {
		mutex_unlock(&counter->child_mutex);
		return NULL;
	}
	if (q != counter->queue)
		pc_queue_hold(q);
	if (counter->out_writer)
		pc_queue_writer_add(q);
	WRITE_ONCE(counter->out, q);
	mutex_unlock(&counter->child_mutex);
	return old;
}

/**
 * pc_counter_set_output() - PERF_COUNTER_IOC_SET_OUTPUT
 * @counter:	a top-level counter
 * @fd:		the fd of the counter whose queue gets its records, or -1
 *		for its own
 *
 * Return: 0, -EBADF, -EINVAL (no queue, a 2009 one, a fd that is not a
 * counter's, a counter whose own records go elsewhere, or a queue too
 * small for this counter's largest record), -EBUSY (its own queue is
 * mapped), -ENOMEM (a ring made at its first use), or the security
 * module's answer.
 */
int pc_counter_set_output(struct perf_counter *counter, int fd)
{
	struct perf_counter *other = NULL;
	struct pc_queue *old = NULL;
	bool writer_left = false;
	struct fd f = { };
	int err = 0;

	if (!counter->queue || pc_queue_format_2009(counter->queue))
		return -EINVAL;
	if (fd != -1) {
		f = fdget(fd);
		if (!f.file)
			return -EBADF;
		err = pc_output_other(counter, f.file, &other);
		if (err)
			goto out;
	}
	/* The other ring holds this counter's largest record, as its own. */
	if (other) {
		mutex_lock(&counter->ctx->mutex);
		if (pc_queue_words(other->queue) <
		    pc_record_words_max(counter, 0))
			err = -EINVAL;
		mutex_unlock(&counter->ctx->mutex);
		if (err)
			goto out;
	}

	/* Its records back home: its own ring, if it has none yet. */
	if (!other) {
		err = pc_queue_prepare(counter->queue);
		if (err)
			goto out;
	}

	mutex_lock(&pc_output_mutex);
	if (other && pc_queue_is_mapped(counter->queue))
		err = -EBUSY;
	else if (other && READ_ONCE(other->out) != other->queue)
		err = -EINVAL;
	else
		old = pc_output_switch(counter,
				       other ? other->queue : counter->queue,
				       &writer_left);
	mutex_unlock(&pc_output_mutex);

	/*
	 * No producer still writes to the queue left: they load @out with
	 * irqs off. Only then may its readers be told of its end, and its
	 * reference be dropped.
	 */
	if (old) {
		synchronize_rcu();
		if (writer_left)
			pc_queue_writer_end(old);
		if (old != counter->queue)
			pc_queue_drop(old);
	}
out:
	fdput(f);
	return err;
}

/**
 * pc_output_mmap() - mmap() of a counter with a queue: its ring
 * @counter:	a top-level counter with a queue
 * @vma:	the mapping
 *
 * Under pc_output_mutex (taken inside mmap_lock; nothing under it takes
 * mmap_lock), so that no SET_OUTPUT sends the records elsewhere while
 * the ring is made: a mapping always shows the counter's records.
 *
 * Return: as pc_queue_mmap(), and -EINVAL for a counter whose records
 * go to another's queue.
 */
int pc_output_mmap(struct perf_counter *counter, struct vm_area_struct *vma)
{
	int err = -EINVAL;

	mutex_lock(&pc_output_mutex);
	if (counter->out == counter->queue)
		err = pc_queue_mmap(counter->queue, vma);
	mutex_unlock(&pc_output_mutex);
	return err;
}

/**
 * pc_output_end() - a task counter's records have ended
 * @counter:	a top-level counter with a queue, its @child_mutex held
 *
 * Its task and every copy have exited: it is no longer a writer of the
 * queue its records went to.
 */
void pc_output_end(struct perf_counter *counter)
{
	lockdep_assert_held(&counter->child_mutex);
	if (counter->out_writer) {
		counter->out_writer = false;
		pc_queue_writer_end(counter->out);
	}
}

/**
 * pc_output_free() - the counter's queues, as it is freed
 * @counter:	a counter no producer writes for any more
 */
void pc_output_free(struct perf_counter *counter)
{
	if (!counter->queue)
		return;
	if (counter->out_writer)
		pc_queue_writer_end(counter->out);
	if (counter->out != counter->queue)
		pc_queue_drop(counter->out);
	pc_queue_drop(counter->queue);
}

/**
 * pc_counter_prepare() - a counter's first use: its queue's ring
 * @counter:	a top-level counter being enabled (ioctl, prctl)
 *
 * A counter whose records go to another's queue needs none of its own
 * (SET_OUTPUT made the other's).
 *
 * Return: 0, or -ENOMEM.
 */
int pc_counter_prepare(struct perf_counter *counter)
{
	if (!counter->queue || READ_ONCE(counter->out) != counter->queue)
		return 0;
	return pc_queue_prepare(counter->queue);
}
