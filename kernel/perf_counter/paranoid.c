// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: who may count what.
 *
 * kernel.perf_event_paranoid and CAP_PERFMON mean for perf_counter what
 * they mean for 6.1's perf_events (2.6.31 called the knob
 * kernel.perf_counter_paranoid). "Privileged" is CAP_PERFMON or
 * CAP_SYS_ADMIN in the initial user namespace (perfmon_capable()),
 * asked only when the level needs it, so no denial is audited for a
 * counter that needs no privilege:
 *
 *   -1, 0	anyone may count any task it may trace, and any CPU
 *   1		counting a whole CPU (pid -1) needs privilege
 *   2		so does counting or sampling in kernel mode: an
 *		unprivileged counter must set exclude_kernel
 *   3 and up	perf_counter_open() needs privilege at all (the level
 *		Debian's kernels boot with)
 *
 * Each refusal is EACCES. Counting another task needs the right to
 * trace it at every level (see syscall.c). A security module then has
 * its say on each of these privileges (lsm.c). Without perf_events in the
 * kernel there is no knob, and the level is 2, the base kernel's
 * default.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/security.h>

#include "internal.h"

static int pc_paranoid_level(void)
{
#ifdef CONFIG_PERF_EVENTS
	return READ_ONCE(sysctl_perf_event_paranoid);
#else
	return 2;
#endif
}

/**
 * pc_check_privilege() - may current open this counter?
 * @desc:	its description
 * @extra:	its extra control words (@desc->hw.extra_config_len bytes)
 * @cpu_wide:	it counts every task on a CPU (pid -1)
 *
 * Past level 3's refusal of the unprivileged, the security module is
 * asked whether current may open counters at all; then each privilege
 * the counter needs is checked against kernel.perf_event_paranoid and,
 * if the level allows it, asked of the module too (lsm.c), in
 * perf_event_open()'s order: kernel mode, a whole CPU, a tracepoint.
 *
 * Return: 0, -EACCES where kernel.perf_event_paranoid asks for a
 * privilege current does not have, or the module's refusal.
 */
int pc_check_privilege(const struct perf_counter_hw_event_ext *desc,
		       const u64 *extra, bool cpu_wide)
{
	const struct perf_counter_hw_event *hw_event = &desc->hw;
	u64 config = hw_event->event_config;
	int level = pc_paranoid_level();
	int err;

	if (level > 2 && !perfmon_capable())
		return -EACCES;
	err = pc_lsm_open(desc, extra, PERF_SECURITY_OPEN);
	if (err)
		return err;
	if (!hw_event->exclude_kernel) {
		if (level > 1 && !perfmon_capable())
			return -EACCES;
		err = pc_lsm_open(desc, extra, PERF_SECURITY_KERNEL);
		if (err)
			return err;
	}
	if (cpu_wide) {
		err = pc_allow_cpu(desc, extra);
		if (err)
			return err;
	}
	/* A tracepoint counter that counts puts a probe on the kernel. */
	if (!PERF_COUNTER_IS_RAW(config) &&
	    PERF_COUNTER_TYPE(config) == PERF_TYPE_TRACEPOINT &&
	    !hw_event->exclude_kernel)
		return pc_lsm_open(desc, extra, PERF_SECURITY_TRACEPOINT);
	return 0;
}

/**
 * pc_allow_cpu() - may current count what a whole CPU does?
 * @desc:	the description of the counter that would
 * @extra:	its extra control words
 *
 * For CPU-wide counters, and for a driver's events that count more
 * than the task they are opened on (P4's events shared by the threads
 * of a core). A caller with CAP_PERFMON or CAP_SYS_ADMIN, or any
 * caller at kernel.perf_event_paranoid 0 or below, passes the level's
 * check, but for user stack words in switch records (switch_stack:
 * every task's memory), which only such a capability opens; then the
 * security module decides (PERF_SECURITY_CPU).
 *
 * Return: 0, -EACCES from the level's check, or the module's refusal.
 */
int pc_allow_cpu(const struct perf_counter_hw_event_ext *desc,
		 const u64 *extra)
{
	if (pc_paranoid_level() > 0 && !perfmon_capable())
		return -EACCES;
	/* every task's stack memory, whatever the level */
	if (desc->switch_stack && !perfmon_capable())
		return -EACCES;
	return pc_lsm_open(desc, extra, PERF_SECURITY_CPU);
}

/* May @cred trace a task in @ns by CAP_SYS_PTRACE? Asked quietly. */
static bool pc_cred_may_ptrace(const struct cred *cred,
			       struct user_namespace *ns)
{
	return security_capable(cred, ns, CAP_SYS_PTRACE,
				CAP_OPT_NOAUDIT) == 0;
}

/**
 * pc_task_could_trace() - could @task trace current?
 * @task:	the task current is opening a counter on, not current nor
 *		a thread of current's (a thread may always trace its own
 *		process)
 *
 * The credential part of the kernel's ptrace rule, with the roles of
 * sys_perf_counter_open() swapped: @task as the tracer, current as the
 * tracee, real credentials (PTRACE_MODE_REALCREDS).
 * __ptrace_may_access() in kernel/ptrace.c asks that the tracer's uid
 * be the tracee's real, effective and saved uid, and its gid likewise
 * the tracee's three gids, or that the tracer have CAP_SYS_PTRACE in
 * the tracee's user namespace; cap_ptrace_access_check() in
 * security/commoncap.c then asks that, in one user namespace, the
 * tracee's permitted capabilities be a subset of the tracer's, or
 * again CAP_SYS_PTRACE. The dumpable check and other security modules
 * are left out: they guard the tracee's memory, not who outranks whom.
 *
 * A counter current opens on a task that could not trace it belongs to
 * a more privileged monitor, and that task's prctl() must not turn it
 * off or on (2.6.31 narrowed prctl() to the caller's own counters for
 * this). The answer is taken at the open, from the credentials the
 * monitor attached with: by the prctl() the monitor may have exited or
 * changed its credentials, and the counter is still its.
 *
 * Return: true if @task could trace current.
 */
bool pc_task_could_trace(struct task_struct *task)
{
	const struct cred *tracee = current_cred();
	const struct cred *tracer;
	bool ok;

	rcu_read_lock();
	tracer = __task_cred(task);
	ok = (uid_eq(tracer->uid, tracee->euid) &&
	      uid_eq(tracer->uid, tracee->suid) &&
	      uid_eq(tracer->uid, tracee->uid) &&
	      gid_eq(tracer->gid, tracee->egid) &&
	      gid_eq(tracer->gid, tracee->sgid) &&
	      gid_eq(tracer->gid, tracee->gid)) ||
	     pc_cred_may_ptrace(tracer, tracee->user_ns);
	if (ok)
		ok = (tracer->user_ns == tracee->user_ns &&
		      cap_issubset(tracee->cap_permitted,
				   tracer->cap_permitted)) ||
		     pc_cred_may_ptrace(tracer, tracee->user_ns);
	rcu_read_unlock();
	return ok;
}
