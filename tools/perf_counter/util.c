// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: small helpers every subcommand uses.
 */
#define _GNU_SOURCE	/* O_PATH */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pc.h"

void *pc_zalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		pc_die("out of memory");
	return p;
}

void *pc_realloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		pc_die("out of memory");
	return p;
}

/*
 * @p, an array with room for *@cap elements of @size, with room for at
 * least @need: grown by doubling, so n appends cost O(n) copying.
 */
void *pc_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return p;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			pc_die("out of memory");
		n *= 2;
	}
	*cap = n;
	return pc_realloc(p, n * size);
}

char *pc_strdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		pc_die("out of memory");
	return d;
}

_Noreturn void pc_die(const char *fmt, ...)
{
	va_list ap;

	fputs("perf-counter: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void pc_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("perf-counter: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* @v with a comma every three digits: 1,234,567. */
char *pc_commas(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	size_t o = 0;
	int i;

	for (i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

uint64_t pc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Read a small file into @buf, NUL-terminated; the length or -1. */
int pc_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/*
 * Open for reading the file a record file or /proc/PID/maps names by
 * @path and identifies by @dev and @ino: the fd, or -1. The file is
 * looked up once, without following a link at its last component
 * (O_PATH, which opens no device or FIFO: nothing acts), and read
 * through that lookup only if it is a regular file and the very one
 * that was mapped: a name swapped for a link or another file since, by
 * a user who owns the directory, makes the tool read nothing of it.
 */
int pc_open_file_id(const char *path, uint64_t dev, uint64_t ino)
{
	struct stat st;
	int fd = pc_open_regular(path);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || (uint64_t)st.st_dev != dev ||
	    (uint64_t)st.st_ino != ino) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * @path for reading if it is a regular file: looked up once, not
 * following a link at its end (O_PATH | O_NOFOLLOW opens no FIFO or
 * device), and opened through that lookup. Return: the fd, or -1.
 */
int pc_open_regular(const char *path)
{
	char self[64];
	struct stat st;
	int pfd, fd;

	pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -1;
	if (fstat(pfd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(pfd);
		return -1;
	}
	/* the same inode, opened for reading through the lookup made */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	close(pfd);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

int pc_nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
}

/*
 * @str as a whole decimal (or 0x hex) number in [@min, @max], else a
 * message naming option @opt and exit: no "2x", no "", no overflow.
 */
long long pc_parse_num(const char *opt, const char *str, long long min,
		       long long max)
{
	char *end;
	long long v;

	/* decimal, whole: no blanks, no sign but a minus, no 0x, no octal */
	errno = 0;
	v = strtoll(str, &end, 10);
	if (!(isdigit((unsigned char)str[0]) ||
	      (str[0] == '-' && isdigit((unsigned char)str[1]))) ||
	    *end || errno == ERANGE || v < min || v > max)
		pc_die("%s %s: a number from %lld to %lld", opt, str, min, max);
	return v;
}

/* As pc_parse_num, for an unsigned 64-bit value in [@min, @max]. */
uint64_t pc_parse_u64(const char *opt, const char *str, uint64_t min,
		      uint64_t max)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(str, &end, 10);
	if (!isdigit((unsigned char)str[0]) || *end || errno == ERANGE ||
	    v < min || v > max)
		pc_die("%s %s: a number from %llu to %llu", opt, str,
		       (unsigned long long)min, (unsigned long long)max);
	return v;
}

/*
 * "0,2-3" into @cpus; how many, or -1 with a message on a malformed
 * list, a CPU past INT_MAX, one named twice, or more than @max.
 */
int pc_parse_cpus(const char *list, int *cpus, int max)
{
	const char *p = list;
	int nr = 0, i;

	while (*p) {
		char *end;
		long long a, b;

		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		a = strtoll(p, &end, 10);
		b = a;
		if (errno || a > INT_MAX)
			goto big;
		p = end;
		if (*p == '-') {
			if (p[1] < '0' || p[1] > '9')
				goto bad;
			b = strtoll(p + 1, &end, 10);
			if (errno || b > INT_MAX)
				goto big;
			if (b < a)
				goto bad;
			p = end;
		}
		for (; a <= b; a++) {
			if (nr >= max) {
				pc_warn("%s: more than %d CPUs", list, max);
				return -1;
			}
			for (i = 0; i < nr; i++)
				if (cpus[i] == a) {
					pc_warn("%s: CPU %lld named twice",
						list, a);
					return -1;
				}
			cpus[nr++] = a;
		}
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	return nr;
big:
	pc_warn("%s: a CPU number past %d", list, INT_MAX);
	return -1;
bad:
	pc_warn("%s: a CPU list is like 0,2-3", list);
	return -1;
}

/*
 * The online CPUs (/sys/devices/system/cpu/online) into @cpus; how
 * many, or, if it cannot be read, CPUs 0 to the number online - 1.
 */
int pc_online_cpus(int *cpus, int max)
{
	char buf[4096];
	int n, i;

	if (pc_read_file("/sys/devices/system/cpu/online", buf,
			 sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		n = pc_parse_cpus(buf, cpus, max);
		if (n > 0)
			return n;
	}
	n = pc_nr_cpus();
	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		cpus[i] = i;
	return n;
}

/* kernel.perf_event_paranoid, which perf_counter obeys; 2 if unknown. */
int pc_paranoid(void)
{
	char buf[32];

	if (pc_read_file("/proc/sys/kernel/perf_event_paranoid", buf,
			 sizeof(buf)) < 0)
		return 2;
	return atoi(buf);
}

/*
 * kernel.perf_event_max_sample_rate: the most samples a second a
 * counter may ask for (the kernel lowers it when its sampling
 * interrupts run long); 100000 where it cannot be read.
 */
unsigned int pc_max_sample_rate(void)
{
	char buf[32];
	long v;

	if (pc_read_file("/proc/sys/kernel/perf_event_max_sample_rate", buf,
			 sizeof(buf)) < 0)
		return 100000;
	v = atol(buf);
	return v > 0 ? (unsigned int)v : 1;
}

/* Levenshtein distance, for suggestions. */
int pc_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *row = pc_zalloc((lb + 1) * sizeof(int));
	int d;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/*
 * Walk the records one read() of a sampling counter gave, in the
 * extended format of @record_type (IRQ and TID set): @fn gets each
 * SAMPLE, its fields found where @record_type puts them, and each LOST
 * that holds its count. A SAMPLE too short for its fields is skipped;
 * a record cut short or of a size that cannot be ends the walk.
 */
void pc_take(const char *buf, size_t len, uint64_t record_type,
	     void (*fn)(void *ctx, const struct pc_rec *r), void *ctx)
{
	size_t off = 0;

	while (len - off >= sizeof(struct perf_counter_record_header)) {
		struct perf_counter_record_header h;
		const char *body = buf + off + sizeof(h);
		size_t blen, at = 16;
		struct pc_rec r;
		uint64_t nr;

		memcpy(&h, buf + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - off)
			break;
		off += h.size;
		blen = h.size - sizeof(h);
		memset(&r, 0, sizeof(r));
		r.type = h.type;
		if ((h.type == PERF_COUNTER_REC_LOST ||
		     h.type == PERF_COUNTER_REC_LOST_SIDEBAND) && blen >= 8) {
			memcpy(&r.lost, body, 8);
			fn(ctx, &r);
			continue;
		}
		if (((h.type >= PERF_COUNTER_REC_MMAP &&
		      h.type <= PERF_COUNTER_REC_EXIT) ||
		     h.type == PERF_COUNTER_REC_SWITCH_OUT ||
		     h.type == PERF_COUNTER_REC_SWITCH_IN ||
		     h.type == PERF_COUNTER_REC_SWITCH_OUT_CHAIN) && blen >= 16) {
			/* side-band, switch: pid, tid and time, then the rest */
			memcpy(&r.pid, body, 4);
			memcpy(&r.tid, body + 4, 4);
			memcpy(&r.time, body + 8, 8);
			r.body = body;
			r.blen = blen;
			fn(ctx, &r);
			continue;
		}
		if (h.type != PERF_COUNTER_REC_SAMPLE || blen < at)
			continue;
		memcpy(&r.ip, body, 8);
		memcpy(&r.pid, body + 8, 4);
		memcpy(&r.tid, body + 12, 4);
		if (record_type & PERF_RECORD_TIME) {
			if (blen < at + 8)
				continue;
			memcpy(&r.time, body + at, 8);
			at += 8;
		}
		if (record_type & PERF_RECORD_VALUE)
			at += 8;
		if (record_type & PERF_RECORD_PERIOD) {
			if (blen < at + 8)
				continue;
			memcpy(&r.period, body + at, 8);
			at += 8;
		}
		if (record_type & PERF_RECORD_GROUP) {
			if (blen < at + 8)
				continue;
			memcpy(&nr, body + at, 8);
			if (nr > (blen - at - 8) / 16)
				continue;
			at += 8 + nr * 16;
		}
		if (record_type & PERF_RECORD_CALLCHAIN) {
			struct perf_counter_callchain cc;

			if (blen < at + sizeof(cc))
				continue;
			memcpy(&cc, body + at, sizeof(cc));
			at += sizeof(cc);
			if (cc.nr > (blen - at) / 8)
				continue;
			r.chain_nr = cc.nr;
			r.chain_flags = cc.flags;
			r.chain = body + at;
			at += (size_t)cc.nr * 8;
		}
		if (blen < at)
			continue;
		fn(ctx, &r);
	}
}

/* Count one sample of @sym in @dso (@sym NULL: by address, @ip). */
void pc_hist_add(struct pc_hist *h, const char *dso, const char *sym,
		 uint64_t ip, int kernel)
{
	struct pc_hist_entry *e;
	int i;

	for (i = 0; i < h->nr; i++) {
		e = &h->e[i];
		if (!strcmp(e->dso, dso) && (e->sym == sym ||
		    (sym && e->sym && !strcmp(e->sym, sym))))
			break;
	}
	if (i == h->nr) {
		h->e = pc_grow(h->e, &h->cap, h->nr + 1, sizeof(*h->e));
		e = &h->e[h->nr++];
		e->dso = dso;
		e->sym = sym;
		e->ip = ip;
		e->kernel = kernel;
		e->count = 0;
	}
	h->e[i].count++;
	h->total++;
}

static int cmp_hist(const void *a, const void *b)
{
	const struct pc_hist_entry *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

/* The most counted first. */
void pc_hist_sort(struct pc_hist *h)
{
	if (h->nr)
		qsort(h->e, h->nr, sizeof(*h->e), cmp_hist);
}

/*
 * Print @s with the bytes that are not printable ASCII (and the
 * backslash) as \ooo: names read from files another user wrote (a
 * record file, a binary's symbols, /proc/PID/maps) reach the terminal
 * as text, never as its control sequences.
 */
void pc_print_escaped(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if (*p >= 0x20 && *p < 0x7f && *p != '\\')
			putchar(*p);
		else
			printf("\\%03o", *p);
	}
}

/**
 * pc_escaped() - @s as pc_print_escaped() prints it, into @buf
 * @s:		the name
 * @buf:	where to
 * @len:	@buf's size, at least 1; the text is cut to fit
 *
 * Return: @buf.
 */
char *pc_escaped(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	for (; *p && n + 5 <= len; p++) {
		if (*p >= 0x20 && *p < 0x7f && *p != '\\')
			buf[n++] = *p;
		else
			n += snprintf(buf + n, len - n, "\\%03o", *p);
	}
	buf[n < len ? n : len - 1] = '\0';
	return buf;
}

/**
 * pc_json_str() - @s as a JSON string, quotes and all
 * @f:		where to
 * @s:		the text, any bytes (a task's name, a command line)
 *
 * The quote and the backslash are escaped, and so are control bytes
 * (\u00XX); UTF-8 is kept, and any other byte past ASCII is written as
 * the code point of its value, so that the line always parses.
 */
void pc_json_str(FILE *f, const char *s)
{
	int n;

	putc('"', f);
	while (*s) {
		unsigned char c = *s;

		n = pc_utf8_len(s);
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f || !n)
			fprintf(f, "\\u%04x", c);
		else
			fwrite(s, n, 1, f);
		s += n ? n : 1;
	}
	putc('"', f);
}

/**
 * pc_utf8_char() - the UTF-8 character at @s
 * @s:		NUL-terminated bytes
 * @c:		set to its code point when it is one
 *
 * Return: 1 to 4 for a whole, shortest, valid sequence (no surrogate,
 * nothing past U+10FFFF), 0 for a byte that starts none.
 */
int pc_utf8_char(const char *s, uint32_t *c)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned int v = u[0], n, i, min;

	if (v < 0x80) {
		*c = v;
		return 1;
	}
	if (v >= 0xc2 && v <= 0xdf) {
		n = 2;
		min = 0x80;
	} else if (v >= 0xe0 && v <= 0xef) {
		n = 3;
		min = 0x800;
	} else if (v >= 0xf0 && v <= 0xf4) {
		n = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	v &= 0x3f >> (n - 1);
	/* a continuation byte is never the terminating NUL */
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (u[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*c = v;
	return n;
}

/* pc_utf8_char()'s length alone. */
int pc_utf8_len(const char *s)
{
	uint32_t c;

	return pc_utf8_char(s, &c);
}
