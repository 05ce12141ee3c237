// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the test initramfs.
 *
 * Mounts what the tests need, checks the clock, runs the programs named
 * in /etc/pc-run (one per line) with their output on the console, dumps
 * the kernel log between markers for the host to scan, and ends the
 * machine with a status: isa-debug-exit on x86, power-off elsewhere.
 * The host trusts only the markers it reads, never QEMU's exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#endif

static void mount_fs(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		printf("init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* Time-based tests are nonsense on the jiffies clocksource. */
static int clock_ok(void)
{
	char cs[64] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (f) {
		if (!fgets(cs, sizeof(cs), f))
			cs[0] = 0;
		fclose(f);
	}
	cs[strcspn(cs, "\n")] = 0;
	printf("PC-CLOCKSOURCE %s\n", cs[0] ? cs : "unknown");
	if (!strcmp(cs, "jiffies") || !cs[0]) {
		printf("init: clocksource is '%s': time-based results would be meaningless\n",
		       cs);
		return 0;
	}
	return 1;
}

static int run(const char *path)
{
	int status;
	pid_t pid;

	printf("PC-RUN %s\n", path);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl(path, path, (char *)NULL);
		printf("init: exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 1;
	printf("PC-EXIT %s %d\n", path,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	fflush(stdout);
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

static void dump_kernel_log(void)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;

	if (len <= 0)
		return;
	buf = malloc(len);
	if (!buf)
		return;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	printf("PC-DMESG-BEGIN\n");
	if (len > 0)
		fwrite(buf, 1, len, stdout);
	printf("\nPC-DMESG-END\n");
	free(buf);
}

static void end_machine(int failed)
{
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
#if defined(__x86_64__) || defined(__i386__)
	if (!ioperm(0xf4, 4, 1))
		outb(failed ? 1 : 0, 0xf4);	/* QEMU exits (v << 1) | 1 */
#endif
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

int main(void)
{
	char line[256];
	int failed = 0;
	FILE *list;

	mount_fs("proc", "/proc", "proc");
	mount_fs("sysfs", "/sys", "sysfs");
	mount_fs("devtmpfs", "/dev", "devtmpfs");
	mount_fs("tmpfs", "/tmp", "tmpfs");
	setvbuf(stdout, NULL, _IOLBF, 0);

	printf("PC-BEGIN\n");
	if (!clock_ok())
		failed = 1;

	list = fopen("/etc/pc-run", "r");
	if (!list) {
		printf("init: no /etc/pc-run\n");
		failed = 1;
	}
	while (list && fgets(line, sizeof(line), list)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] && line[0] != '#')
			failed |= run(line);
	}
	if (list)
		fclose(list);

	dump_kernel_log();
	printf("PC-DONE %s\n", failed ? "failed" : "ok");
	end_machine(failed);
	return 0;
}
