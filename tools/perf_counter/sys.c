// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: the system call, what its errors mean to a person, and
 * the command the counters watch.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pc.h"

/* The same number on x86_64, i386 and powerpc. */
#ifndef __NR_perf_counter_open
#define __NR_perf_counter_open	451
#endif

/* The size of the description the kernel knows, when it said E2BIG. */
static unsigned int pc_kernel_hw_size;

/*
 * The description is the 64 bytes of 2009 (size 0) unless a field past
 * them is set: callchain_depth, sideband, sample_freq or switch_out, in struct
 * perf_counter_hw_event_ext with its size. The extra control word
 * follows the description. A counting counter reads its times, and
 * what @a->read_format adds.
 */
int pc_open(const struct pc_event *ev, const struct pc_open_args *a)
{
	uint64_t buf[sizeof(struct perf_counter_hw_event_ext) / 8 + 2];
	struct perf_counter_hw_event_ext *d = (void *)buf;
	struct perf_counter_hw_event *hw = &d->hw;
	unsigned int words = sizeof(*hw) / 8;
	long fd;

	memset(buf, 0, sizeof(buf));
	hw->event_config = ev->config;
	hw->irq_period = a->period;
	hw->record_type = a->record_type;
	if (!a->period && !a->freq)
		hw->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				  PERF_FORMAT_TOTAL_TIME_RUNNING | a->read_format;
	hw->disabled = !!a->disabled;
	hw->inherit = !!a->inherit;
	hw->exclude_user = !!ev->exclude_user;
	hw->exclude_kernel = !!ev->exclude_kernel;
	hw->exclude_idle = !!a->exclude_idle;
	hw->exclusive = !!a->exclusive;
	hw->context_switch = !!a->context_switch;
	hw->inherit_stat = !!a->inherit_stat;
	if (a->chain_depth || a->sideband || a->freq || a->switch_out) {
		hw->size = sizeof(*d);
		d->callchain_depth = a->chain_depth;
		d->sideband = a->sideband;
		d->sample_freq = a->freq;
		d->switch_out = a->switch_out;
		d->switch_stack = a->switch_stack;
		words = sizeof(*d) / 8;
	}
	if (ev->nr_extra) {
		hw->extra_config_len = 8 * ev->nr_extra;
		buf[words] = ev->extra;
	}
	fd = syscall(__NR_perf_counter_open, hw, a->pid, a->cpu,
		     a->group_fd, 0UL);
	if (fd < 0 && errno == E2BIG)
		pc_kernel_hw_size = hw->size;
	return fd;
}

static void explain_access(const struct pc_event *ev,
			   const struct pc_open_args *a)
{
	int level = pc_paranoid();

	if (a->pid < 0) {
		fprintf(stderr,
			"  counting every task on a CPU (-a, -C, top) needs CAP_SYS_ADMIN\n"
			"  (or CAP_PERFMON), or kernel.perf_event_paranoid at 0 or below\n"
			"  (now %d: /proc/sys/kernel/perf_event_paranoid)\n",
			level);
		return;
	}
	if (level >= 3) {
		fprintf(stderr,
			"  kernel.perf_event_paranoid is %d: without CAP_PERFMON or\n"
			"  CAP_SYS_ADMIN nothing may be counted; as root, write 2 or\n"
			"  less to /proc/sys/kernel/perf_event_paranoid\n", level);
		return;
	}
	if (level >= 2 && !ev->exclude_kernel)
		fprintf(stderr,
			"  at kernel.perf_event_paranoid %d an unprivileged user must\n"
			"  exclude the kernel: add :u to the event (-e %s:u), or lower\n"
			"  /proc/sys/kernel/perf_event_paranoid to 1\n",
			level, ev->name);
	if (a->pid > 0)
		fprintf(stderr,
			"  counting pid %d needs the right to trace it: the same user\n"
			"  and a dumpable process, or CAP_SYS_PTRACE\n", a->pid);
}

/* EINVAL with call chains: a kernel without them, or too deep. */
static void explain_chain(const struct pc_open_args *a)
{
	char max[32];

	if (pc_read_file("/proc/sys/kernel/perf_event_max_stack", max,
			 sizeof(max)) <= 0)
		snprintf(max, sizeof(max), "?");
	max[strcspn(max, "\n")] = '\0';
	fprintf(stderr,
		"  call chains (-g): a kernel before PERF_RECORD_CALLCHAIN refuses\n"
		"  them; a depth (now %u) must be at most %u and at most\n"
		"  kernel.perf_event_max_stack (now %s)\n",
		a->chain_depth ? a->chain_depth :
		PERF_COUNTER_CHAIN_DEPTH_DEFAULT,
		PERF_COUNTER_CHAIN_DEPTH_MAX, max);
}

void pc_open_error(const struct pc_event *ev, const struct pc_open_args *a,
		   int err)
{
	fprintf(stderr, "perf-counter: cannot open '%s' (config 0x%llx): %s\n",
		ev->name, (unsigned long long)ev->config, strerror(err));
	switch (err) {
	case EACCES:
	case EPERM:
		explain_access(ev, a);
		break;
	case ENODEV:
		fprintf(stderr,
			"  no working PMU driver for this CPU (%s): hardware and raw\n"
			"  events cannot be counted; software events (task-clock,\n"
			"  page-faults, ...) can\n", pc_cpu_identity());
		break;
	case E2BIG:
		if (a->inherit_stat) {
			fprintf(stderr,
				"  this kernel knows a %u-byte counter description: it has\n"
				"  no side-band records, which stat --per-thread names the\n"
				"  threads by (plain stat works on it)\n",
				pc_kernel_hw_size);
			break;
		}
		if (a->switch_out &&
		    pc_kernel_hw_size >= PERF_COUNTER_HW_EVENT_SIZE_VER3) {
			fprintf(stderr,
				"  this kernel knows a %u-byte counter description: it has\n"
				"  no call chains in switch records (switch_out,\n"
				"  PERF_COUNTER_HW_EVENT_SIZE_VER4): --off-cpu needs a newer one\n",
				pc_kernel_hw_size);
			break;
		}
		fprintf(stderr,
			"  this kernel knows a %u-byte counter description, not the\n"
			"  %u bytes of %s: record needs a kernel with\n"
			"  side-band records, and -F one with sample_freq\n"
			"  (PERF_COUNTER_HW_EVENT_SIZE_VER3; -c works without);\n"
			"  stat and top work on this one\n", pc_kernel_hw_size,
			a->freq ? PERF_COUNTER_HW_EVENT_SIZE_VER3 :
			PERF_COUNTER_HW_EVENT_SIZE_VER2,
			pc_kernel_hw_size < PERF_COUNTER_HW_EVENT_SIZE_VER1 ?
			"callchain_depth, side-band records and sample_freq" :
			pc_kernel_hw_size < PERF_COUNTER_HW_EVENT_SIZE_VER2 ?
			"side-band records and sample_freq" : "sample_freq");
		break;
	case EINVAL:
	case EOPNOTSUPP:
		if (a->inherit_stat)
			fprintf(stderr,
				"  stat --per-thread: a kernel before TOTALS records\n"
				"  (inherit_stat) refuses them\n");
		if (a->record_type & PERF_RECORD_CALLCHAIN)
			explain_chain(a);
		if (a->freq) {
			fprintf(stderr,
				"  -F %llu: at most kernel.perf_event_max_sample_rate (now %u)\n"
				"  and 1048576 a second, and 20000 for a clock event\n",
				(unsigned long long)a->freq, pc_max_sample_rate());
			break;
		}
		if (ev->kind == PC_RAW || ev->kind == PC_NAMED)
			fprintf(stderr,
				"  the PMU driver refuses raw code 0x%llx: bits it owns or\n"
				"  the model reserves, or an event it has no counter for\n",
				(unsigned long long)(ev->config &
						     PERF_COUNTER_CONFIG_MASK));
		else if (ev->kind == PC_HW)
			fprintf(stderr,
				"  this CPU's PMU driver has no '%s' event\n",
				ev->name);
		else if (ev->kind == PC_TP)
			fprintf(stderr,
				"  perf_counter cannot count this tracepoint (syscalls:*,\n"
				"  lock:* and dynamic events have no static tracepoint;\n"
				"  try raw_syscalls:sys_enter)\n");
		else if (a->period)
			fprintf(stderr,
				"  a clock event's period is ns, at least 50000\n");
		break;
	case ENOENT:
		fprintf(stderr, "  no tracepoint has that id\n");
		break;
	case ESRCH:
		fprintf(stderr, "  no process %d\n", a->pid);
		break;
	case ENOSPC:
		fprintf(stderr,
			"  the group's hardware events cannot be on the registers\n"
			"  at once: name fewer of them\n");
		break;
	case EBUSY:
		fprintf(stderr,
			"  another user of the PMU (perf_events, the NMI watchdog)\n"
			"  holds its registers\n");
		break;
	default:
		break;
	}
}

/* The exit status a shell would give: a signal is 128 + its number. */
int pc_wait_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

/*
 * Fork @argv, held until pc_start_command(): the counters are opened
 * on the child, disabled, meanwhile; the child enables every counter
 * on itself with prctl() right before exec, so the tool's own work
 * after fork is not counted. Returns the child's pid.
 */
int pc_fork_command(char **argv, int *go_fd)
{
	int p[2];
	pid_t pid;

	if (pipe(p) < 0)
		pc_die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		pc_die("fork: %s", strerror(errno));
	if (!pid) {
		char c;

		/* the command gets SIGINT as the shell would give it */
		signal(SIGINT, SIG_DFL);
		close(p[1]);
		while (read(p[0], &c, 1) != 1)
			if (errno != EINTR)
				_exit(127);
		close(p[0]);
		prctl(PR_TASK_PERF_COUNTERS_ENABLE, 0, 0, 0, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "perf-counter: cannot run '%s': %s\n",
			argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go_fd = p[1];
	return pid;
}

int pc_start_command(int go_fd)
{
	/*
	 * A child that a SIGINT ended while it waited has closed the
	 * pipe: EPIPE, not a SIGPIPE that would end the tool unprinted.
	 */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int ret;

	sigaction(SIGPIPE, &ign, &old);
	ret = write(go_fd, "g", 1) == 1 ? 0 : -1;
	sigaction(SIGPIPE, &old, NULL);
	close(go_fd);
	return ret;
}
