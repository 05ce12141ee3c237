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
 * trace it at every level (see syscall.c). Without perf_events in the
 * kernel there is no knob, and the level is 2, the base kernel's
 * default.
 */
#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/perf_event.h>

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
 * @hw_event:	its description
 * @cpu_wide:	it counts every task on a CPU (pid -1)
 *
 * Return: 0, or -EACCES where kernel.perf_event_paranoid asks for a
 * privilege current does not have.
 */
int pc_check_privilege(const struct perf_counter_hw_event *hw_event,
		       bool cpu_wide)
{
	int level = pc_paranoid_level();
	bool needed;

	needed = level > 2 ||
		 (level > 0 && cpu_wide) ||
		 (level > 1 && !hw_event->exclude_kernel);
	if (needed && !perfmon_capable())
		return -EACCES;
	return 0;
}
