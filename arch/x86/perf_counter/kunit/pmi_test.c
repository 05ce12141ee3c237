// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 overflow interrupt's entry, pc_x86_pmi(), on the P6 model,
 * whose LVTPC masks itself on delivery (Pentium M and later) and whose
 * interrupts may come late: what the NMI layer is told, LVTPC left
 * unmasked whatever the handler finds, late interrupts claimed, one
 * that lands inside a reload, and the two kinds of interrupt — the
 * maskable vector, or an NMI where a counter asked. (P4's are in
 * p4_test.c.)
 */
#include <linux/delay.h>
#include <linux/sched/clock.h>
#include <asm/apic.h>
#include <asm/apicdef.h>
#include <asm/desc.h>
#include <asm/hardirq.h>
#include <asm/idtentry.h>
#include <asm/irq_vectors.h>

#include "internal.h"
#include "msr_model.h"

/* A P6 counter of cycles on the model, sampling every @period if set. */
static struct perf_counter *pmi_counter(struct kunit *test,
					struct pc_msr_model *m, u64 period)
{
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c;

	hw.irq_period = period;
	hw.record_type = period ? PERF_RECORD_VALUE : 0;
	c = pc_model_counter(test, m, &hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	return c;
}

/*
 * Two counters wrap before one interrupt is taken: the handler says
 * two, so that the NMI layer absorbs the back-to-back NMI the second
 * may have raised. (Saying one made that NMI "unknown".)
 */
static void pmi_two_overflows_in_one_interrupt_are_both_reported(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter *a = pmi_counter(test, m, 100);
	struct perf_counter *b = pmi_counter(test, m, 100);
	u64 value = 0;

	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	pc_msr_model_run(m, 100, true);
	KUNIT_EXPECT_EQ(test, m->pending, 3UL);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 2);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(a, &value), 1);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(b, &value), 1);
	KUNIT_EXPECT_EQ(test, m->lvtpc, pc_x86_lvtpc(false));
	/* control: one counter's interrupt is one */
	pc_hw_cpu_del(&m->cpuc, b);
	pc_msr_model_run(m, 100, true);
	KUNIT_EXPECT_EQ(test, m->pending, 1UL);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
	pc_model_counter_free(m, b);
}

/*
 * A counter wraps and is taken off before its interrupt comes (the
 * task switched out with irqs off): the interrupt, delivered late,
 * finds nothing wrapped, and is claimed as the PMU's, once. A further
 * NMI that finds nothing is not the PMU's. The control: with nothing
 * stopped, an NMI that finds nothing is not claimed either.
 */
static void pmi_late_interrupt_of_a_stopped_counter_is_claimed_once(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter *a = pmi_counter(test, m, 100);
	u64 value = 0;

	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	pc_msr_model_run(m, 40, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_nmi(m), 0);	/* control */

	pc_msr_model_run(m, 60, true);
	KUNIT_EXPECT_NE(test, m->pending, 0UL);
	pc_hw_cpu_del(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 100);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, pc_msr_model_nmi(m), 0);
	KUNIT_EXPECT_EQ(test, m->unclaimed, 0);

	/* its sample was not lost: it is taken at its next event */
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(a, &value), 0);
	pc_msr_model_run(m, 2, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(a, &value), 1);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
}

/*
 * The late interrupt's window is 10 ms from the stop whatever the
 * uptime: past 2^32 ns (4.3 s after boot) as well. (Held in an
 * unsigned long, the window's end wrapped on a 32-bit kernel, and from
 * then on no late interrupt was ever claimed: i386 failed the case
 * above whenever its KUnit ran later than 4.3 s into the boot.) The
 * case waits, at most a few seconds of its boot, until that point.
 */
static void pmi_late_interrupt_is_claimed_past_4_3_s_of_uptime(struct kunit *test)
{
	const u64 past = (1ULL << 32) + 100 * NSEC_PER_MSEC;
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter *a = pmi_counter(test, m, 100);
	unsigned int waits = 0;
	u64 t0, now;

	while (local_clock() < past && waits++ < 100)
		msleep(50);
	KUNIT_ASSERT_GE(test, local_clock(), past);

	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	pc_msr_model_run(m, 100, true);
	/* one CPU's clock (i386's differ), whatever the host stalls */
	preempt_disable();
	t0 = local_clock();
	pc_hw_cpu_del(&m->cpuc, a);
	now = local_clock();
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, READ_ONCE(m->cpuc.late_irq));
	KUNIT_EXPECT_GE(test, m->cpuc.late_irq_until, t0 + PC_HW_LATE_IRQ_NS);
	KUNIT_EXPECT_LE(test, m->cpuc.late_irq_until, now + PC_HW_LATE_IRQ_NS);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, m->unclaimed, 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
}

/*
 * The same late interrupt, after the CPU's last counter left: LVTPC,
 * masked by the delivery, is unmasked although no counter is on, so
 * the next counter's interrupts are delivered. (A handler that
 * returned at once with no counter on lost every later interrupt.)
 */
static void pmi_unmasks_lvtpc_with_no_counter_on(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter *a = pmi_counter(test, m, 100);
	struct perf_counter *b = pmi_counter(test, m, 50);
	u64 value = 0;

	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	pc_msr_model_run(m, 100, true);
	pc_hw_cpu_del(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, m->cpuc.nr_on, 0);
	pc_msr_model_service(m);
	KUNIT_EXPECT_EQ(test, m->lvtpc, pc_x86_lvtpc(false));

	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	pc_msr_model_run(m, 50, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, m->pmis_lost, 0);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(b, &value), 1);
	KUNIT_EXPECT_EQ(test, value, 50);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, b);
	pc_model_counter_free(m, a);
}

static void pmi_deliver_now(struct pc_msr_model *m)
{
	pc_msr_model_service(m);
}

/*
 * A counter wrapped and its interrupt comes while the counter is being
 * loaded again (resumed after an idle pause), in the middle of the
 * reload's fold: the counter must still be seen then, and the interrupt
 * handled as its own, and nothing left marked late to swallow the next
 * unrelated NMI. A reload that hides the counter from the handler
 * before its fold fails here.
 */
static void pmi_interrupt_during_a_reload_is_handled_not_left_late(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter *a = pmi_counter(test, m, 100);
	u64 value = 0;

	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	pc_msr_model_run(m, 100, true);
	KUNIT_EXPECT_NE(test, m->pending, 0UL);
	pc_hw_pause(&m->cpuc, a);
	m->in_read = pmi_deliver_now;
	pc_hw_resume(&m->cpuc, a);
	KUNIT_EXPECT_NULL(test, m->in_read);	/* it was delivered */
	KUNIT_EXPECT_EQ(test, m->handled, 1);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(a, &value), 1);
	KUNIT_EXPECT_EQ(test, value, 100);
	KUNIT_EXPECT_EQ(test, pc_msr_model_nmi(m), 0);
	KUNIT_EXPECT_EQ(test, m->unclaimed, 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
}

/*
 * The model's own check: an interrupt raised while LVTPC is masked is
 * lost, as on the CPU.
 */
static void pmi_masked_lvtpc_loses_the_interrupt(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter *a = pmi_counter(test, m, 100);

	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	m->lvtpc |= APIC_LVT_MASKED;
	pc_msr_model_run(m, 100, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 0);
	KUNIT_EXPECT_EQ(test, m->pmis_lost, 1);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
}

/*
 * With no counter that asked for an NMI, the overflow interrupt is
 * PERF_COUNTER_VECTOR, and LVTPC, masked by its delivery, is unmasked on
 * the vector. A counter that asks for an NMI (the nmi bit, honoured for
 * CAP_SYS_ADMIN) makes the CPU's interrupt an NMI as it goes on, before
 * it can wrap — for every counter there, NMI winning — and the vector
 * comes back as it goes off. The model delivers as LVTPC says.
 */
static void pmi_vector_unless_a_counter_on_asks_for_nmi(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *a = pmi_counter(test, m, 100);
	struct perf_counter *b;
	u64 value = 0;

	hw.irq_period = 50;
	hw.record_type = PERF_RECORD_VALUE;
	hw.nmi = 1;
	b = pc_model_counter(test, m, &hw);
	KUNIT_ASSERT_NOT_NULL(test, b);

	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_EXPECT_EQ(test, m->lvtpc, pc_x86_lvtpc(false));
	pc_msr_model_run(m, 100, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, m->vectors, 1);
	KUNIT_EXPECT_EQ(test, m->nmis, 0);
	KUNIT_EXPECT_EQ(test, m->lvtpc, pc_x86_lvtpc(false));

	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	KUNIT_EXPECT_EQ(test, m->lvtpc, pc_x86_lvtpc(true));
	pc_msr_model_run(m, 50, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, m->nmis, 1);
	pc_msr_model_run(m, 50, true);		/* both wrap */
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 2);
	KUNIT_EXPECT_EQ(test, m->nmis, 2);
	KUNIT_EXPECT_EQ(test, m->lvtpc, pc_x86_lvtpc(true));
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(b, &value), 2);

	pc_hw_cpu_del(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, m->lvtpc, pc_x86_lvtpc(false));
	pc_msr_model_run(m, 100, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, m->vectors, 2);
	KUNIT_EXPECT_EQ(test, m->nmis, 2);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(a, &value), 3);
	KUNIT_EXPECT_EQ(test, m->unclaimed, 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
	pc_model_counter_free(m, b);
}

/*
 * Not the model: this kernel's own IDT and local APIC. The maskable
 * overflow vector's gate points at our entry, and an interrupt sent on
 * it reaches the handler, which counts it in this CPU's PMI statistics
 * (a self-IPI: no emulated counter here ever wraps).
 */
static void pmi_vector_is_in_the_idt_and_reaches_the_handler(struct kunit *test)
{
	unsigned int before, after = 0;
	struct desc_ptr idt;
	gate_desc *gate;
	int i;

	store_idt(&idt);
	gate = (gate_desc *)idt.address + PERF_COUNTER_VECTOR;
	KUNIT_EXPECT_EQ(test, gate_offset(gate),
			(unsigned long)asm_sysvec_perf_counter);
	if (!boot_cpu_has(X86_FEATURE_APIC) || !apic)
		kunit_skip(test, "no local APIC to send the vector with");

	preempt_disable();
	before = this_cpu_read(irq_stat.apic_perf_irqs);
	apic->send_IPI_self(PERF_COUNTER_VECTOR);
	/* delivered once interrupts are on; wait a millisecond at most */
	for (i = 0; i < 1000; i++) {
		after = this_cpu_read(irq_stat.apic_perf_irqs);
		if (after != before)
			break;
		udelay(1);
	}
	preempt_enable();
	KUNIT_EXPECT_EQ(test, after, before + 1);
}

/*
 * A frequency counter on a register (one sample a second asked, its
 * first period two events): each interrupt's sample stands for the
 * period that ran out (PERF_RECORD_PERIOD) and its value is the sum of
 * the periods so far; the register is then loaded for the next period,
 * retuned from a rate far above one a second: 8 times as long each time,
 * the most one retune moves it, and not an event sooner.
 */
static void pmi_frequency_counter_retunes_its_register(struct kunit *test)
{
	struct perf_counter_hw_event hw =
		pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	u64 w[2], period = 2, sum = 0;
	struct perf_counter *a;
	int i;

	hw.irq_period = 2;
	hw.record_type = PERF_RECORD_VALUE | PERF_RECORD_PERIOD;
	a = pc_model_counter(test, m, &hw);
	KUNIT_ASSERT_NOT_NULL(test, a);
	a->sample_freq = 1;
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	for (i = 0; i < 4; i++) {
		pc_msr_model_run(m, period - 1, true);
		KUNIT_EXPECT_EQ(test, m->pending, 0UL);
		pc_msr_model_run(m, 1, true);
		KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
		KUNIT_EXPECT_EQ(test, pc_hw_model_last_sample(a, w, 2), i + 1);
		sum += period;
		KUNIT_EXPECT_EQ(test, w[1], period);
		KUNIT_EXPECT_EQ(test, w[0], sum);
		period *= 8;
		KUNIT_EXPECT_EQ(test, a->period, period);
	}
	KUNIT_EXPECT_EQ(test, pc_hw_model_lost(a), 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
}

static struct kunit_case pc_x86_pmi_cases[] = {
	KUNIT_CASE(pmi_two_overflows_in_one_interrupt_are_both_reported),
	KUNIT_CASE(pmi_late_interrupt_of_a_stopped_counter_is_claimed_once),
	KUNIT_CASE(pmi_late_interrupt_is_claimed_past_4_3_s_of_uptime),
	KUNIT_CASE(pmi_unmasks_lvtpc_with_no_counter_on),
	KUNIT_CASE(pmi_interrupt_during_a_reload_is_handled_not_left_late),
	KUNIT_CASE(pmi_masked_lvtpc_loses_the_interrupt),
	KUNIT_CASE(pmi_vector_unless_a_counter_on_asks_for_nmi),
	KUNIT_CASE(pmi_vector_is_in_the_idt_and_reaches_the_handler),
	KUNIT_CASE(pmi_frequency_counter_retunes_its_register),
	{}
};

static struct kunit_suite pc_x86_pmi_suite = {
	.name = "perf_counter_x86_pmi",
	.test_cases = pc_x86_pmi_cases,
};
kunit_test_suite(pc_x86_pmi_suite);
