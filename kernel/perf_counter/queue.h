/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: the record queue of a sampling counter, as the rest of
 * the core sees it. struct pc_queue is queue.c's alone: producers
 * (sample.c) write a record with pc_queue_lock() (pc_queue_trylock()
 * in NMI), pc_queue_reserve(), pc_queue_put() for each word (or
 * pc_queue_put_words() for many) and pc_queue_commit(), then
 * pc_queue_unlock(); the reader (file.c) reads
 * whole records with pc_queue_read().
 */
#ifndef _KERNEL_PERF_COUNTER_QUEUE_H
#define _KERNEL_PERF_COUNTER_QUEUE_H

#include <linux/compiler_types.h>
#include <linux/percpu.h>
#include <linux/perf_counter.h>
#include <linux/poll.h>
#include <linux/sizes.h>
#include <linux/types.h>

struct file;
struct vm_area_struct;
struct iov_iter;
struct pc_queue;

/* A queue's size in bytes: a power of two between the two bounds. */
#define PC_QUEUE_MIN		SZ_4K
#define PC_QUEUE_DEFAULT	SZ_64K
#define PC_QUEUE_MAX		SZ_1M

/* A LOST or LOST_SIDEBAND record: header, count. */
#define PC_LOST_WORDS		2

/*
 * Side-band records, and exits' totals (records about tasks too), are
 * dropped and told apart from samples.
 */
static inline bool pc_kind_is_sideband(u32 type)
{
	return (type >= PERF_COUNTER_REC_MMAP &&
		type <= PERF_COUNTER_REC_EXIT) ||
	       type == PERF_COUNTER_REC_TOTALS;
}

struct pc_queue *pc_queue_alloc(u32 bytes, bool format_2009, bool lazy);
void pc_queue_hold(struct pc_queue *q);
void pc_queue_drop(struct pc_queue *q);
int pc_queue_prepare(struct pc_queue *q);
int pc_queue_resize(struct pc_queue *q, u32 bytes);
void pc_queue_set_wakeup(struct pc_queue *q, u32 bytes);
bool pc_queue_is_mapped(struct pc_queue *q);
bool pc_queue_has_ring(struct pc_queue *q);
bool pc_queue_format_2009(const struct pc_queue *q);
int pc_queue_mmap(struct pc_queue *q, struct vm_area_struct *vma);
u32 pc_queue_words(const struct pc_queue *q);
void pc_queue_lock(struct pc_queue *q, unsigned long *flags) __acquires(q);
bool __pc_queue_trylock(struct pc_queue *q, unsigned long *flags);
/* true with @q locked, as sparse is told */
#define pc_queue_trylock(q, flags) \
	__cond_lock(q, __pc_queue_trylock(q, flags))
void pc_queue_unlock(struct pc_queue *q, unsigned long flags) __releases(q);
bool pc_queue_reserve(struct pc_queue *q, u32 type, u32 words,
		      unsigned long *at);
void pc_queue_put(struct pc_queue *q, unsigned long *at, u64 word);
void pc_queue_put_at(struct pc_queue *q, unsigned long at, u64 word);
void pc_queue_put_words(struct pc_queue *q, unsigned long *at,
			const u64 *src, u32 n);
void pc_queue_commit(struct pc_queue *q, unsigned long at);
void pc_queue_missed(struct pc_queue *q, u64 n);
bool pc_queue_may_fit(struct pc_queue *q, u32 words);
void pc_queue_sideband_lost(struct pc_queue *q);
u64 pc_queue_dropped(struct pc_queue *q);
void pc_queue_set_error(struct pc_queue *q, bool error);
void pc_queue_writer_add(struct pc_queue *q);
void pc_queue_writer_end(struct pc_queue *q);
void pc_queue_hangup(struct pc_queue *q);
int pc_queue_fasync(struct pc_queue *q, int fd, struct file *file, int on);
ssize_t pc_queue_read(struct pc_queue *q, struct iov_iter *to, bool nonblock);
__poll_t pc_queue_poll(struct pc_queue *q, struct file *file,
		       struct poll_table_struct *wait);
#ifdef CONFIG_PERF_COUNTER_KUNIT_TEST
u32 pc_queue_kunit_copy(struct pc_queue *q, u64 *buf, u32 max);
u64 pc_queue_kunit_lost(struct pc_queue *q);
#endif

/*
 * How deep this CPU is in a record queue's lock, in a call chain's walk
 * (callchain.c), or in the tracepoint probe: a tracepoint hit meanwhile
 * — the lock's own events, a fault the walk takes, the probe's irq
 * toggles — is not counted, so no record is written inside another and
 * the probe never recurses (tp_counter.c). Every q->lock section goes
 * through pc_queue_lock() and pc_queue_unlock().
 */
DECLARE_PER_CPU(unsigned int, pc_recording);

#endif /* _KERNEL_PERF_COUNTER_QUEUE_H */
