// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware counters through the system call: the driver this CPU calls
 * for is the one running, generic events open or fail exactly as its
 * event map says, groups never ask for more than the registers, and
 * enable, disable, read, multiplexing and the pinned error state work.
 *
 * Under QEMU's TCG the PMU registers hold nothing: booted plainly, the
 * driver finds them broken and every hardware counter is ENODEV; booted
 * with perf_counter.no_pmu_check=1, counters are placed and scheduled
 * for real and count zero. Each test says which of these it needs.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#ifdef __powerpc__
/* The driver the cpu line of /proc/cpuinfo calls for, with its PMCs. */
static const char *expected_pmu(int *counters, int *width)
{
	static const struct {
		const char	*cpu;	/* how the kernel names the part */
		const char	*pmu;
		int		pmcs;
	} parts[] = {
		{ "745", "PowerPC 7450", 6 }, { "744", "PowerPC 7450", 6 },
		{ "7400", "PowerPC 7400", 4 }, { "7410", "PowerPC 7400", 4 },
		{ "740/750", "PowerPC 750", 4 }, { "750", "PowerPC 750", 4 },
		{ "604e", "PowerPC 604e", 4 }, { "604r", "PowerPC 604e", 4 },
		{ "604", "PowerPC 604", 2 },
		{ "POWER8", "POWER8", 6 },	/* and POWER8E, POWER8NVL */
	};
	char line[256], cpu[64] = "";
	FILE *f = fopen("/proc/cpuinfo", "r");
	unsigned int i;

	if (!f)
		return "none";
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu : %63s", cpu) == 1)
			break;
	fclose(f);
	*width = 32;
	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		if (!strncmp(cpu, parts[i].cpu, strlen(parts[i].cpu))) {
			*counters = parts[i].pmcs;
			return parts[i].pmu;
		}
	}
	return "none";
}
#else
/* The driver /proc/cpuinfo calls for, with its registers. */
static const char *expected_pmu(int *counters, int *width)
{
	static const int p6_models[] = { 1, 3, 5, 6, 7, 8, 9, 0xa, 0xb, 0xd };
	char line[1024], vendor[32] = "";
	int family = -1, model = -1, perfmon = 0, core = 0, v2 = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	unsigned int i;

	if (!f)
		return "none";
	while (fgets(line, sizeof(line), f)) {
		if (!vendor[0] && sscanf(line, "vendor_id : %31s", vendor) == 1)
			continue;
		if (family < 0 && sscanf(line, "cpu family : %d", &family) == 1)
			continue;
		if (model < 0 && sscanf(line, "model : %d", &model) == 1)
			continue;
		if (!strncmp(line, "flags", 5)) {
			perfmon = !!strstr(line, " arch_perfmon");
			core = !!strstr(line, " perfctr_core");
			v2 = !!strstr(line, " perfmon_v2");
		}
		if (line[0] == '\n')
			break;		/* the first CPU is enough */
	}
	fclose(f);
	*counters = 4;
	*width = 48;
	if (!strcmp(vendor, "AuthenticAMD")) {
		if (family == 6 || family == 15 || family == 16)
			return family == 6 ? "AMD K7" : family == 15 ? "AMD K8" :
			       "AMD K10";
		*counters = 6;		/* the core counters */
		if (family == 21 && core)
			return "AMD family 15h";
		if ((family == 23 || family == 25) && core)
			return v2 ? "AMD Zen 4" : "AMD Zen";
		return "none";
	}
	for (i = 0; i < ARRAY_SIZE(p6_models); i++) {
		if (!strcmp(vendor, "GenuineIntel") && family == 6 &&
		    !perfmon && model == p6_models[i]) {
			*counters = 2;
			*width = 40;
			return "P6";
		}
	}
	if (!strcmp(vendor, "GenuineIntel") && family == 15) {
		*counters = 18;
		*width = 40;
		return "P4";
	}
	return "none";
}
#endif

static struct perf_counter_hw_event hw_generic(unsigned int id)
{
	struct perf_counter_hw_event hw;

	memset(&hw, 0, sizeof(hw));
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE, id);
	return hw;
}

static struct perf_counter_hw_event hw_raw(uint64_t code)
{
	struct perf_counter_hw_event hw;

	memset(&hw, 0, sizeof(hw));
	hw.event_config = PERF_COUNTER_RAW_CONFIG(code);
	return hw;
}

static int open_hw(struct perf_counter_hw_event hw, int group_fd)
{
	return sys_perf_counter_open(&hw, 0, -1, group_fd, 0);
}

/*
 * Has the model generic event @id? P6 and P4 have all; AMD no bus
 * cycles. No PowerPC part has cache references or bus cycles; the 750
 * and 7400 count taken and untaken branches apart, never together.
 */
static int in_event_map(const struct pc_pmu_info *pmu, unsigned int id)
{
	if (!strncmp(pmu->name, "AMD", 3) || !strcmp(pmu->name, "POWER8"))
		return id != PERF_COUNT_BUS_CYCLES;
	if (!strncmp(pmu->name, "PowerPC", 7)) {
		if (id == PERF_COUNT_CACHE_REFERENCES ||
		    id == PERF_COUNT_BUS_CYCLES)
			return 0;
		return id != PERF_COUNT_BRANCH_INSTRUCTIONS ||
		       strstr(pmu->name, "604") || strstr(pmu->name, "7450");
	}
	return 1;
}

/*
 * How many cycle counters can be on at once: every register, except on
 * P4, where the event needs one of the two FSB ESCRs, and on POWER8,
 * where PMC1-4 count it (PMC6 counts run cycles only).
 */
static int cycles_at_once(const struct pc_pmu_info *pmu)
{
	if (!strcmp(pmu->name, "P4"))
		return 2;
	if (!strcmp(pmu->name, "POWER8"))
		return 4;
	return pmu->counters;
}

/* A P4 raw event: the CCCR word and ESCR MSR, then the ESCR word. */
struct p4_raw {
	struct perf_counter_hw_event	hw;
	uint64_t			escr;
};

static int open_p4_raw(uint64_t cccr, uint32_t escr_msr, uint64_t escr)
{
	struct p4_raw ev;

	ev.hw = hw_raw(cccr | (uint64_t)escr_msr << 32);
	ev.hw.extra_config_len = sizeof(ev.escr);
	ev.escr = escr;
	return sys_perf_counter_open(&ev.hw, 0, -1, -1, 0);
}

struct vals {
	uint64_t value, enabled, running;
};

static int read_vals(int fd, struct vals *v)
{
	return read(fd, v, sizeof(*v)) == sizeof(*v) ? 0 : -1;
}

/* Why the PMU is not usable: its state, or "none" with no driver. */
static const char *pmu_why(const struct pc_pmu_info *pmu)
{
	return pmu->state[0] ? pmu->state : pmu->name;
}

FIXTURE(hw) {
	struct pc_pmu_info pmu;
	int usable;
};

FIXTURE_SETUP(hw)
{
	pc_read_pmu(&self->pmu);
	self->usable = pc_pmu_usable(&self->pmu);
}

FIXTURE_TEARDOWN(hw)
{
}

TEST_F(hw, driver_is_the_one_this_cpu_calls_for)
{
	/* static: the harness may longjmp out of an assertion */
	static int counters, width;
	const char *want = expected_pmu(&counters, &width);

	TH_LOG("PMU: %s %d x %d bits, %s; cpuinfo calls for %s",
	       self->pmu.name, self->pmu.counters, self->pmu.width,
	       self->pmu.state, want);
	ASSERT_STREQ(want, self->pmu.name);
	if (strcmp(want, "none")) {
		EXPECT_EQ(counters, self->pmu.counters);
		EXPECT_EQ(width, self->pmu.width);
	}
}

/* Is perf_counter.no_pmu_check=1 on the kernel's command line? */
static int pmu_check_skipped(void)
{
	char line[1024] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	return !!strstr(line, "perf_counter.no_pmu_check=1");
}

/*
 * The PMU's state is what the boot asked for: with the register check
 * skipped the driver must be usable ("unchecked"), so a regression that
 * refused every PMU fails here instead of turning the hardware cases
 * into skips; with the check on, it is "ok" or (TCG's registers hold
 * nothing) "broken", never unchecked.
 */
TEST_F(hw, pmu_state_is_what_the_command_line_asked_for)
{
	int skipped = pmu_check_skipped();

	ASSERT_LE(0, skipped);
	TH_LOG("no_pmu_check %s, PMU %s state %s", skipped ? "on" : "off",
	       self->pmu.name, self->pmu.state);
	/* No driver: driver_is_the_one_this_cpu_calls_for says if it should. */
	if (!strcmp(self->pmu.name, "none")) {
		EXPECT_STREQ("", self->pmu.state);
		return;
	}
	if (skipped) {
		EXPECT_STREQ("unchecked", self->pmu.state);
		EXPECT_TRUE(self->usable);
	} else {
		EXPECT_TRUE(!strcmp(self->pmu.state, "ok") ||
			    !strcmp(self->pmu.state, "broken"));
	}
}

TEST_F(hw, without_a_usable_pmu_hardware_counters_are_enodev)
{
	unsigned int id;

	if (self->usable)
		SKIP(return, "the PMU is usable here");
	for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
		errno = 0;
		EXPECT_EQ(-1, open_hw(hw_generic(id), -1));
		EXPECT_EQ(ENODEV, errno);
	}
	errno = 0;
	EXPECT_EQ(-1, open_hw(hw_raw(0xc0), -1));
	EXPECT_EQ(ENODEV, errno);
	/* Unknown ids stay EINVAL whatever the PMU. */
	errno = 0;
	EXPECT_EQ(-1, open_hw(hw_generic(PERF_HW_EVENTS_MAX), -1));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(hw, generic_events_open_exactly_per_the_event_map)
{
	unsigned int id;
	int fd;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
		errno = 0;
		fd = open_hw(hw_generic(id), -1);
		if (in_event_map(&self->pmu, id)) {
			EXPECT_LE(0, fd) TH_LOG("id %u: errno %d", id, errno);
		} else {
			EXPECT_EQ(-1, fd) TH_LOG("id %u opened", id);
			EXPECT_EQ(EINVAL, errno);
		}
		if (fd >= 0)
			close(fd);
	}
}

TEST_F(hw, raw_events_with_the_drivers_bits_are_einval)
{
	int fd;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	if (!strcmp(self->pmu.name, "P4")) {
		/* global_power_events on FSB_ESCR0 (CCCR select 6) */
		const uint64_t cccr = 6 << 13, escr = 0x13ULL << 25 | 1 << 9;

		fd = open_p4_raw(cccr, 0x3a2, escr);
		EXPECT_LE(0, fd) TH_LOG("errno %d", errno);
		close(fd);
		EXPECT_EQ(-1, open_p4_raw(cccr | 1 << 12, 0x3a2, escr));
		EXPECT_EQ(EINVAL, errno);	/* ENABLE is the driver's */
		EXPECT_EQ(-1, open_p4_raw(cccr, 0x3a2, escr | 1 << 3));
		EXPECT_EQ(EINVAL, errno);	/* so is T0_OS */
		EXPECT_EQ(-1, open_p4_raw(5 << 13, 0x3a2, escr));
		EXPECT_EQ(EINVAL, errno);	/* FSB_ESCR0 is select 6 */
		EXPECT_EQ(-1, open_hw(hw_raw(cccr | 0x3a2ULL << 32), -1));
		EXPECT_EQ(EINVAL, errno);	/* no ESCR word */
		return;
	}
	if (!strncmp(self->pmu.name, "PowerPC", 7)) {
		/* selector 6-0, PMC 10-8: cycles anywhere, 0x30 on PMC1 */
		fd = open_hw(hw_raw(1), -1);
		EXPECT_LE(0, fd) TH_LOG("errno %d", errno);
		close(fd);
		fd = open_hw(hw_raw(0x30 | 1 << 8), -1);
		EXPECT_LE(0, fd) TH_LOG("errno %d", errno);
		close(fd);
		EXPECT_EQ(-1, open_hw(hw_raw(0), -1));
		EXPECT_EQ(EINVAL, errno);	/* selector 0 counts nothing */
		EXPECT_EQ(-1, open_hw(hw_raw(0x30), -1));
		EXPECT_EQ(EINVAL, errno);	/* a PMC's own event: name it */
		EXPECT_EQ(-1, open_hw(hw_raw(1 | 7 << 8), -1));
		EXPECT_EQ(EINVAL, errno);	/* no PMC7 */
		EXPECT_EQ(-1, open_hw(hw_raw(0x20 | 3 << 8), -1));
		EXPECT_EQ(EINVAL, errno);	/* PMC3's field has 5 bits */
		EXPECT_EQ(-1, open_hw(hw_raw(1 | 1 << 7), -1));
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(-1, open_hw(hw_raw(1 | 1ULL << 40), -1));
		EXPECT_EQ(EINVAL, errno);
		return;
	}
	if (!strcmp(self->pmu.name, "POWER8")) {
		/* selector 7-0, combine 11, unit 15-12, PMC 19-16 */
		fd = open_hw(hw_raw(0x1e), -1);		/* PM_CYC */
		EXPECT_LE(0, fd) TH_LOG("errno %d", errno);
		close(fd);
		fd = open_hw(hw_raw(0x3e054), -1);	/* PM_LD_MISS_L1 */
		EXPECT_LE(0, fd) TH_LOG("errno %d", errno);
		close(fd);
		fd = open_hw(hw_raw(0x500fa), -1);	/* PM_RUN_INST_CMPL */
		EXPECT_LE(0, fd) TH_LOG("errno %d", errno);
		close(fd);
		EXPECT_EQ(-1, open_hw(hw_raw(0), -1));
		EXPECT_EQ(EINVAL, errno);	/* selector 0 counts nothing */
		EXPECT_EQ(-1, open_hw(hw_raw(0xe054), -1));
		EXPECT_EQ(EINVAL, errno);	/* a unit's event: name its PMC */
		EXPECT_EQ(-1, open_hw(hw_raw(0x7001e), -1));
		EXPECT_EQ(EINVAL, errno);	/* no PMC7 */
		EXPECT_EQ(-1, open_hw(hw_raw(0x5001e), -1));
		EXPECT_EQ(EINVAL, errno);	/* PMC5: run instructions only */
		EXPECT_EQ(-1, open_hw(hw_raw(0x11e | 1 << 16), -1));
		EXPECT_EQ(EINVAL, errno);	/* marked: no MMCRA sampling */
		EXPECT_EQ(-1, open_hw(hw_raw(0x1e | 1ULL << 40), -1));
		EXPECT_EQ(EINVAL, errno);
		return;
	}
	fd = open_hw(hw_raw(0xc0), -1);
	EXPECT_LE(0, fd);
	close(fd);
	/* INT (20) and EN (22) are the driver's; 19 and 21 are reserved */
	EXPECT_EQ(-1, open_hw(hw_raw(0xc0 | 1 << 20), -1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_hw(hw_raw(0xc0 | 1 << 22), -1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_hw(hw_raw(0xc0 | 1 << 21), -1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_hw(hw_raw(0xc0 | 1ULL << 40), -1));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(hw, counting_in_neither_mode_is_einval)
{
	struct perf_counter_hw_event hw = hw_generic(PERF_COUNT_CPU_CYCLES);
	int fd;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	hw.exclude_user = 1;
	fd = open_hw(hw, -1);
	EXPECT_LE(0, fd);
	close(fd);
	hw.exclude_kernel = 1;
	EXPECT_EQ(-1, open_hw(hw, -1));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(hw, group_that_could_never_fit_is_enospc)
{
	int fd[20], n = 0, sw, extra;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	fd[n++] = open_hw(hw_generic(PERF_COUNT_CPU_CYCLES), -1);
	ASSERT_LE(0, fd[0]);
	if (!strcmp(self->pmu.name, "P4")) {
		/* 18 registers, but cycles and bus cycles share 2 ESCRs. */
		fd[n] = open_hw(hw_generic(PERF_COUNT_CPU_CYCLES), fd[0]);
		ASSERT_LE(0, fd[n]);
		n++;
		errno = 0;
		EXPECT_EQ(-1, open_hw(hw_generic(PERF_COUNT_BUS_CYCLES), fd[0]));
		EXPECT_EQ(ENOSPC, errno);
		while (n--)
			close(fd[n]);
		return;
	}
	/* Cycles count on every register they may use. */
	while (n < cycles_at_once(&self->pmu)) {
		fd[n] = open_hw(hw_generic(PERF_COUNT_CPU_CYCLES), fd[0]);
		ASSERT_LE(0, fd[n]) TH_LOG("member %d: errno %d", n, errno);
		n++;
	}
	errno = 0;
	extra = open_hw(hw_generic(PERF_COUNT_CPU_CYCLES), fd[0]);
	EXPECT_EQ(-1, extra);
	EXPECT_EQ(ENOSPC, errno);
	/* A software member takes no register: it still joins. */
	sw = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, fd[0]);
	EXPECT_LE(0, sw);
	close(sw);
	while (n--)
		close(fd[n]);
}

TEST_F(hw, p6_group_of_two_counter_0_events_is_enospc)
{
	int leader, member;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	if (strcmp(self->pmu.name, "P6"))
		SKIP(return, "P6 constraint");
	/* FLOPS and CYCLES_DIV_BUSY both count on counter 0 only. */
	leader = open_hw(hw_raw(0xc1), -1);
	ASSERT_LE(0, leader);
	EXPECT_EQ(-1, open_hw(hw_raw(0x14), leader));
	EXPECT_EQ(ENOSPC, errno);
	/* DIV counts on counter 1: the pair fits. */
	member = open_hw(hw_raw(0x13), leader);
	EXPECT_LE(0, member);
	close(member);
	close(leader);
}

/*
 * The most cycles a CPU runs in a ns: no part these drivers know is
 * clocked near 8 GHz.
 */
#define PC_MAX_CYCLES_PER_NS	8

TEST_F(hw, enable_disable_and_read_with_times)
{
	struct perf_counter_hw_event hw = hw_generic(PERF_COUNT_CPU_CYCLES);
	struct vals a, b, c;
	uint64_t t0, t1;
	int fd;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	hw.disabled = 1;
	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = open_hw(hw, -1);
	ASSERT_LE(0, fd);
	pc_spin_ns(20000000);
	ASSERT_EQ(0, read_vals(fd, &a));
	EXPECT_EQ(0, a.enabled);
	EXPECT_EQ(0, a.value);

	t0 = pc_now_ns();
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	pc_spin_ns(50000000);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	t1 = pc_now_ns();
	ASSERT_EQ(0, read_vals(fd, &b));
	TH_LOG("%llu cycles in %llu ns enabled, %llu running, %llu ns wall",
	       (unsigned long long)b.value, (unsigned long long)b.enabled,
	       (unsigned long long)b.running, (unsigned long long)(t1 - t0));
	EXPECT_LE(40000000, b.enabled);
	/* Enabled no longer than the ioctls were apart, to a clock step. */
	EXPECT_GE(t1 - t0 + PC_CLOCK_STEP_NS, b.enabled);
	EXPECT_EQ(b.enabled, b.running);	/* alone: always on */
	/*
	 * Where the driver found the registers count: cycles, and no more
	 * than the fastest clock runs in the time it ran (QEMU's POWER8
	 * counts a cycle a ns of its clock: 0.9955 a running ns measured,
	 * 2026-11-29). Unchecked, a count is whatever TCG's registers
	 * read (2^31 - 1 and 2^32 - 2 seen on the P6 model).
	 */
	if (!strcmp(self->pmu.state, "ok")) {
		EXPECT_LT(0, b.value);
		EXPECT_GE(b.running * PC_MAX_CYCLES_PER_NS, b.value);
	}

	pc_spin_ns(20000000);
	ASSERT_EQ(0, read_vals(fd, &c));
	EXPECT_EQ(b.enabled, c.enabled);
	EXPECT_EQ(b.value, c.value);
	close(fd);
}

TEST_F(hw, six_groups_share_the_registers_fairly)
{
	struct perf_counter_hw_event hw = hw_generic(PERF_COUNT_CPU_CYCLES);
	int fd[6], i;
	double ideal;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	for (i = 0; i < 6; i++) {
		fd[i] = open_hw(hw, -1);
		ASSERT_LE(0, fd[i]);
	}
	pc_spin_ns(400000000);
	ideal = cycles_at_once(&self->pmu) >= 6 ? 1.0 :
		cycles_at_once(&self->pmu) / 6.0;
	for (i = 0; i < 6; i++) {
		struct vals v;
		double share;

		ASSERT_EQ(0, read_vals(fd[i], &v));
		share = (double)v.running / v.enabled;
		TH_LOG("group %d: %.3f of the time (ideal %.3f)", i, share,
		       ideal);
		EXPECT_LT(ideal * 0.9, share);
		EXPECT_GT(ideal * 1.1, share);
	}
	for (i = 0; i < 6; i++)
		close(fd[i]);
}

/*
 * Groups of two cycle counters, two more groups than fit at once: they
 * take turns, and each member is on exactly while its leader is, so
 * their running times are equal to the nanosecond.
 */
TEST_F(hw, multiplexed_groups_members_run_exactly_when_their_leader_does)
{
	struct perf_counter_hw_event hw = hw_generic(PERF_COUNT_CPU_CYCLES);
	int fd[8][2], i, fit, n;
	double ideal;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	fit = cycles_at_once(&self->pmu) / 2;
	if (fit < 1)
		SKIP(return, "a group of two cycle counters never fits");
	n = fit + 2 > 8 ? 8 : fit + 2;
	ideal = (double)fit / n;
	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	for (i = 0; i < n; i++) {
		hw.disabled = 1;
		fd[i][0] = open_hw(hw, -1);
		ASSERT_LE(0, fd[i][0]);
		hw.disabled = 0;
		fd[i][1] = open_hw(hw, fd[i][0]);
		ASSERT_LE(0, fd[i][1]);
	}
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, pc_enable(fd[i][0]));
	pc_spin_ns(400000000);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, pc_disable(fd[i][0]));
	for (i = 0; i < n; i++) {
		struct vals l, m;
		double share;

		ASSERT_EQ(0, read_vals(fd[i][0], &l));
		ASSERT_EQ(0, read_vals(fd[i][1], &m));
		share = (double)l.running / l.enabled;
		TH_LOG("group %d: leader on %llu of %llu ns, member on %llu ns (ideal share %.3f)",
		       i, (unsigned long long)l.running,
		       (unsigned long long)l.enabled,
		       (unsigned long long)m.running, ideal);
		EXPECT_EQ(l.running, m.running);
		EXPECT_LT(ideal * 0.9, share);
		EXPECT_GT(ideal * 1.1, share);
	}
	for (i = 0; i < n; i++) {
		close(fd[i][1]);
		close(fd[i][0]);
	}
}

/*
 * Three cycle counters, each a group, with room for two or more at
 * once. Left as they are, two of them are on together, so two running
 * times add up to more than the time they were enabled. With the first
 * exclusive, it is on alone: its running time and another's never
 * overlap, and add up to no more than the time enabled.
 */
static void run_three(struct __test_metadata *_metadata, int exclusive,
		      struct vals v[3])
{
	struct perf_counter_hw_event hw = hw_generic(PERF_COUNT_CPU_CYCLES);
	int fd[3], i;

	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	hw.disabled = 1;
	for (i = 0; i < 3; i++) {
		hw.exclusive = exclusive && i == 0;
		fd[i] = open_hw(hw, -1);
		ASSERT_LE(0, fd[i]);
	}
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, pc_enable(fd[i]));
	pc_spin_ns(400000000);
	/*
	 * Last first: a flexible counter disabled after the exclusive one
	 * would run alone between the two ioctls, outside the exclusive
	 * one's enabled time (4 ms of it on a loaded host).
	 */
	for (i = 2; i >= 0; i--)
		ASSERT_EQ(0, pc_disable(fd[i]));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, read_vals(fd[i], &v[i]));
		TH_LOG("%s counter %d: on %llu of %llu ns",
		       exclusive && i == 0 ? "exclusive" : "flexible", i,
		       (unsigned long long)v[i].running,
		       (unsigned long long)v[i].enabled);
		close(fd[i]);
	}
}

TEST_F(hw, exclusive_group_is_on_alone_while_the_rest_take_turns)
{
	struct vals v[3];
	int i;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	if (cycles_at_once(&self->pmu) < 2)
		SKIP(return, "one cycle counter at a time: nothing to share");
	/* the control: not exclusive, two are on together */
	run_three(_metadata, 0, v);
	EXPECT_LT(v[0].enabled * 11 / 10, v[0].running + v[1].running);
	run_three(_metadata, 1, v);
	for (i = 1; i < 3; i++) {
		EXPECT_LT(v[0].enabled / 10, v[i].running);
		EXPECT_GE(v[0].enabled + 1000000, v[0].running + v[i].running);
	}
	EXPECT_LT(v[0].enabled / 10, v[0].running);
}

TEST_F(hw, pinned_groups_beyond_the_registers_are_in_error)
{
	struct perf_counter_hw_event hw = hw_generic(PERF_COUNT_CPU_CYCLES);
	int fd[20], i, n;
	uint64_t v;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	hw.pinned = 1;
	n = cycles_at_once(&self->pmu) + 1;
	for (i = 0; i < n; i++) {
		fd[i] = open_hw(hw, -1);
		ASSERT_LE(0, fd[i]);
	}
	pc_spin_ns(10000000);
	for (i = 0; i < n - 1; i++)
		EXPECT_EQ(sizeof(v), read(fd[i], &v, sizeof(v)));
	/* The one that found no register: end of file. */
	EXPECT_EQ(0, read(fd[n - 1], &v, sizeof(v)));

	/* Room again, and enabled again: it counts. */
	close(fd[0]);
	EXPECT_EQ(0, read(fd[n - 1], &v, sizeof(v)));
	ASSERT_EQ(0, ioctl(fd[n - 1], PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fd[n - 1], PERF_COUNTER_IOC_ENABLE, 0));
	pc_spin_ns(10000000);
	EXPECT_EQ(sizeof(v), read(fd[n - 1], &v, sizeof(v)));
	for (i = 1; i < n; i++)
		close(fd[i]);
}

TEST_F(hw, cpu_wide_hardware_counter_opens_for_root)
{
	struct perf_counter_hw_event hw = hw_generic(PERF_COUNT_CPU_CYCLES);
	uint64_t t0, t1;
	struct vals v;
	int fd;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	t0 = pc_now_ns();
	fd = sys_perf_counter_open(&hw, -1, 0, -1, 0);
	ASSERT_LE(0, fd);
	pc_spin_ns(20000000);
	ASSERT_EQ(0, read_vals(fd, &v));
	t1 = pc_now_ns();
	/*
	 * A CPU's counter is enabled from its open on, idle or not: for
	 * the 20 ms spin at least, and no longer than open to read, to a
	 * clock step either way.
	 */
	EXPECT_LE(20000000 - PC_CLOCK_STEP_NS, v.enabled);
	EXPECT_GE(t1 - t0 + PC_CLOCK_STEP_NS, v.enabled);
	EXPECT_EQ(v.enabled, v.running);
	if (!strcmp(self->pmu.state, "ok"))
		EXPECT_GE(v.running * PC_MAX_CYCLES_PER_NS, v.value);
	close(fd);
}

static void spin_50ms(int arg)
{
	pc_spin_ns(50000000);
}

TEST_F(hw, inherited_hardware_counter_runs_in_the_child)
{
	struct perf_counter_hw_event hw = hw_generic(PERF_COUNT_INSTRUCTIONS);
	struct pc_child child;
	struct vals before, after;
	int fd;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	hw.inherit = 1;
	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = open_hw(hw, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, read_vals(fd, &before));
	ASSERT_EQ(0, pc_child_start(&child, spin_50ms, 0));
	ASSERT_EQ(0, pc_child_finish(&child));
	ASSERT_EQ(0, read_vals(fd, &after));
	/* The child's 50 ms were counted, on a register, in its copy. */
	EXPECT_LE(before.enabled + 40000000, after.enabled);
	EXPECT_LE(before.running + 40000000, after.running);
	close(fd);
}

/*
 * The counter registers belong to whichever subsystem takes them first.
 * Where 6.1's perf_events has a PMU for this CPU (the 7450 here; under
 * TCG it finds x86's broken) each side gets EBUSY while the other holds
 * them. The x86 reservation is proven in KUnit (perf_counter_x86_reserve).
 */
TEST_F(hw, pmu_held_by_perf_events_is_ebusy_and_the_other_way)
{
	int pe, fd;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	pe = pe_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, -1);
	if (pe < 0)
		SKIP(return, "perf_events has no hardware PMU here (errno %d)",
		     errno);
	errno = 0;
	EXPECT_EQ(-1, open_hw(hw_generic(PERF_COUNT_CPU_CYCLES), -1));
	EXPECT_EQ(EBUSY, errno);
	close(pe);

	fd = open_hw(hw_generic(PERF_COUNT_CPU_CYCLES), -1);
	ASSERT_LE(0, fd) TH_LOG("errno %d", errno);
	errno = 0;
	pe = pe_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, -1);
	EXPECT_EQ(-1, pe);
	EXPECT_EQ(EBUSY, errno);
	if (pe >= 0)
		close(pe);
	close(fd);
	/* All given back: perf_events takes them again. */
	pe = pe_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, -1);
	EXPECT_LE(0, pe);
	close(pe);
}

#define PMI_FILE PC_DEBUGFS "pmi"
#define RO_VALUE "bogus"

/* Does the kernel's log (from its first record) hold a line with @text? */
static bool kmsg_has(const char *text)
{
	char rec[2048];
	bool found = false;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return false;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten while we read: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		if (strstr(rec, text)) {
			found = true;
			break;
		}
	}
	close(fd);
	return found;
}

/* The first line of @path into @buf; -1 if it cannot be read. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(buf, len, f))
		ret = 0;
	fclose(f);
	return ret;
}

/*
 * parameters/pmu reports state and cannot be set. The harness boots
 * every guest with perf_counter.pmu=bogus on the command line: the boot
 * must go on (a parameter without a set operation was a NULL call
 * here), the file must still tell the truth, and the log must say the
 * value was ignored.
 */
TEST(read_only_parameter_given_at_boot_is_logged_and_ignored)
{
	const char *path = "/sys/module/perf_counter/parameters/pmu";
	char cmdline[4096] = "", val[256];

	ASSERT_EQ(0, read_line("/proc/cmdline", cmdline, sizeof(cmdline)));
	if (!strstr(cmdline, "perf_counter.pmu=" RO_VALUE))
		SKIP(return, "booted without perf_counter.pmu=" RO_VALUE);
	ASSERT_EQ(0, read_line(path, val, sizeof(val)));
	TH_LOG("pmu: %s", val);
	EXPECT_EQ(NULL, strstr(val, RO_VALUE));
	EXPECT_TRUE(kmsg_has("perf_counter.pmu is read-only: \"" RO_VALUE
			     "\" ignored"));
}

/* @cpu's overflow interrupt, as debugfs's pmi tells it, into @how. */
static int lvtpc_of(int cpu, char *how, size_t len)
{
	char buf[4096], key[16], *p, *save;
	FILE *f = fopen(PMI_FILE, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	snprintf(key, sizeof(key), "%d:", cpu);
	for (p = strtok_r(buf, "\n ", &save); p; p = strtok_r(NULL, "\n ", &save)) {
		if (!strncmp(p, key, strlen(key))) {
			snprintf(how, len, "%s", p + strlen(key));
			return 0;
		}
	}
	return -1;
}

/*
 * x86: the overflow interrupt is the maskable PERF_COUNTER_VECTOR while
 * no counter on the CPU asked for an NMI, an NMI while one does (root's
 * nmi bit wins over the others' none), and NMI again once the registers
 * are given back, where perf_events expects it. (That the nmi bit of a
 * task without CAP_SYS_ADMIN is cleared is open_test's; delivery
 * itself, both kinds, is KUnit's, perf_counter_x86_pmi: TCG's counters
 * never wrap. debugfs's pmi is root's: reading it sends IPIs.)
 */
TEST_F(hw, overflow_interrupt_is_the_vector_unless_a_counter_asks_for_nmi)
{
	struct perf_counter_hw_event hw = hw_generic(PERF_COUNT_CPU_CYCLES);
	static char how[32];
	cpu_set_t cpu0, all;
	int plain, nmi;

	if (access(PMI_FILE, R_OK))
		SKIP(return, "no LVTPC here (errno %d)", errno);
	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpu0), &cpu0));

	plain = open_hw(hw, -1);
	ASSERT_LE(0, plain);
	ASSERT_EQ(0, lvtpc_of(0, how, sizeof(how)));
	EXPECT_STREQ("vector", how);

	hw.nmi = 1;
	nmi = open_hw(hw, -1);
	ASSERT_LE(0, nmi);
	ASSERT_EQ(0, lvtpc_of(0, how, sizeof(how)));
	EXPECT_STREQ("nmi", how);
	close(nmi);
	ASSERT_EQ(0, lvtpc_of(0, how, sizeof(how)));
	EXPECT_STREQ("vector", how);

	close(plain);
	ASSERT_EQ(0, lvtpc_of(0, how, sizeof(how)));
	EXPECT_STREQ("nmi", how);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
}

/*
 * Rounds of the leak loop below: PC_HW_LEAK_ROUNDS from the target's
 * TEST_ENV (i386 asks for fewer: see configs/i386.env), else 30000, or
 * 3000 under KASAN, whose quarantine holds slab anyway.
 */
static int leak_rounds(void)
{
	const char *env = getenv("PC_HW_LEAK_ROUNDS");

	if (env && atoi(env) > 0)
		return atoi(env);
	return pc_sanitizer("KASAN") ? 3000 : 30000;
}

/*
 * A child on CPU 0 opens a user-mode cycles counter on itself with the
 * nmi bit, as root or as nobody, and spins; from CPU 1 the parent reads
 * CPU 0's LVTPC many times, each read an IPI that lands while the
 * child's counter is on. Root's counter makes it an NMI at least once;
 * nobody's bit is cleared at the open, so it never is.
 */
static int nmi_reads_of_cpu0(struct __test_metadata *_metadata, bool root,
			     int *vectors)
{
	struct perf_counter_hw_event hw = hw_generic(PERF_COUNT_CPU_CYCLES);
	int pipefd[2], i, nmis = 0, status;
	char how[32], c = 0;
	cpu_set_t cpu;
	pid_t pid;

	*vectors = 0;
	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		CPU_ZERO(&cpu);
		CPU_SET(0, &cpu);
		if (sched_setaffinity(0, sizeof(cpu), &cpu))
			_exit(1);
		if (!root && pc_become_nobody(0))
			_exit(2);
		hw.nmi = 1;
		hw.exclude_kernel = 1;
		if (sys_perf_counter_open(&hw, 0, -1, -1, 0) < 0)
			_exit(3);
		if (write(pipefd[1], &c, 1) != 1)
			_exit(4);
		for (;;)
			;
	}
	close(pipefd[1]);
	if (pid < 0 || read(pipefd[0], &c, 1) != 1) {
		close(pipefd[0]);
		if (pid > 0) {
			waitpid(pid, &status, 0);
			TH_LOG("child could not open its counter: %d",
			       WEXITSTATUS(status));
		}
		return -1;
	}
	close(pipefd[0]);
	for (i = 0; i < 300; i++) {
		if (lvtpc_of(0, how, sizeof(how)))
			break;
		nmis += !strcmp(how, "nmi");
		*vectors += !strcmp(how, "vector");
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return nmis;
}

TEST_F(hw, nmi_bit_of_a_counter_without_cap_sys_admin_leaves_the_vector)
{
	static cpu_set_t cpu1, all;
	static int vectors;
	int nmis;

	if (access(PMI_FILE, R_OK))
		SKIP(return, "no LVTPC here (errno %d)", errno);
	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU: the reads would not find the child on");
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	CPU_ZERO(&cpu1);
	CPU_SET(1, &cpu1);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpu1), &cpu1));

	nmis = nmi_reads_of_cpu0(_metadata, true, &vectors);
	TH_LOG("root's counter on: %d reads nmi, %d vector", nmis, vectors);
	EXPECT_LT(0, nmis);
	nmis = nmi_reads_of_cpu0(_metadata, false, &vectors);
	TH_LOG("nobody's counter on: %d reads nmi, %d vector", nmis, vectors);
	EXPECT_EQ(0, nmis);
	EXPECT_LT(0, vectors);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
}

/*
 * Nothing left, object by object (exactly) and in slab use as a whole:
 * 10000 rounds move slab use by up to 110 kB with no leak and no trend
 * (measured: +12, +32, 0, -40 kB in four runs of them), so 30000 rounds
 * and 192 kB: a leak of 16 bytes a round (480 kB) fails.
 */
/* 30000 rounds took the 7450 past the harness's 30 s on a busy host */
TEST_F_TIMEOUT(hw, thousands_of_hardware_counters_leave_nothing, 180)
{
	int i, fd, rounds = leak_rounds();
	struct pc_objects o0, o1;
	long before, after;

	if (!self->usable)
		SKIP(return, "no usable PMU (%s)", pmu_why(&self->pmu));
	for (i = 0; i < 200; i++)
		close(open_hw(hw_generic(PERF_COUNT_CPU_CYCLES), -1));
	before = pc_slab_settle();
	ASSERT_EQ(0, pc_objects_read(&o0));
	for (i = 0; i < rounds; i++) {
		fd = open_hw(hw_generic(i % 2 ? PERF_COUNT_INSTRUCTIONS :
					PERF_COUNT_CPU_CYCLES), -1);
		ASSERT_LE(0, fd);
		close(fd);
		/* and refused ones */
		ASSERT_EQ(-1, open_hw(hw_raw(0xc0 | 1 << 20), -1));
	}
	ASSERT_EQ(0, pc_objects_read(&o1));
	after = pc_slab_settle();
	TH_LOG("slab %ld kB before, %ld kB after %d rounds", before, after,
	       rounds);
	EXPECT_SAME_OBJECTS(o0, o1);
	/* KASAN's quarantine grows slab with no leak: see pc_sanitizer(). */
	if (!pc_sanitizer("KASAN")) {
		EXPECT_GT(before + 192, after);
	} else if (_metadata->passed) {
		SKIP(return, "KASAN quarantine: slab growth of %ld kB not checked",
		     after - before);
	}
}

TEST_HARNESS_MAIN
