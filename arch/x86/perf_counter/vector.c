// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: the maskable overflow interrupt.
 *
 * PERF_COUNTER_VECTOR is a system vector, installed in the IDT at boot
 * (arch/x86/kernel/idt.c, by patches/0006-x86-overflow-vector.patch);
 * LVTPC delivers it while no counter on the
 * CPU asked for an NMI (pmi.c). It runs with irqs off, like any
 * interrupt, so it never finds a context or queue lock of its own CPU
 * held, and is counted in /proc/interrupts' PMI line. Its samples'
 * IPs skid to where the interrupted code let interrupts in. An NMI
 * that lands inside it leaves the counters to it (pmu.c).
 */
#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/idtentry.h>
#include <asm/irq_vectors.h>

#include "x86_pmu.h"

DEFINE_IDTENTRY_SYSVEC(sysvec_perf_counter)
{
	ack_APIC_irq();
	inc_irq_stat(apic_perf_irqs);
	this_cpu_write(pc_x86_in_vector, true);
	pc_x86_overflow(regs);
	this_cpu_write(pc_x86_in_vector, false);
}
