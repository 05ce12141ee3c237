// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the counter file descriptor.
 */
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/uio.h>

#include "internal.h"

/*
 * read(): a counting counter gives its 64-bit value, then the times
 * read_format asks for; a sampling counter gives whole records from its
 * queue. A pinned counter in the error state reads as end of file.
 */
static ssize_t pc_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *file = iocb->ki_filp;
	struct perf_counter *counter = file->private_data;
	u64 format = counter->hw_event.read_format;
	size_t size = pc_read_size(format);
	struct pc_values vals;
	u64 out[3];
	int n = 0;

	if (READ_ONCE(counter->state) == PC_STATE_ERROR)
		return 0;
	if (counter->queue)
		return pc_queue_read(counter->queue, to,
				     (file->f_flags & O_NONBLOCK) ||
				     (iocb->ki_flags & IOCB_NOWAIT));
	if (iov_iter_count(to) < size)
		return -ENOSPC;

	pc_counter_read(counter, &vals);
	out[n++] = vals.value;
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out[n++] = vals.time_enabled;
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out[n++] = vals.time_running;

	if (copy_to_iter(out, size, to) != size)
		return -EFAULT;
	return size;
}

static long pc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct perf_counter *counter = file->private_data;

	switch (cmd) {
	case PERF_COUNTER_IOC_ENABLE:
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

/* mmap(): the counter page, see page.c. */
static int pc_mmap(struct file *file, struct vm_area_struct *vma)
{
	return pc_page_mmap(file->private_data, vma);
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
	.read_iter	= pc_read_iter,
	.poll		= pc_poll,
	.unlocked_ioctl	= pc_ioctl,
	.compat_ioctl	= pc_ioctl,
	.mmap		= pc_mmap,
	.release	= pc_release,
	.llseek		= no_llseek,
};
