// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: side-band records (PERF_SIDEBAND_*) — what tasks did
 * that a tool needs to name its samples: executable mappings, name
 * changes, forks and exits.
 *
 * A record about task T goes to every enabled counter that asked for its
 * kind in T's context (an inherited copy's to its top-level counter's
 * queue, as its samples do) and in the context of the CPU it happens on
 * (CPU-wide counters: every task there). It is written under the
 * context's lock, then the queue's (the order switch records take), with
 * T's pid and tid as the counter's opener sees them and the
 * CLOCK_MONOTONIC time samples carry, so a tool orders all records
 * exactly. The hooks run in process context, most in T itself (mmap,
 * mprotect, exec, prctl, fork in the parent, exit); a name set through
 * /proc/PID/comm is the writer's to report (a CPU-wide counter hears of
 * it on the writer's CPU). They are patched out (pc_sideband_key) while
 * no counter asks for side-band records, and look no further where
 * neither the task nor this CPU has a counter. A record that does not
 * fit its queue, or could not be made (no memory for a path), is counted
 * apart from samples and told in a LOST_SIDEBAND record (queue.c).
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "internal.h"

DEFINE_STATIC_KEY_DEFERRED_FALSE(pc_sideband_key, HZ);

/* The longest MMAP record's body: its fixed words, then the path. */
#define PC_MMAP_FIXED_WORDS	6
#define PC_MMAP_BODY_WORDS	(PC_MMAP_FIXED_WORDS + \
				 PERF_COUNTER_MMAP_PATH_MAX / sizeof(u64))

/*
 * One side-band record: its kind, the bit that asks for it, the task it
 * is about, for FORK and EXIT the parent (whose ids follow the time),
 * then @body_words words of its own.
 */
struct pc_sb {
	u32			kind;
	u32			bit;
	struct task_struct	*task;
	struct task_struct	*parent;
	const u64		*body;
	u32			body_words;
	bool			lost;	/* could not be made: count it */
};

/* counter->sideband holds the bits */
static_assert(PERF_SIDEBAND_MASK <= U8_MAX);

static u32 pc_sb_words(const struct pc_sb *sb)
{
	/* header, ids, time, the parent's ids, the body */
	return 3 + (sb->parent ? 1 : 0) + sb->body_words;
}

/**
 * pc_sideband_words_max() - the largest side-band record a counter takes
 * @counter:	the counter
 *
 * Return: 0 if it asks for none; else the words of its largest record.
 */
u32 pc_sideband_words_max(const struct perf_counter *counter)
{
	if (counter->sideband & PERF_SIDEBAND_MMAP)
		return 3 + PC_MMAP_BODY_WORDS;
	if (counter->sideband & PERF_SIDEBAND_COMM)
		return 1 + sizeof(struct perf_counter_comm) / sizeof(u64);
	if (counter->sideband & PERF_SIDEBAND_TASK)
		return 1 + sizeof(struct perf_counter_task) / sizeof(u64);
	return 0;
}

/* @sb for @counter, if it asked and is enabled, under its ctx->lock. */
static void pc_sb_counter(struct perf_counter *counter, const struct pc_sb *sb)
{
	struct perf_counter *top = counter->parent ?: counter;
	struct pc_queue *q = pc_counter_out(top);
	unsigned long flags, at;

	pc_assert_counter_locked(counter);
	if (!(counter->sideband & sb->bit) ||
	    counter->state < PC_STATE_INACTIVE ||
	    (counter->cpu >= 0 && counter->cpu != smp_processor_id()))
		return;
	pc_queue_lock(q, &flags);
	if (sb->lost) {
		pc_queue_sideband_lost(q);
	} else if (pc_queue_reserve(q, sb->kind, pc_sb_words(sb), &at)) {
		pc_queue_put(q, &at, pc_task_ids(sb->task, top->pid_ns));
		pc_queue_put(q, &at, ktime_get_mono_fast_ns());
		if (sb->parent)
			pc_queue_put(q, &at,
				     pc_task_ids(sb->parent, top->pid_ns));
		if (sb->body_words)
			pc_queue_put_words(q, &at, sb->body, sb->body_words);
		pc_queue_commit(q, at);
	}
	pc_queue_unlock(q, flags);
}

/* @sb for every counter of @ctx that asked, under ctx->lock. */
static void pc_sb_ctx_locked(struct perf_counter_context *ctx,
			     const struct pc_sb *sb)
{
	struct perf_counter *leader, *member;

	lockdep_assert_held(&ctx->lock);
	pc_for_each_leader(leader, ctx) {
		pc_sb_counter(leader, sb);
		pc_for_each_member(member, leader)
			pc_sb_counter(member, sb);
	}
}

/* @sb for the counters of this CPU's context (CPU-wide ones). */
static void pc_sb_cpu(const struct pc_sb *sb)
{
	struct perf_counter_context *ctx;
	unsigned long flags;

	local_irq_save(flags);
	ctx = pc_this_cpu_ctx();
	raw_spin_lock(&ctx->lock);
	pc_sb_ctx_locked(ctx, sb);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

/*
 * @sb for the counters of @owner's context (the task the record is
 * about, or for a FORK the parent), then of this CPU's, one context
 * after the other. current's context cannot be swapped while it runs
 * here with irqs off; an exchange (home.c) may move it meanwhile, but
 * only a parent's, which holds no counter that writes records. Another
 * task's (a name written through /proc) is held against swaps as a
 * fork holds its parent's.
 */
static void pc_sb_emit(const struct pc_sb *sb, struct task_struct *owner)
{
	struct perf_counter_context *ctx;
	unsigned long flags;

	if (owner == current) {
		local_irq_save(flags);
		ctx = rcu_dereference_sched(current->perf_counter_ctxp);
		if (ctx) {
			raw_spin_lock(&ctx->lock);
			if (!ctx->dead)
				pc_sb_ctx_locked(ctx, sb);
			raw_spin_unlock(&ctx->lock);
		}
		local_irq_restore(flags);
	} else {
		ctx = pc_task_ctx_hold(owner, PC_HOLD_PIN);
		if (ctx) {
			raw_spin_lock_irqsave(&ctx->lock, flags);
			if (!ctx->dead)
				pc_sb_ctx_locked(ctx, sb);
			raw_spin_unlock_irqrestore(&ctx->lock, flags);
			pc_ctx_unpin(ctx);
			pc_ctx_put(ctx);
		}
	}
	pc_sb_cpu(sb);
}

/*
 * Is there a counter @task's record could be for? Not where neither
 * @task nor this CPU has any: the record is then not even made.
 */
static bool pc_sb_maybe(struct task_struct *task)
{
	return rcu_access_pointer(task->perf_counter_ctxp) ||
	       pc_cpu_ctx_maybe_busy();
}

/* An MMAP record's path: the file's, or a name for what has none. */
static const char *pc_mmap_path(struct vm_area_struct *vma, char *buf,
				u32 *flags)
{
	const char *name;
	char *path;

	if (vma->vm_file) {
		path = d_path(&vma->vm_file->f_path, buf,
			      PERF_COUNTER_MMAP_PATH_MAX);
		if (!IS_ERR(path))
			return path;
		/* too long for the buffer (or gone): said, not guessed */
		*flags |= PERF_COUNTER_MMAP_CUT;
		return "//toolong";
	}
	*flags |= PERF_COUNTER_MMAP_ANON;
	name = arch_vma_name(vma);
	if (!name && vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);
	return name ?: "//anon";
}

/**
 * __perf_counter_mmap() - an executable mapping was made
 * @vma:	the mapping, in current's address space, mmap_lock held
 *
 * Called through perf_counter_mmap().
 */
void __perf_counter_mmap(struct vm_area_struct *vma)
{
	struct pc_sb sb = {
		.kind	= PERF_COUNTER_REC_MMAP,
		.bit	= PERF_SIDEBAND_MMAP,
		.task	= current,
	};
	union {
		u64	word;
		u32	half[2];
	} prot_flags;
	u32 flags = 0, prot = 0;
	const char *path;
	size_t len;
	char *buf;
	u64 *body;

	if (!(vma->vm_flags & VM_EXEC) || !pc_sb_maybe(current))
		return;
	/* the body, then room for d_path() to write the path in */
	body = kzalloc(PC_MMAP_BODY_WORDS * sizeof(u64) +
		       PERF_COUNTER_MMAP_PATH_MAX, GFP_KERNEL);
	if (!body) {
		sb.lost = true;		/* counted, for every queue */
		pc_sb_emit(&sb, sb.task);
		return;
	}
	buf = (char *)(body + PC_MMAP_BODY_WORDS);
	path = pc_mmap_path(vma, buf, &flags);
	/* d_path() fits the buffer; a mapping's name is short: both fit */
	len = strnlen(path, PERF_COUNTER_MMAP_PATH_MAX - 1);
	/* the path's bytes and its NUL, in whole words of NULs after */
	memcpy(body + PC_MMAP_FIXED_WORDS, path, len);

	if (vma->vm_flags & VM_READ)
		prot |= PROT_READ;
	if (vma->vm_flags & VM_WRITE)
		prot |= PROT_WRITE;
	prot |= PROT_EXEC;
	body[0] = vma->vm_start;
	body[1] = vma->vm_end - vma->vm_start;
	body[2] = (u64)vma->vm_pgoff << PAGE_SHIFT;
	if (vma->vm_file) {
		struct inode *inode = file_inode(vma->vm_file);

		body[3] = huge_encode_dev(inode->i_sb->s_dev);
		body[4] = inode->i_ino;
	}
	prot_flags.half[0] = prot;	/* in the struct's order */
	prot_flags.half[1] = flags;
	body[5] = prot_flags.word;
	sb.body = body;
	sb.body_words = PC_MMAP_FIXED_WORDS + len / sizeof(u64) + 1;
	pc_sb_emit(&sb, sb.task);
	kfree(body);
}

/**
 * __perf_counter_comm() - a task's name changed
 * @task:	the task, its new name set
 * @exec:	by exec, rather than prctl(PR_SET_NAME) or /proc
 *
 * Called through perf_counter_comm().
 */
void __perf_counter_comm(struct task_struct *task, bool exec)
{
	union {
		u64	word[1 + TASK_COMM_LEN / sizeof(u64)];
		struct {
			u32	flags;
			u32	reserved;
			char	comm[TASK_COMM_LEN];
		};
	} body = { };
	struct pc_sb sb = {
		.kind		= PERF_COUNTER_REC_COMM,
		.bit		= PERF_SIDEBAND_COMM,
		.task		= task,
		.body		= body.word,
		.body_words	= ARRAY_SIZE(body.word),
	};

	if (!pc_sb_maybe(task))
		return;
	body.flags = exec ? PERF_COUNTER_COMM_EXEC : 0;
	get_task_comm(body.comm, task);
	pc_sb_emit(&sb, sb.task);
}

/**
 * __perf_counter_fork() - a task was made
 * @child:	the new task, its pid given, not yet running; made by
 *		current
 *
 * Called through perf_counter_fork(), from the parent: its counters
 * (and copies of them the child inherited) are told of the child.
 */
void __perf_counter_fork(struct task_struct *child)
{
	struct pc_sb sb = {
		.kind	= PERF_COUNTER_REC_FORK,
		.bit	= PERF_SIDEBAND_TASK,
		.task	= child,
		.parent	= current,
	};

	/* the parent's counters (the child's copies share their queues) */
	if (pc_sb_maybe(current))
		pc_sb_emit(&sb, current);
}

/**
 * pc_sideband_exit() - the EXIT records of an exiting task
 * @ctx:	@task's context, under its lock, its counters just stopped
 *		(none samples after this)
 * @task:	current, exiting
 */
void pc_sideband_exit(struct perf_counter_context *ctx,
		      struct task_struct *task)
{
	struct pc_sb sb = {
		.kind	= PERF_COUNTER_REC_EXIT,
		.bit	= PERF_SIDEBAND_TASK,
		.task	= task,
	};

	if (!static_branch_unlikely(&pc_sideband_key.key))
		return;
	rcu_read_lock();		/* the parent stays while we look */
	sb.parent = rcu_dereference(task->real_parent);
	pc_sb_ctx_locked(ctx, &sb);
	rcu_read_unlock();
}

/**
 * pc_sideband_exit_cpu() - an exiting task's EXIT records for this CPU's
 * counters
 * @task:	current, exiting, its own context's records written
 */
void pc_sideband_exit_cpu(struct task_struct *task)
{
	struct pc_sb sb = {
		.kind	= PERF_COUNTER_REC_EXIT,
		.bit	= PERF_SIDEBAND_TASK,
		.task	= task,
	};

	if (!static_branch_unlikely(&pc_sideband_key.key) ||
	    !pc_cpu_ctx_maybe_busy())
		return;
	rcu_read_lock();
	sb.parent = rcu_dereference(task->real_parent);
	pc_sb_cpu(&sb);
	rcu_read_unlock();
}
