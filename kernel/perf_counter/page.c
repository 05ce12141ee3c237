// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the counter page, for reads without a system call.
 *
 * mmap() of a counter fd maps one zeroed page, read-only, that shows
 * the counter's value and times as they stood at a CLOCK_MONOTONIC
 * stamp, and whether they run on from there (the layout and the
 * reader's protocol: struct perf_counter_page in the uapi header). It
 * belongs to the top-level counter: made at the first mmap(), freed
 * with the counter. Each mapping holds the counter's file, so the
 * counter outlives every mapping of its page.
 *
 * Only counters of the caller's own thread, neither inherited nor
 * sampling, get one: an inherited counter's copies count in other
 * tasks, a sampling counter's read() gives records, and a counter of
 * another task or of a CPU would show registers and a clock run by
 * someone else. Their context is the task's own and never swaps (only
 * contexts that hold inherited copies do), so the page always shows
 * the counter it was made for.
 *
 * Writers: the page changes where what it shows changes — the counter's
 * state (sched in and out, enable, disable, error:
 * pc_counter_set_state()), a read()'s fold, every software event
 * (sw_counter.c), a hardware counter moved to another register or
 * reloaded by its overflow interrupt (hw_overflow.c), and the scheduler
 * tick while the counter runs (pc_page_tick()). Each runs with irqs
 * off, under ctx->lock or on the CPU the counter is on, where such a
 * context only changes (internal.h): writers never overlap, and @seq
 * need not be atomic.
 *
 * No writer runs in NMI. x86's overflow NMI folds hardware counters and
 * loads them again, but publishes nothing: it could interrupt a writer
 * between its two increments of @seq, and a torn page would then look
 * whole. That costs nothing, because a hardware counter that is on shows
 * PAGE_READ only with a register user mode can read, and only drivers
 * whose overflow interrupt is maskable (PowerPC) offer one: on x86 the
 * page says "read()" while such a counter counts (rdpmc needs CR4.PCE,
 * which QEMU's TCG does not honour).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "internal.h"

/* Start an update: readers that saw the old @seq start again. */
static inline void pc_page_begin(struct perf_counter_page *page)
{
	WRITE_ONCE(page->seq, page->seq + 1);
	smp_wmb();	/* @seq odd before the fields: pairs with the reader's */
}

static inline void pc_page_end(struct perf_counter_page *page)
{
	smp_wmb();	/* the fields before @seq even: pairs with the reader's */
	WRITE_ONCE(page->seq, page->seq + 1);
}

/**
 * __pc_page_publish() - show the counter's value and times in its page
 * @counter:	a counter with a page, under its ctx->lock or on the CPU it
 *		is on with irqs off; its context's time brought up to date
 *
 * The times are those of pc_counter_update_times() at the context's
 * time, whether or not it was called. Which kinds may be read from the
 * page while they count: software events (every event publishes), the
 * clocks (extrapolated from @stamp) and hardware counters with a user
 * register; tracepoint counters and the rest only while stopped.
 */
void __pc_page_publish(struct perf_counter *counter)
{
	struct perf_counter_page *page = counter->page;
	struct perf_counter_context *ctx = counter->ctx;
	u64 now = ctx->time, delta = now - counter->tstamp;
	u64 enabled = counter->time_enabled, running = counter->time_running;
	u64 value = atomic64_read(&counter->count), base = 0;
	u16 reg = 0, bits = 0;
	u32 flags = 0;

	if (WARN_ON_ONCE(in_nmi()))
		return;
	switch (counter->state) {
	case PC_STATE_ACTIVE:
		enabled += delta;
		running += delta;
		if (!ctx->is_active)
			break;
		flags = PERF_COUNTER_PAGE_RUNNING;
		if (pc_has_cap(counter, PC_CAP_CLOCK)) {
			value += now - counter->clock.start;
			flags |= PERF_COUNTER_PAGE_READ | PERF_COUNTER_PAGE_CLOCK;
		} else if (pc_has_cap(counter, PC_CAP_COUNT_CURRENT) ||
			   (pc_has_cap(counter, PC_CAP_REGISTER) &&
			    pc_hw_user_reg(counter, &reg, &bits, &base))) {
			flags |= PERF_COUNTER_PAGE_READ;
		}
		break;
	case PC_STATE_INACTIVE:
		/* Multiplexed out, or its task off the CPU: ask read(). */
		enabled += delta;
		break;
	case PC_STATE_OFF:
		flags = PERF_COUNTER_PAGE_READ;
		break;
	}

	pc_page_begin(page);
	page->flags = flags;
	page->reg = reg;
	page->reg_bits = bits;
	page->value = value;
	page->reg_base = base;
	page->time_enabled = enabled;
	page->time_running = running;
	page->stamp = ktime_get_mono_fast_ns();
	pc_page_end(page);
}

/**
 * pc_page_event() - a software event counter's new value, in its page
 * @counter:	a counter with a page, on this CPU, irqs off
 *
 * The times run on from the stamp of the last full publish.
 */
void pc_page_event(struct perf_counter *counter)
{
	struct perf_counter_page *page = counter->page;

	pc_assert_irqs_off();
	pc_page_begin(page);
	page->value = atomic64_read(&counter->count);
	pc_page_end(page);
}

struct pc_page_install {
	struct perf_counter		*counter;
	struct perf_counter_page	*page;
};

/**
 * __pc_page_reg() - a hardware counter's register was loaded anew
 * @counter:	a counter with a page, on this CPU with irqs off, not in
 *		NMI: moved to another register to make room for one more,
 *		or loaded again by its overflow interrupt
 *
 * Its count was folded, so the value and the register's new base go in
 * together; the times and the stamp stay, as its context's time may not
 * be up to date here. Only a page that names a register changes.
 */
void __pc_page_reg(struct perf_counter *counter)
{
	struct perf_counter_page *page = counter->page;
	u16 reg, bits;
	u64 base;

	pc_assert_irqs_off();
	if (!page->reg || !pc_hw_user_reg(counter, &reg, &bits, &base))
		return;
	pc_page_begin(page);
	page->value = atomic64_read(&counter->count);
	page->reg = reg;
	page->reg_bits = bits;
	page->reg_base = base;
	pc_page_end(page);
}

/* Runs where the counter's context is: the page goes in, filled. */
static void __pc_page_install(struct perf_counter_context *ctx, void *info)
{
	struct pc_page_install *req = info;
	struct perf_counter *counter = req->counter;

	lockdep_assert_held(&ctx->lock);
	if (counter->page)
		return;		/* another first mmap() won */
	pc_ctx_update_time(ctx);
	WRITE_ONCE(counter->page, req->page);
	if (counter->attached)
		WRITE_ONCE(ctx->nr_pages, ctx->nr_pages + 1);
	__pc_page_publish(counter);
}

static void pc_page_renew(struct perf_counter *counter)
{
	if (counter->page && counter->state == PC_STATE_ACTIVE)
		__pc_page_publish(counter);
}

/**
 * pc_page_tick() - the scheduler tick: renew the pages of what runs on
 * @ctx:	current's context, or NULL; irqs off
 *
 * A reader extrapolates a running clock (and the times) from @stamp on
 * CLOCK_MONOTONIC, while the kernel counts on local_clock(): the two
 * drift apart by up to a few hundred parts per million. Publishing again
 * at every tick bounds the stretch either is taken for the other to one
 * tick, however long the task runs without a switch. Only contexts with
 * a counter that has a page pay for it (a walk of their counters).
 */
void pc_page_tick(struct perf_counter_context *ctx)
{
	struct perf_counter *leader, *member;

	if (!ctx || !READ_ONCE(ctx->nr_pages))
		return;
	raw_spin_lock(&ctx->lock);
	if (ctx->is_active && ctx->active_cpu == smp_processor_id()) {
		pc_ctx_update_time(ctx);
		pc_for_each_leader(leader, ctx) {
			pc_page_renew(leader);
			pc_for_each_member(member, leader)
				pc_page_renew(member);
		}
	}
	raw_spin_unlock(&ctx->lock);
}

/* The page a counter's mappings share: made by the first one. */
static struct perf_counter_page *pc_page_get(struct perf_counter *counter)
{
	struct pc_page_install req = { .counter = counter };
	struct perf_counter_context *ctx = counter->ctx;

	if (READ_ONCE(counter->page))
		return counter->page;
	req.page = (void *)get_zeroed_page(GFP_KERNEL_ACCOUNT);
	if (!req.page)
		return NULL;
	req.page->version = PERF_COUNTER_PAGE_VERSION;

	/*
	 * Two first mmap()s at once: ctx->lock lets one install. Not
	 * ctx->mutex: mmap_lock is held here, and ctx->mutex is taken
	 * outside a queue's read_mutex, which is taken outside mmap_lock.
	 */
	pc_ctx_call(ctx, __pc_page_install, &req);
	if (READ_ONCE(counter->page) == req.page)
		pc_object_made(PC_OBJ_PAGE);
	else
		free_page((unsigned long)req.page);
	return counter->page;
}

/*
 * A fault on a mapping of the page: its first touch, or the first after
 * madvise(MADV_DONTNEED) or anything else that dropped the page but not
 * the mapping. The page is the counter's for as long as the mapping
 * holds the counter's file.
 */
static vm_fault_t pc_page_fault(struct vm_fault *vmf)
{
	struct perf_counter *counter = vmf->vma->vm_file->private_data;
	struct perf_counter_page *page = READ_ONCE(counter->page);

	if (vmf->pgoff || !page || (vmf->flags & FAULT_FLAG_WRITE))
		return VM_FAULT_SIGBUS;
	vmf->page = virt_to_page(page);
	get_page(vmf->page);
	return 0;
}

static const struct vm_operations_struct pc_page_vm_ops = {
	.fault	= pc_page_fault,
};

/**
 * pc_page_mmap() - mmap() of a counter fd: map its page, read-only
 * @counter:	the fd's top-level counter
 * @vma:	the mapping: one page at offset 0, not writable
 *
 * The mapping is not copied into a child at fork: the page shows its
 * owner's counter, and its register is only right on its owner's CPU.
 * VM_DONTCOPY says so, and VM_IO keeps it so: madvise(MADV_DOFORK),
 * which clears VM_DONTCOPY, refuses a VM_IO mapping with EINVAL (a
 * child given its parent's page would self-read the parent's counter
 * as its own, and no retry would tell it). VM_IO also keeps the page
 * from other tasks' reads through /proc/PID/mem, ptrace() and
 * process_vm_readv() (EIO): it is for its owner alone. The page goes in
 * at the first touch (pc_page_fault()).
 *
 * Return: 0; -EINVAL for another length or offset; -EACCES for a
 * writable or executable mapping; -EOPNOTSUPP for a counter that cannot
 * have a page (not the caller's own thread's — its context must still be
 * the caller's —, inherited, or sampling or recording switches);
 * -ENOMEM.
 */
int pc_page_mmap(struct perf_counter *counter, struct vm_area_struct *vma)
{
	struct perf_counter_context *ctx = counter->ctx;
	struct perf_counter_page *page;

	if (vma->vm_pgoff || vma_pages(vma) != 1)
		return -EINVAL;
	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EACCES;
	/*
	 * A dead context's task is compared only: a new task at its old
	 * address is not its owner. The caller's own context is bound to
	 * it (never swapped, see swap.c) and only its exit marks it dead.
	 */
	if (!ctx || READ_ONCE(ctx->task) != current || READ_ONCE(ctx->dead) ||
	    rcu_access_pointer(current->perf_counter_ctxp) != ctx ||
	    counter->hw_event.inherit || counter->queue)
		return -EOPNOTSUPP;

	page = pc_page_get(counter);
	if (!page)
		return -ENOMEM;
	vma->vm_flags &= ~(VM_MAYWRITE | VM_MAYEXEC);
	vma->vm_flags |= VM_IO | VM_DONTEXPAND | VM_DONTDUMP | VM_DONTCOPY;
	vma->vm_ops = &pc_page_vm_ops;
	return 0;
}

/**
 * pc_page_free() - the counter ends: drop its page
 * @counter:	a counter being freed; no mapping is left (each holds the
 *		counter's file)
 */
void pc_page_free(struct perf_counter *counter)
{
	if (!counter->page)
		return;
	free_page((unsigned long)counter->page);
	pc_object_ended(PC_OBJ_PAGE);
}
