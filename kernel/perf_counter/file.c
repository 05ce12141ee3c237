// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the counter file descriptor.
 */
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/uio.h>

#include "internal.h"

/*
 * read(): a counting counter gives its 64-bit value, then the times and
 * id read_format asks for, or with PERF_FORMAT_GROUP its group's
 * (read.c); a counter with a queue (a sampler, a switch log, an
 * inherit_stat counter) gives whole records from it, and its values to
 * the READ ioctl. A pinned counter in the error state reads as end of
 * file.
 *
 * Both read() and readv() come here: read() through pc_read(), with no
 * kiocb or iov_iter for the counting counter's few words, readv() and
 * the like through pc_read_iter().
 *
 * A security module is asked before each read(), mmap() and ioctl()
 * (lsm.c); poll() tells only whether a read would wait, and is not.
 */

static ssize_t pc_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *file = iocb->ki_filp;
	struct perf_counter *counter = file->private_data;
	int err;

	err = pc_lsm_read(counter);
	if (err)
		return err;
	if (READ_ONCE(counter->state) == PC_STATE_ERROR)
		return 0;
	if (counter->queue)
		return pc_queue_read(counter->queue, to,
				     (file->f_flags & O_NONBLOCK) ||
				     (iocb->ki_flags & IOCB_NOWAIT));
	return pc_read_values_iter(counter, to,
				   iocb->ki_flags & IOCB_NOWAIT);
}

/*
 * A sampling counter's read(), out of line: the iov_iter it needs is not
 * set up (nor zeroed, with CONFIG_INIT_STACK_ALL_ZERO) for a counting
 * counter's.
 */
static noinline ssize_t pc_read_queue(struct pc_queue *q, char __user *buf,
				      size_t count, bool nonblock)
{
	struct iov_iter to;

	iov_iter_ubuf(&to, ITER_DEST, buf, count);
	return pc_queue_read(q, &to, nonblock);
}

static ssize_t pc_read(struct file *file, char __user *buf, size_t count,
		       loff_t *ppos)
{
	struct perf_counter *counter = file->private_data;
	u64 format = counter->hw_event.read_format;
	size_t size = pc_read_size(format, 1);
	u64 __user *out = (u64 __user *)buf;
	struct pc_values vals;
	int err;

	err = pc_lsm_read(counter);
	if (err)
		return err;
	if (READ_ONCE(counter->state) == PC_STATE_ERROR)
		return 0;
	if (counter->queue)
		return pc_read_queue(counter->queue, buf, count,
				     file->f_flags & O_NONBLOCK);
	if (format & PERF_FORMAT_GROUP)
		return pc_read_values(counter, buf, count);
	if (count < size)
		return -ENOSPC;

	/* A word at a time: no array to zero and copy for one word. */
	pc_counter_read(counter, &vals);
	if (put_user(vals.value, out++))
		return -EFAULT;
	if ((format & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
	    put_user(vals.time_enabled, out++))
		return -EFAULT;
	if ((format & PERF_FORMAT_TOTAL_TIME_RUNNING) &&
	    put_user(vals.time_running, out++))
		return -EFAULT;
	if ((format & PERF_FORMAT_ID) && put_user(counter->id, out))
		return -EFAULT;
	return size;
}

/* PERF_COUNTER_IOC_READ: the values of any counter, queue or not. */
static long pc_ioctl_read(struct perf_counter *counter,
			  struct perf_counter_read_buf __user *arg)
{
	struct perf_counter_read_buf rb;

	if (copy_from_user(&rb, arg, sizeof(rb)))
		return -EFAULT;
	if (rb.__reserved)
		return -EINVAL;
	if (READ_ONCE(counter->state) == PC_STATE_ERROR)
		return 0;
	return pc_read_values(counter, u64_to_user_ptr(rb.addr), rb.size);
}

static long pc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct perf_counter *counter = file->private_data;
	int err;

	/*
	 * ID and READ give values, judged as read() is; the rest as
	 * changes, as they have been since before those two.
	 */
	if (cmd == PERF_COUNTER_IOC_ID || cmd == PERF_COUNTER_IOC_READ)
		err = pc_lsm_read(counter);
	else
		err = pc_lsm_write(counter);
	if (err)
		return err;
	switch (cmd) {
	case PERF_COUNTER_IOC_ENABLE:
		err = pc_counter_prepare(counter);
		if (err)
			return err;
		pc_counter_refresh_end(counter);
		pc_counter_enable(counter);
		return 0;
	case PERF_COUNTER_IOC_DISABLE:
		pc_counter_disable(counter);
		return 0;
	case PERF_COUNTER_IOC_QUEUE_SIZE: {
		u32 bytes;

		if (!counter->queue)
			return -EINVAL;
		if (get_user(bytes, (u32 __user *)arg))
			return -EFAULT;
		return pc_counter_queue_resize(counter, bytes);
	}
	case PERF_COUNTER_IOC_LOST:
		if (!counter->queue)
			return -EINVAL;
		return put_user(pc_queue_dropped(counter->queue),
				(u64 __user *)arg);
	case PERF_COUNTER_IOC_PERIOD: {
		u64 value;

		if (copy_from_user(&value, (u64 __user *)arg, sizeof(value)))
			return -EFAULT;
		return pc_counter_period(counter, value);
	}
	case PERF_COUNTER_IOC_RESET:
		pc_counter_reset(counter);
		return 0;
	case PERF_COUNTER_IOC_REFRESH:
		err = pc_counter_prepare(counter);
		if (err)
			return err;
		return pc_counter_refresh(counter, arg);
	case PERF_COUNTER_IOC_ID:
		return put_user(counter->id, (u64 __user *)arg);
	case PERF_COUNTER_IOC_READ:
		return pc_ioctl_read(counter, (void __user *)arg);
	case PERF_COUNTER_IOC_SET_OUTPUT:
		return pc_counter_set_output(counter, (int)arg);
	case PERF_COUNTER_IOC_WAKEUP: {
		u32 bytes;

		if (!counter->queue)
			return -EINVAL;
		if (get_user(bytes, (u32 __user *)arg))
			return -EFAULT;
		pc_queue_set_wakeup(counter->queue, bytes);
		return 0;
	}
	}
	return -ENOTTY;
}

/* poll(): a counting counter can always be read; a queue when not empty. */
static __poll_t pc_poll(struct file *file, poll_table *wait)
{
	struct perf_counter *counter = file->private_data;

	if (!counter->queue)
		return EPOLLIN | EPOLLRDNORM;
	return pc_queue_poll(counter->queue, file, wait);
}

/*
 * fcntl(O_ASYNC): overflow signals to the file's owner (queue.c). A
 * counting counter writes no records, so it never signals; the flag is
 * taken all the same, as it was before counters had signals.
 */
static int pc_fasync(int fd, struct file *file, int on)
{
	struct perf_counter *counter = file->private_data;

	if (!counter->queue)
		return 0;
	return pc_queue_fasync(counter->queue, fd, file, on);
}

/*
 * mmap(): a counter with a queue, its ring (queue_map.c), unless its
 * records go to another's; any other, the counter page (page.c). A
 * read, to a security module.
 */
static int pc_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct perf_counter *counter = file->private_data;
	int err;

	err = pc_lsm_read(counter);
	if (err)
		return err;
	if (!counter->queue)
		return pc_page_mmap(counter, vma);
	return pc_output_mmap(counter, vma);
}

/* The last close ends the counter and every inherited copy of it. */
static int pc_release(struct inode *inode, struct file *file)
{
	struct perf_counter *counter = file->private_data;

	pc_remove(counter);
	pc_release_children(counter);
	pc_counter_put(counter);		/* the file's reference */
	return 0;
}

const struct file_operations pc_fops = {
	.owner		= THIS_MODULE,
	.read		= pc_read,
	.read_iter	= pc_read_iter,
	.poll		= pc_poll,
	.unlocked_ioctl	= pc_ioctl,
	.compat_ioctl	= pc_ioctl,
	.mmap		= pc_mmap,
	.fasync		= pc_fasync,
	.release	= pc_release,
	.llseek		= no_llseek,
};
