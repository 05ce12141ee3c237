// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the set operation of its read-only parameters.
 *
 * The files under /sys/module/perf_counter/parameters/ report state
 * (objects, context_swaps, pmu, pmi); none of them can be set. Their
 * modes keep sysfs from writing them, but the kernel command line calls ->set for any
 * parameter it names, mode or not, and a NULL ->set there is a NULL
 * pointer call during boot. So each of them has this one.
 */
#include <linux/moduleparam.h>
#include <linux/perf_counter_hw.h>
#include <linux/printk.h>

/**
 * pc_param_ignore_set() - refuse a read-only parameter given at boot
 * @val: the value given on the command line; NULL for a bare name
 * @kp: the parameter
 *
 * Logs that the value was ignored and leaves the parameter as it is.
 * It returns 0, not an error: parse_args() stops handing the words after
 * "--" to init once any parameter has failed, and a bad word for a
 * counter's report must not change how the system boots.
 *
 * Return: 0.
 */
int pc_param_ignore_set(const char *val, const struct kernel_param *kp)
{
	pr_warn("%s is read-only: \"%s\" ignored\n",
		kp->name, val ? val : "");
	return 0;
}
