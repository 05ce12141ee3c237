// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: the overflow interrupt's entry.
 *
 * The rules it keeps, whichever driver runs:
 *
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

#include "x86_pmu.h"

/**
 * pc_x86_pmi() - the overflow interrupt's work on this CPU
 * @cpuc:	this CPU's registers (or a model's)
 * @lvtpc:	its local APIC's LVTPC entry (or a model's)
 * @regs:	the interrupted state
 *
 * Call only while the registers are ours: LVTPC is then ours too.
 *
 * Return: how many counters had wrapped; else 1 for the late interrupt
 * of a counter already stopped, or 0 (not ours). A late interrupt that
 * finds other counters wrapped is counted as theirs: it is the one the
 * interrupt controller held for them all.
 */
int pc_x86_pmi(struct pc_hw_cpu *cpuc, const struct pc_x86_lvtpc *lvtpc,
	       struct pt_regs *regs)
{
	const struct pc_x86_driver *d =
		container_of(cpuc->pmu, struct pc_x86_driver, pmu);
	bool late = pc_hw_late_irq(cpuc);
	int handled;

	if (!d->lvtpc_last)
		lvtpc->write(lvtpc->priv, APIC_DM_NMI);
	handled = pc_hw_handle_overflow(cpuc, regs);
	if (d->lvtpc_last)
		lvtpc->write(lvtpc->priv, APIC_DM_NMI);
	return handled ?: late;
}
NOKPROBE_SYMBOL(pc_x86_pmi);
