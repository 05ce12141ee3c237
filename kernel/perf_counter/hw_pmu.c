// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the PMU driver and who uses its registers.
 *
 * One driver is registered at boot, for the CPU model found (or none),
 * with the state its register check found: ok, unchecked
 * (perf_counter.no_pmu_check=1) or broken, in which case hardware
 * counters are refused with ENODEV and the boot log says why. The
 * registers are reserved from the rest of the kernel (perf_events, the
 * NMI watchdog) while any hardware counter exists: the first counter's
 * init reserves them, the last one's destroy gives them back, under
 * pc_hw_reserve_mutex, which the CPU hotplug callback takes too so that
 * a CPU coming online is made ready as the others were.
 *
 * What an event may count is checked at the open (pc_hw_decode()), and
 * whether a group's hardware counters could ever be on together when a
 * member joins (pc_hw_group_fits()): what cannot work is refused then,
 * not found out at every context switch.
 */
#include <linux/cpumask.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "hw_counter.h"

static const struct pc_pmu *pc_pmu;
static enum pc_pmu_state pc_pmu_state;
static DEFINE_PER_CPU(struct pc_hw_cpu, pc_hw_cpus);

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "perf_counter."

/*
 * pmu reports state and cannot be set. Its mode keeps sysfs from
 * writing it, but the kernel command line calls ->set for any parameter
 * it names, mode or not, and a NULL ->set there is a NULL pointer call
 * during boot. So a value given there is logged and ignored; 0, not an
 * error: parse_args() stops handing the words after "--" to init once
 * a parameter has failed, and a bad word for a report must not change
 * how the system boots.
 */
static int pc_hw_pmu_ignore(const char *val, const struct kernel_param *kp)
{
	pr_warn("%s is read-only: \"%s\" ignored\n", kp->name, val ? val : "");
	return 0;
}

/* /sys/module/perf_counter/parameters/pmu: "name,counters,width,state" */
static int pc_hw_pmu_show(char *buf, const struct kernel_param *kp)
{
	static const char * const state[] = {
		[PC_PMU_OK]		= "ok",
		[PC_PMU_UNCHECKED]	= "unchecked",
		[PC_PMU_BROKEN]		= "broken",
	};
	const struct pc_pmu *pmu = READ_ONCE(pc_pmu);

	if (!pmu)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s,%u,%u,%s\n", pmu->name, pmu->nr_counters,
			  pmu->width, state[pc_pmu_state]);
}

static const struct kernel_param_ops pc_hw_pmu_param = {
	.flags	= KERNEL_PARAM_OPS_FL_NOARG,
	.set	= pc_hw_pmu_ignore,
	.get	= pc_hw_pmu_show,
};
module_param_cb(pmu, &pc_hw_pmu_param, NULL, 0444);
MODULE_PARM_DESC(pmu, "the PMU driver: name,counters,width,state, or none");

/* Counters holding the registers; the first reserves, the last frees. */
static DEFINE_MUTEX(pc_hw_reserve_mutex);
static unsigned int pc_hw_users;

/* perf_counter.no_pmu_check=1: emulators whose PMUs do not count. */
static bool no_pmu_check;
module_param(no_pmu_check, bool, 0444);
MODULE_PARM_DESC(no_pmu_check,
		 "use the PMU even if its registers do not work as they should");

/**
 * pc_hw_register() - make a PMU driver the one hardware counters use
 * @pmu:	the driver, chosen for this CPU model
 * @regs:	the CPU's own register accessors
 * @state:	whether its registers were found to work
 *
 * Called once at boot. A broken PMU is registered too, so that user
 * space is told why hardware counters are refused.
 *
 * Return: 0, -EBUSY if a driver is registered already, or -EINVAL for
 * registers wider than 48 bits or more than PC_HW_MAX_COUNTERS.
 */
int pc_hw_register(const struct pc_pmu *pmu, const struct pc_hw_regs *regs,
		   enum pc_pmu_state state)
{
	int cpu;

	if (pc_pmu)
		return -EBUSY;
	if (WARN_ON(pmu->width > PC_HW_RAW_BITS ||
		    pmu->nr_counters > PC_HW_MAX_COUNTERS))
		return -EINVAL;
	for_each_possible_cpu(cpu) {
		struct pc_hw_cpu *cpuc = per_cpu_ptr(&pc_hw_cpus, cpu);

		cpuc->pmu = pmu;
		cpuc->regs = regs;
		if (pmu->poll_ns && pmu->poll)
			pc_hw_poll_init(cpuc);
	}
	pc_pmu_state = state;
	pc_pmu = pmu;
	return 0;
}

/**
 * pc_hw_register_checked() - register a driver as its register check found it
 * @pmu:	the driver, chosen for this CPU model
 * @regs:	the CPU's own register accessors
 * @works:	the driver's check: do @pmu's registers work on this CPU?
 *		Not called when perf_counter.no_pmu_check=1 skips it (for
 *		emulators whose PMUs do not count: counters are then
 *		placed, scheduled and read anyway).
 * @why:	what a failed check means, for the boot line
 *
 * Names the driver, its registers and its state in one boot line.
 *
 * Return: the state it was registered with, or pc_hw_register()'s
 * negative errno.
 */
int pc_hw_register_checked(const struct pc_pmu *pmu,
			   const struct pc_hw_regs *regs,
			   bool (*works)(const struct pc_pmu *pmu),
			   const char *why)
{
	enum pc_pmu_state state;
	int err;

	if (no_pmu_check)
		state = PC_PMU_UNCHECKED;
	else
		state = works(pmu) ? PC_PMU_OK : PC_PMU_BROKEN;
	err = pc_hw_register(pmu, regs, state);
	if (err)
		return err;
	if (state == PC_PMU_BROKEN)
		pr_warn("perf_counter: %s PMU, %u counters, %u bits: %s, hardware counters disabled (perf_counter.no_pmu_check=1 skips this check)\n",
			pmu->name, pmu->nr_counters, pmu->width, why);
	else
		pr_info("perf_counter: %s PMU, %u counters, %u bits%s\n",
			pmu->name, pmu->nr_counters, pmu->width,
			state == PC_PMU_UNCHECKED ?
			", not checked (perf_counter.no_pmu_check)" : "");
	return state;
}

/**
 * pc_hw_pmu() - the registered PMU driver
 *
 * Return: the driver, or NULL if this CPU has none.
 */
const struct pc_pmu *pc_hw_pmu(void)
{
	return pc_pmu;
}

/**
 * pc_hw_pmu_state() - whether the registered driver's registers work
 *
 * Return: enum pc_pmu_state; meaningless without a driver.
 */
enum pc_pmu_state pc_hw_pmu_state(void)
{
	return pc_pmu_state;
}

/**
 * pc_hw_this_cpu() - this CPU's counter registers
 *
 * Return: the state, for use with irqs (or preemption) off.
 */
struct pc_hw_cpu *pc_hw_this_cpu(void)
{
	return this_cpu_ptr(&pc_hw_cpus);
}

/**
 * pc_hw_forbid_cpu() - keep hardware counters off a CPU
 * @cpu:	a CPU whose registers belong to another (a second thread)
 *
 * Counters of tasks that run there do not count while they do (their
 * time running says so); CPU-wide hardware counters for it are refused.
 * Called by the driver at boot, and from its cpu_online op as @cpu comes,
 * before any counter can be on it.
 */
void pc_hw_forbid_cpu(int cpu)
{
	per_cpu_ptr(&pc_hw_cpus, cpu)->forbidden = true;
}

/**
 * pc_hw_decode() - check and decode a hardware counter's event
 * @pmu:	the driver
 * @counter:	a counter whose hw_event is PERF_TYPE_HARDWARE or raw
 *
 * Return: 0, the driver's -EINVAL for an event it cannot count, or
 * -EACCES for one that counts the whole core (@counts_core) opened
 * without a CPU-wide counter's privilege.
 */
int pc_hw_decode(const struct pc_pmu *pmu, struct perf_counter *counter)
{
	struct pc_hw_counter *hwc = &counter->hw;
	struct pc_hw_place place[PC_HW_MAX_PLACES];
	int err;

	err = pmu->decode(pmu, &counter->hw_event, counter->extra_config, hwc);
	if (err)
		return err;
	/*
	 * An event that counts the whole core is the opener's to ask for
	 * with a CPU-wide counter's privilege; a fork copies what its
	 * parent was given, whoever forks and whatever the level now.
	 */
	if (hwc->counts_core && !counter->parent) {
		struct perf_counter_hw_event_ext desc = pc_counter_desc(counter);

		err = pc_allow_cpu(&desc, counter->extra_config);
		if (err)
			return err;
	}
	/* An event no register can take is refused now, not at each run. */
	if (pmu->places(pmu, hwc, place) <= 0)
		return -EINVAL;
	pc_period_init(counter, counter->period);
	return 0;
}

/* The registers are taken from the rest of the kernel while in use. */
static int pc_hw_get(void)
{
	int err = 0;

	mutex_lock(&pc_hw_reserve_mutex);
	if (!pc_hw_users && pc_pmu->reserve)
		err = pc_pmu->reserve();
	if (!err)
		pc_hw_users++;
	mutex_unlock(&pc_hw_reserve_mutex);
	return err;
}

static void pc_hw_put(void)
{
	mutex_lock(&pc_hw_reserve_mutex);
	if (!--pc_hw_users && pc_pmu->release)
		pc_pmu->release();
	mutex_unlock(&pc_hw_reserve_mutex);
}

/**
 * pc_hw_cpu_online() - a CPU comes online: its share of the registers
 *
 * Runs on that CPU, may sleep. The driver sees every CPU come, and may
 * keep it off the registers (pc_hw_forbid_cpu()); while they are
 * reserved, it makes them ready there as it did on the others.
 */
void pc_hw_cpu_online(void)
{
	pc_hw_poll_reset(pc_hw_this_cpu());
	mutex_lock(&pc_hw_reserve_mutex);
	if (pc_pmu && pc_pmu->cpu_online)
		pc_pmu->cpu_online();
	mutex_unlock(&pc_hw_reserve_mutex);
}

int pc_hw_init(struct perf_counter *counter)
{
	int err;

	if (!pc_pmu || pc_pmu_state == PC_PMU_BROKEN)
		return -ENODEV;
	if (counter->cpu >= 0 &&
	    per_cpu_ptr(&pc_hw_cpus, counter->cpu)->forbidden)
		return -ENODEV;
	err = pc_hw_decode(pc_pmu, counter);
	if (err)
		return err;
	return pc_hw_get();
}

void pc_hw_destroy(struct perf_counter *counter)
{
	pc_hw_put();
}

static bool pc_hw_compatible(const struct pc_pmu *pmu,
			     const struct perf_counter *a,
			     const struct perf_counter *b)
{
	return !pmu->compatible || pmu->compatible(&a->hw, &b->hw);
}

/**
 * pc_hw_group_fits() - could @leader's group, with @counter, ever go on?
 * @leader:	a group leader, its member list stable (ctx->mutex held)
 * @counter:	a new member
 *
 * Return: 0, -EINVAL if @counter can never be on with another member
 * (see pc_pmu.compatible), or -ENOSPC if the group's hardware counters
 * have no placement even on an idle CPU.
 */
int pc_hw_group_fits(struct perf_counter *leader, struct perf_counter *counter)
{
	struct perf_counter *member;
	struct pc_hw_want *want;
	unsigned int n = 0;
	int err = -ENOSPC;

	if (!pc_has_cap(counter, PC_CAP_REGISTER))
		return 0;
	if (pc_has_cap(leader, PC_CAP_REGISTER) &&
	    !pc_hw_compatible(pc_pmu, leader, counter))
		return -EINVAL;
	pc_for_each_member(member, leader)
		if (pc_has_cap(member, PC_CAP_REGISTER) &&
		    !pc_hw_compatible(pc_pmu, member, counter))
			return -EINVAL;
	want = kmalloc_array(PC_HW_MAX_COUNTERS, sizeof(*want), GFP_KERNEL);
	if (!want)
		return -ENOMEM;
	pc_object_made(PC_OBJ_ARRAY);
	if (pc_has_cap(leader, PC_CAP_REGISTER))
		want[n++].nr = pc_pmu->places(pc_pmu, &leader->hw,
					      want[0].place);
	pc_for_each_member(member, leader) {
		if (!pc_has_cap(member, PC_CAP_REGISTER))
			continue;
		if (n == pc_pmu->nr_counters)
			goto out;
		want[n].nr = pc_pmu->places(pc_pmu, &member->hw, want[n].place);
		n++;
	}
	if (n == pc_pmu->nr_counters)
		goto out;
	want[n].nr = pc_pmu->places(pc_pmu, &counter->hw, want[n].place);
	if (pc_hw_assign(want, n + 1))
		err = 0;
out:
	pc_object_ended(PC_OBJ_ARRAY);
	kfree(want);
	return err;
}
