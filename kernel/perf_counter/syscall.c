// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the perf_counter_open() system call.
 */
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sizes.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>

#include "internal.h"

/* The leader named by group_fd, with its file held in @f. */
static struct perf_counter *pc_group_leader(int group_fd, struct fd *f)
{
	if (group_fd == -1)
		return NULL;
	*f = fdget(group_fd);
	if (!f->file)
		return ERR_PTR(-EBADF);
	if (f->file->f_op != &pc_fops) {
		fdput(*f);
		*f = (struct fd){ };
		return ERR_PTR(-EINVAL);
	}
	return f->file->private_data;
}

/*
 * Make the counter, its fd and its file, and install it.
 *
 * Everything that can refuse the open for what was asked (the CPU, the
 * group and its leader's task and CPU, the description, the driver, a
 * free fd) runs before a task context can be made; the CPU first, as
 * the counter's allocation uses it: a refused open leaves no
 * context behind. A member goes into its leader's context, which exists
 * already. Once a new context is linked to its task, only a task that
 * is exiting (its context goes with it) or no memory for the file can
 * still refuse; then the empty context stays with its task until the
 * task exits, as one made by a successful open does.
 */
/*
 * A task context held for an open (PC_HOLD_OPEN) swaps with no clone
 * until the counter is in: a reference of the open's own to it, or
 * NULL for a CPU context.
 */
static struct perf_counter_context *
pc_open_begun(struct perf_counter_context *ctx)
{
	if (!ctx->task)
		return NULL;
	pc_ctx_get(ctx);
	return ctx;
}

static void pc_open_done(struct perf_counter_context *ctx)
{
	if (!ctx)
		return;
	pc_ctx_open_end(ctx);
	pc_ctx_put(ctx);
}

static int pc_open(const struct perf_counter_hw_event_ext *desc,
		   const u64 *extra, const struct pc_ops *ops,
		   struct task_struct *task, int cpu, int group_fd,
		   bool prctl_exempt)
{
	const struct perf_counter_hw_event *hw_event = &desc->hw;
	struct perf_counter_context *ctx = NULL, *opening = NULL;
	struct perf_counter *counter, *leader;
	struct fd group = { };
	struct file *file;
	int fd, err;

	if (task)
		lockdep_assert_held_read(&task->signal->exec_update_lock);
	err = pc_check_cpu(task, cpu);
	if (err)
		return err;
	leader = pc_group_leader(group_fd, &group);
	if (IS_ERR(leader))
		return PTR_ERR(leader);
	if (leader) {
		ctx = pc_member_context(leader, task, cpu);
		if (IS_ERR(ctx)) {
			err = PTR_ERR(ctx);
			ctx = NULL;
			goto put_group;
		}
		opening = pc_open_begun(ctx);
		err = pc_check_group(leader, hw_event, ctx, cpu);
		if (err)
			goto put_ctx;
	}

	counter = pc_counter_alloc(desc, extra, ops, cpu, NULL);
	if (IS_ERR(counter)) {
		err = PTR_ERR(counter);
		goto put_ctx;
	}
	counter->prctl_exempt = prctl_exempt;
	fd = get_unused_fd_flags(O_RDWR);
	if (fd < 0) {
		err = fd;
		goto put_counter;
	}
	if (!ctx) {
		ctx = pc_find_context(task, cpu);
		if (IS_ERR(ctx)) {
			err = PTR_ERR(ctx);
			ctx = NULL;
			goto put_fd;
		}
		opening = pc_open_begun(ctx);
	}
	counter->ctx = ctx;		/* the counter owns the reference now */
	ctx = NULL;

	file = anon_inode_getfile("[perf_counter]", &pc_fops, counter, O_RDWR);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		goto put_fd;
	}
	/* From here the file owns the counter. */

	err = pc_install(counter, leader);
	pc_open_done(opening);
	if (err)
		goto put_file;

	fd_install(fd, file);
	fdput(group);
	return fd;

put_file:
	fput(file);			/* its release puts the counter */
	put_unused_fd(fd);
	fdput(group);
	return err;

put_fd:
	put_unused_fd(fd);
put_counter:
	pc_counter_put(counter);	/* and with it any context it has */
put_ctx:
	if (ctx)
		pc_ctx_put(ctx);
put_group:
	pc_open_done(opening);
	fdput(group);
	return err;
}

static_assert(sizeof(struct perf_counter_hw_event) ==
	      PERF_COUNTER_HW_EVENT_SIZE_2009);
static_assert(offsetof(struct perf_counter_hw_event_ext, sideband) ==
	      PERF_COUNTER_HW_EVENT_SIZE_VER1);
static_assert(offsetof(struct perf_counter_hw_event_ext, sample_freq) ==
	      PERF_COUNTER_HW_EVENT_SIZE_VER2);
static_assert(offsetof(struct perf_counter_hw_event_ext, switch_out) ==
	      PERF_COUNTER_HW_EVENT_SIZE_VER3);
static_assert(sizeof(struct perf_counter_hw_event_ext) ==
	      PERF_COUNTER_HW_EVENT_SIZE_VER4);

/*
 * The description at @uptr: its 64 bytes of 2009 and, if its size says
 * so, the fields added since (see the uapi header), into @desc, fields
 * past its size zero. Set *@size to the bytes it has, after which its
 * extra control words follow. Bytes this kernel does not know must be
 * zero: else -E2BIG, and the size this kernel knows is written back for
 * the caller to see.
 */
static int pc_copy_hw_event(struct perf_counter_hw_event __user *uptr,
			    struct perf_counter_hw_event_ext *desc, u32 *size)
{
	u32 usize;
	int err;

	memset(desc, 0, sizeof(*desc));
	if (copy_from_user(&desc->hw, uptr, sizeof(desc->hw)))
		return -EFAULT;
	usize = desc->hw.size;
	if (!usize) {
		*size = sizeof(desc->hw);
		return 0;
	}
	if (usize < sizeof(desc->hw) || usize > SZ_4K || usize % sizeof(u64))
		return -EINVAL;
	err = copy_struct_from_user(desc, sizeof(*desc), uptr, usize);
	if (err == -E2BIG)
		put_user((u32)sizeof(*desc), &uptr->size);
	if (err)
		return err;
	/* read twice: the size that counts is the one checked */
	desc->hw.size = usize;
	*size = usize;
	return 0;
}

/**
 * sys_perf_counter_open - make a counter and return its file descriptor
 * @hw_event_uptr:	what to count: struct perf_counter_hw_event (size 0)
 *			or struct perf_counter_hw_event_ext (size its bytes),
 *			followed by extra_config_len bytes of extra control
 *			words
 * @pid:		0: the caller; > 0: that task; < 0: every task on @cpu
 * @cpu:		-1: any CPU; >= 0: only that CPU
 * @group_fd:		-1 to lead a new group, or the fd of a group leader
 * @flags:		must be 0
 *
 * Return: the new fd, or -EINVAL (bad description, flags, pid/cpu or
 * group), -E2BIG (a description with fields this kernel does not know,
 * nonzero: its size field now says the size this kernel knows),
 * -EFAULT (unreadable description), -EBADF (group_fd is not an
 * fd), -EACCES (no right to the task or CPU, or to count kernel mode,
 * see paranoid.c), -ESRCH (no such task),
 * -ENODEV (a hardware counter and no working PMU), -ENOSPC (a group its
 * hardware counters could never fit), -EBUSY (the PMU registers are held
 * elsewhere), -EINTR, -ENOMEM or -EMFILE.
 */
SYSCALL_DEFINE5(perf_counter_open,
		struct perf_counter_hw_event __user *, hw_event_uptr,
		pid_t, pid, int, cpu, int, group_fd, unsigned long, flags)
{
	struct perf_counter_hw_event_ext desc;
	struct perf_counter_hw_event *hw = &desc.hw;
	u64 extra[PC_EXTRA_WORDS];
	struct task_struct *task;
	const struct pc_ops *ops;
	bool exempt;
	u32 size;
	int err;

	if (flags)
		return -EINVAL;
	err = pc_copy_hw_event(hw_event_uptr, &desc, &size);
	if (err)
		return err;
	err = pc_check_hw_event_ext(&desc);
	if (err)
		return err;
	/* Exits' totals are of tasks: a CPU-wide counter has none. */
	if (pid < 0 && hw->inherit_stat)
		return -EINVAL;
	pc_hw_event_defaults(&desc);
	/* The extra control words follow the description in user memory. */
	if (hw->extra_config_len &&
	    copy_from_user(extra, (void __user *)hw_event_uptr + size,
			   hw->extra_config_len))
		return -EFAULT;
	ops = pc_event_ops(hw);
	if (IS_ERR(ops))
		return PTR_ERR(ops);
	err = pc_check_privilege(&desc, extra, pid < 0 && cpu >= 0);
	if (err)
		return err;
	/* NMIs are for root; everyone else gets the ordinary interrupt. */
	if (hw->nmi && !capable(CAP_SYS_ADMIN))
		hw->nmi = 0;

	task = pc_find_task(pid);
	if (IS_ERR(task))
		return PTR_ERR(task);
	if (!task)
		return pc_open(&desc, extra, ops, NULL, cpu, group_fd, false);

	/* No exec may slip between the permission check and the install. */
	err = down_read_interruptible(&task->signal->exec_update_lock);
	if (!err) {
		/*
		 * A counter on a task that could not trace us is a more
		 * privileged monitor's: that task's prctl() leaves it
		 * alone (see pc_task_could_trace()). prctl() reads the
		 * mark on group leaders only; a member is on its leader's
		 * task and was opened by this same path, by a caller
		 * holding the leader's fd, and follows its leader.
		 */
		exempt = !same_thread_group(task, current) &&
			 !pc_task_could_trace(task);
		/*
		 * User stack words in switch records are the task's memory,
		 * as /proc/PID/mem gives it: the right to attach.
		 */
		if (task == current ||
		    ptrace_may_access(task, desc.switch_stack &&
				      !same_thread_group(task, current) ?
				      PTRACE_MODE_ATTACH_REALCREDS :
				      PTRACE_MODE_READ_REALCREDS))
			err = pc_open(&desc, extra, ops, task, cpu, group_fd,
				      exempt);
		else
			err = -EACCES;
		up_read(&task->signal->exec_update_lock);
	}
	put_task_struct(task);
	return err;
}
