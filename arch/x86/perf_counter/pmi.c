// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: the overflow interrupt's entry.
 *
 * The rules it keeps, whichever driver runs:
 *
 * - The interrupt is an NMI while a counter on the CPU asked for one
 *   (the nmi bit, honoured for CAP_SYS_ADMIN), else the maskable
 *   PERF_COUNTER_VECTOR: the core switches LVTPC as the first such
 *   counter goes on and the last goes off (pc_hw_irq_route()). When
 *   counters on one CPU disagree, NMI wins: an NMI serves the others
 *   too, a maskable interrupt would not keep the promise to the one.
 *   Either kind runs this same work; an NMI that comes while LVTPC is
 *   on the vector still handles any counter found wrapped (it may be
 *   one raised just before the switch).
 * - The LVTPC entry is unmasked on every interrupt that comes while the
 *   registers are ours, whether a counter is on or not: P4 and the P6
 *   family's later parts mask it as they deliver, and a handler that
 *   returned early would lose every later interrupt. It is unmasked
 *   first, so that a counter that wraps again while the handler runs
 *   raises the next interrupt (the CPU holds it until this one
 *   returns) — but last on P4 (@lvtpc_last), whose interrupt line stays
 *   asserted while a CCCR's OVF flag is set: unmasked before the
 *   handler clears the flags, it would raise a second NMI at once.
 * - It returns how many counters had wrapped: the NMI layer takes more
 *   than one as a sign that a second NMI, raised by the same overflows
 *   while this one was taken, follows back to back, and absorbs it.
 * - An interrupt that finds no counter wrapped is claimed if a counter
 *   left its register wrapped just before (pc_hw_late_irq()): it was
 *   raised for that one. Any other is left to the NMI layer. Whatever
 *   it finds, the first interrupt after such a counter left is the one
 *   it raised (the APIC holds one at most), and uses up the mark.
 */
#include <linux/kprobes.h>
#include <linux/perf_counter_hw.h>
#include <asm/apicdef.h>
#include <asm/irq_vectors.h>

#include "x86_pmu.h"

/**
 * pc_x86_lvtpc() - the LVTPC entry for an overflow interrupt, unmasked
 * @nmi:	an NMI; else the maskable PERF_COUNTER_VECTOR
 *
 * Return: the entry's value.
 */
u32 pc_x86_lvtpc(bool nmi)
{
	return nmi ? APIC_DM_NMI : APIC_DM_FIXED | PERF_COUNTER_VECTOR;
}

/**
 * pc_x86_pmi() - the overflow interrupt's work on this CPU
 * @cpuc:	this CPU's registers (or a model's)
 * @regs:	the interrupted state
 *
 * Call only while the registers are ours: LVTPC is then ours too, and
 * is unmasked, as the CPU's counters want it (pc_hw_irq_route()).
 *
 * Return: how many counters had wrapped; else 1 for the late interrupt
 * of a counter already stopped, or 0 (not ours). A late interrupt that
 * finds other counters wrapped is counted as theirs: it is the one the
 * interrupt controller held for them all.
 */
int pc_x86_pmi(struct pc_hw_cpu *cpuc, struct pt_regs *regs)
{
	const struct pc_x86_driver *d =
		container_of(cpuc->pmu, struct pc_x86_driver, pmu);
	bool late = pc_hw_late_irq(cpuc);
	int handled;

	if (!d->lvtpc_last)
		pc_hw_irq_route(cpuc);
	handled = pc_hw_handle_overflow(cpuc, regs);
	if (d->lvtpc_last)
		pc_hw_irq_route(cpuc);
	return handled ?: late;
}
NOKPROBE_SYMBOL(pc_x86_pmi);
