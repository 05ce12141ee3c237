// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: choosing the PMU driver at boot, checking that
 * its registers work, the MSR accessors, the reservation and the NMI
 * handler's registration (the interrupt's work is pmi.c's).
 *
 * Boot parameter perf_counter.no_pmu_check=1 skips the register check,
 * for emulators whose PMU registers hold nothing (QEMU's TCG): hardware
 * counters can then be opened, placed, multiplexed and read, and count
 * nothing (the parameter is the core's, see hw_pmu.c, as is
 * /sys/module/perf_counter/parameters/pmu, which says which driver runs).
 */
#include <linux/cpu.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/perf_counter_hw.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor.h>

#include "amd.h"
#include "evntsel.h"
#include "x86_pmu.h"

static u64 pc_x86_rdmsr(void *priv, u32 msr)
{
	u64 val;

	rdmsrl(msr, val);
	return val;
}

static void pc_x86_wrmsr(void *priv, u32 msr, u64 val)
{
	wrmsrl(msr, val);
}

/* The overflow interrupt: an NMI, or the maskable vector (pmi.c). */
static void pc_x86_lvtpc_route(void *priv, bool nmi)
{
	apic_write(APIC_LVTPC, pc_x86_lvtpc(nmi));
}

static const struct pc_hw_regs pc_x86_msrs = {
	.read		= pc_x86_rdmsr,
	.write		= pc_x86_wrmsr,
	.irq_route	= pc_x86_lvtpc_route,
};

static const struct pc_x86_driver *const pc_x86_drivers[] = {
	&pc_p6_pmu.x86, &pc_k7_pmu.x86, &pc_k8_pmu.x86, &pc_k10_pmu.x86,
	&pc_f15h_pmu.x86, &pc_zen4_pmu.x86, &pc_zen_pmu.x86, &pc_p4_driver,
};

static const struct pc_x86_driver *pc_x86_driver;

/**
 * pc_x86_chosen() - the x86 PMU driver chosen at boot
 *
 * Return: the driver, or NULL if this CPU has none.
 */
const struct pc_x86_driver *pc_x86_chosen(void)
{
	return pc_x86_driver;
}

/**
 * pc_x86_regs_check() - do a driver's registers work, and are they free?
 * @d:		the driver
 * @msr:	MSR accessors that report a fault (the CPU's, or a model's)
 *
 * The last counter must not be running (@d->check_ctl's @d->check_on
 * bit clear: someone, the firmware say, would be using it); a pattern
 * written to it must read back, and its old value is put back.
 * Emulators that drop these MSRs read back 0.
 *
 * Return: true if the registers hold what is written; false if the last
 * counter runs, an MSR faults or the pattern does not read back.
 */
bool pc_x86_regs_check(const struct pc_x86_driver *d,
		       const struct pc_x86_msr_safe *msr)
{
	u32 ctr = pc_x86_ctr_msr(d, d->pmu.nr_counters - 1);
	u64 old, val, pattern = 0x5a5a17ULL;
	bool ok;

	if (msr->read(msr->priv, d->check_ctl, &val) || (val & d->check_on))
		return false;
	if (msr->read(msr->priv, ctr, &old))
		return false;
	if (msr->write(msr->priv, ctr, pattern) ||
	    msr->read(msr->priv, ctr, &val))
		return false;
	ok = (val & 0xffffffffULL) == pattern;
	msr->write(msr->priv, ctr, old);
	return ok;
}

static int pc_x86_rdmsr_safe(void *priv, u32 msr, u64 *val)
{
	return rdmsrl_safe(msr, val);
}

static int pc_x86_wrmsr_safe(void *priv, u32 msr, u64 val)
{
	return wrmsrl_safe(msr, val);
}

static const struct pc_x86_msr_safe pc_x86_msrs_safe = {
	.read	= pc_x86_rdmsr_safe,
	.write	= pc_x86_wrmsr_safe,
};

static bool pc_x86_regs_hold(const struct pc_pmu *pmu)
{
	return pc_x86_regs_check(container_of(pmu, struct pc_x86_driver, pmu),
				 &pc_x86_msrs_safe);
}

/* Set while the registers are ours; read by the overflow interrupts. */
static bool pc_x86_held;

/**
 * pc_x86_cpu_start() - make one CPU's registers ready for counters
 * @cpuc:	its registers (the CPU's own, or a model's)
 *
 * On each CPU as the registers are taken, and on one that comes online
 * while they are held: the driver turns off what a previous user left
 * on (@clear), and the overflow interrupt is pointed at the maskable
 * vector. On a CPU coming online a counter may be on already: a per-CPU
 * kernel thread's, scheduled there before the hotplug callback runs. Its
 * register is ours and loaded, so @clear leaves registers in use alone;
 * the interrupt goes where the CPU's counters ask (@nr_nmi). A CPU kept off the registers (a second thread) writes
 * nothing: they are its sibling's, whose counters may be on.
 */
void pc_x86_cpu_start(struct pc_hw_cpu *cpuc)
{
	const struct pc_x86_driver *d =
		container_of(cpuc->pmu, struct pc_x86_driver, pmu);

	if (cpuc->forbidden)
		return;
	if (d->clear)
		d->clear(cpuc);
	pc_hw_irq_route(cpuc);
}

static void pc_x86_start_this_cpu(void *unused)
{
	pc_x86_cpu_start(pc_hw_this_cpu());
}

/**
 * pc_x86_cpu_stop() - leave one CPU's registers to the next user
 * @cpuc:	its registers (the CPU's own, or a model's)
 *
 * As the registers are given back, their counters all off: the driver
 * puts back what it changed beyond the counters (@stop). A second
 * thread writes nothing.
 */
void pc_x86_cpu_stop(struct pc_hw_cpu *cpuc)
{
	const struct pc_x86_driver *d =
		container_of(cpuc->pmu, struct pc_x86_driver, pmu);

	if (!cpuc->forbidden && d->stop)
		d->stop(cpuc);
}

/*
 * LVTPC back on NMI, where perf_events, the next user, expects it: on
 * every CPU, second threads too (each thread has its own local APIC).
 */
static void pc_x86_stop_this_cpu(void *unused)
{
	pc_x86_cpu_stop(pc_hw_this_cpu());
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

static void pc_x86_unreserve(const struct pc_x86_driver *d,
			     unsigned int nr_ctr, unsigned int nr_ctl)
{
	while (nr_ctl--)
		release_evntsel_nmi(d->ctl_msr(nr_ctl));
	while (nr_ctr--)
		release_perfctr_nmi(pc_x86_ctr_msr(d, nr_ctr));
}

/**
 * pc_x86_reserve() - take the chosen driver's registers
 *
 * Every counter and control register, through the kernel's perfctr
 * reservation, which perf_events and the NMI watchdog use too: all of
 * them or none. Then each CPU's are made ready (pc_x86_cpu_start()).
 *
 * Return: 0, or -EBUSY if another user holds one of them.
 */
int pc_x86_reserve(void)
{
	const struct pc_x86_driver *d = pc_x86_driver;
	unsigned int ctr, ctl;

	for (ctr = 0; ctr < d->pmu.nr_counters; ctr++)
		if (!reserve_perfctr_nmi(pc_x86_ctr_msr(d, ctr)))
			goto busy;
	for (ctl = 0; ctl < d->nr_ctl; ctl++)
		if (!reserve_evntsel_nmi(d->ctl_msr(ctl)))
			goto busy_ctl;
	on_each_cpu(pc_x86_start_this_cpu, NULL, 1);
	WRITE_ONCE(pc_x86_held, true);
	return 0;

busy:
	ctl = 0;
busy_ctl:
	pc_x86_unreserve(d, ctr, ctl);
	return -EBUSY;
}

/**
 * pc_x86_release() - give the chosen driver's registers back
 *
 * The counters are all off by now. Each CPU's LVTPC is put back on
 * NMI, where perf_events, the next user, expects it.
 */
void pc_x86_release(void)
{
	const struct pc_x86_driver *d = pc_x86_driver;

	/* First: an interrupt from now on does not route LVTPC again. */
	WRITE_ONCE(pc_x86_held, false);
	on_each_cpu(pc_x86_stop_this_cpu, NULL, 1);
	pc_x86_unreserve(d, d->pmu.nr_counters, d->nr_ctl);
}

/**
 * pc_x86_cpu_arrive() - a CPU comes online
 * @cpuc:	its registers (the CPU's own, or a model's)
 * @cpu:	its number
 * @held:	the registers are reserved
 *
 * A second thread is kept off the registers it shares, whenever it
 * comes (a CPU brought up after boot, say with "maxcpus=1" and then
 * sysfs), and writes nothing. Any other is made ready as
 * pc_x86_reserve() made the others, if the registers are held.
 */
void pc_x86_cpu_arrive(struct pc_hw_cpu *cpuc, int cpu, bool held)
{
	const struct pc_x86_driver *d =
		container_of(cpuc->pmu, struct pc_x86_driver, pmu);

	if (d->second_thread && d->second_thread(cpu))
		cpuc->forbidden = true;
	if (held)
		pc_x86_cpu_start(cpuc);
}

/**
 * pc_x86_cpu_online() - the driver's cpu_online op
 *
 * Runs on the CPU that came online, under the core's reservation lock
 * (which pc_x86_reserve() and pc_x86_release() run under too).
 */
void pc_x86_cpu_online(void)
{
	unsigned long flags;

	/*
	 * Irqs off, as the reservation's IPI has them: no counter goes on
	 * between the clear's look at a register and its write.
	 */
	local_irq_save(flags);
	pc_x86_cpu_arrive(pc_hw_this_cpu(), smp_processor_id(),
			  READ_ONCE(pc_x86_held));
	local_irq_restore(flags);
}

/**
 * pc_x86_overflow() - an overflow interrupt, either kind, on this CPU
 * @regs:	the interrupted state
 *
 * Every NMI of the chain comes here, and the maskable vector. While the
 * registers are ours, see pmi.c; after the last counter gave them back,
 * or on a CPU kept off them, an overflow's interrupt may still come
 * late, and is claimed without touching LVTPC.
 *
 * Return: as pc_x86_pmi(), or 1 for a late one, 0 if not ours.
 */
int pc_x86_overflow(struct pt_regs *regs)
{
	struct pc_hw_cpu *cpuc = pc_hw_this_cpu();

	if (READ_ONCE(pc_x86_held) && !cpuc->forbidden)
		return pc_x86_pmi(cpuc, regs);
	return pc_hw_late_irq(cpuc);
}
NOKPROBE_SYMBOL(pc_x86_overflow);

/* This CPU is in the maskable overflow interrupt (vector.c). */
DEFINE_PER_CPU(bool, pc_x86_in_vector);

/*
 * An NMI that lands inside the vector's handler does not run the
 * handler's work again on the counters it is in the middle of (a
 * period's update is not atomic): with no counter asking for an NMI,
 * LVTPC is on the vector, and this NMI is someone else's — or, at
 * most, the late one of a counter just stopped.
 */
static int pc_x86_nmi(unsigned int cmd, struct pt_regs *regs)
{
	if (this_cpu_read(pc_x86_in_vector))
		return pc_hw_late_irq(pc_hw_this_cpu());
	return pc_x86_overflow(regs);
}
NOKPROBE_SYMBOL(pc_x86_nmi);

static void pc_x86_read_lvtpc(void *val)
{
	*(u32 *)val = apic_read(APIC_LVTPC);
}

/*
 * /sys/kernel/debug/perf_counter/pmi, for root: each online CPU's
 * overflow interrupt, as its LVTPC entry says: "nmi", "vector" (ours),
 * "masked", or the raw entry; "none" without a driver. Reading it sends
 * each CPU an IPI: it is not for every user.
 */
static int pc_x86_pmi_show(struct seq_file *m, void *unused)
{
	const char *sep = "";
	int cpu;
	u32 val;

	if (!pc_x86_driver) {
		seq_puts(m, "none\n");
		return 0;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (smp_call_function_single(cpu, pc_x86_read_lvtpc, &val, 1))
			continue;
		val &= ~APIC_SEND_PENDING;	/* delivery status */
		seq_printf(m, "%s%d:", sep, cpu);
		if (val & APIC_LVT_MASKED)
			seq_puts(m, "masked");
		else if (val == pc_x86_lvtpc(true))
			seq_puts(m, "nmi");
		else if (val == pc_x86_lvtpc(false))
			seq_puts(m, "vector");
		else
			seq_printf(m, "%#x", val);
		sep = " ";
	}
	cpus_read_unlock();
	seq_putc(m, '\n');
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pc_x86_pmi);

/* Why an Intel family 6 or an AMD part has no driver, for the boot line. */
static const char *pc_x86_why_no_driver(const struct cpuinfo_x86 *c)
{
	if (c->x86_vendor == X86_VENDOR_AMD)
		return pc_amd_why_no_driver(c);
	if (c->x86_vendor != X86_VENDOR_INTEL || c->x86 != 6)
		return "";
	if (cpu_has(c, X86_FEATURE_ARCH_PERFMON))
		return " (architectural performance monitoring, which perf_counter does not drive)";
	return " (not a P6 the manuals list: Pentium Pro, II, III or M)";
}

static int __init pc_x86_pmu_init(void)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	const struct pc_x86_driver *d = NULL;
	unsigned int i;
	int state;

	pc_debugfs_add("pmi", &pc_x86_pmi_fops);
	for (i = 0; i < ARRAY_SIZE(pc_x86_drivers) && !d; i++)
		if (pc_x86_drivers[i]->match(c))
			d = pc_x86_drivers[i];
	if (!d) {
		pr_info("perf_counter: no PMU driver for %s family %u model %u%s: software counters only\n",
			c->x86_vendor_id, c->x86, c->x86_model,
			pc_x86_why_no_driver(c));
		return 0;
	}
	if (!boot_cpu_has(X86_FEATURE_APIC)) {
		pr_info("perf_counter: %s PMU without a local APIC: software counters only\n",
			d->pmu.name);
		return 0;
	}

	pc_x86_driver = d;
	state = pc_hw_register_checked(&d->pmu, &pc_x86_msrs,
				       pc_x86_regs_hold,
				       "its last counter is in use, or its registers do not hold what is written");
	if (state < 0)
		return state;
	if (state == PC_PMU_BROKEN)
		return 0;
	if (d->setup)
		d->setup();
	if (d->second_thread) {
		cpus_read_lock();
		for_each_possible_cpu(i)
			if (d->second_thread(i))
				pc_hw_forbid_cpu(i);
		cpus_read_unlock();
	}
	return register_nmi_handler(NMI_LOCAL, pc_x86_nmi, 0, "perf_counter");
}
device_initcall(pc_x86_pmu_init);
