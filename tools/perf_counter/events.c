// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: event names. Generic hardware and software events, a
 * tracepoint as subsys:name by its tracefs id, a raw code as rNNN (hex)
 * and this CPU's named events from the generated tables, chosen by the
 * CPU's identity. A :u suffix counts user mode only, :k kernel only.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#if defined(__i386__) || defined(__x86_64__)
#include <cpuid.h>
#endif

#include "pc.h"
#include "pmu-events/pmu-events.h"

struct pc_name {
	const char *name;	/* the first of a kind is its own name */
	const char *canon;	/* the name it stands for, or NULL */
	enum pc_kind kind;
	unsigned int id;
	const char *desc;
};

static const struct pc_name pc_names[] = {
	{ "cycles", NULL, PC_HW, PERF_COUNT_CPU_CYCLES,
	  "CPU clock cycles" },
	{ "cpu-cycles", "cycles", PC_HW, PERF_COUNT_CPU_CYCLES, NULL },
	{ "instructions", NULL, PC_HW, PERF_COUNT_INSTRUCTIONS,
	  "instructions retired" },
	{ "cache-references", NULL, PC_HW, PERF_COUNT_CACHE_REFERENCES,
	  "last-level cache references" },
	{ "cache-misses", NULL, PC_HW, PERF_COUNT_CACHE_MISSES,
	  "last-level cache misses" },
	{ "branches", NULL, PC_HW, PERF_COUNT_BRANCH_INSTRUCTIONS,
	  "branch instructions retired" },
	{ "branch-instructions", "branches", PC_HW,
	  PERF_COUNT_BRANCH_INSTRUCTIONS, NULL },
	{ "branch-misses", NULL, PC_HW, PERF_COUNT_BRANCH_MISSES,
	  "mispredicted branches retired" },
	{ "bus-cycles", NULL, PC_HW, PERF_COUNT_BUS_CYCLES,
	  "bus clock cycles" },
	{ "cpu-clock", NULL, PC_SW, PERF_COUNT_CPU_CLOCK,
	  "ns on the CPU, by its clock" },
	{ "task-clock", NULL, PC_SW, PERF_COUNT_TASK_CLOCK,
	  "ns the task ran" },
	{ "page-faults", NULL, PC_SW, PERF_COUNT_PAGE_FAULTS,
	  "page faults of user addresses" },
	{ "faults", "page-faults", PC_SW, PERF_COUNT_PAGE_FAULTS, NULL },
	{ "minor-faults", NULL, PC_SW, PERF_COUNT_PAGE_FAULTS_MIN,
	  "page faults handled without I/O" },
	{ "major-faults", NULL, PC_SW, PERF_COUNT_PAGE_FAULTS_MAJ,
	  "page faults that waited for I/O" },
	{ "context-switches", NULL, PC_SW, PERF_COUNT_CONTEXT_SWITCHES,
	  "switches away from the task" },
	{ "cs", "context-switches", PC_SW, PERF_COUNT_CONTEXT_SWITCHES,
	  NULL },
	{ "cpu-migrations", NULL, PC_SW, PERF_COUNT_CPU_MIGRATIONS,
	  "moves of the task to another CPU" },
	{ "migrations", "cpu-migrations", PC_SW, PERF_COUNT_CPU_MIGRATIONS,
	  NULL },
};

#define PC_NR_NAMES	ARRAY_SIZE(pc_names)

/* For list: the generic and software events with their descriptions. */
int pc_generic_event(unsigned int i, const char **name, const char **desc,
		     int *sw)
{
	for (; i < PC_NR_NAMES; i++) {
		if (pc_names[i].canon)
			continue;
		*name = pc_names[i].name;
		*desc = pc_names[i].desc;
		*sw = pc_names[i].kind == PC_SW;
		return i;
	}
	return -1;
}

int pc_event_is_clock(const struct pc_event *ev)
{
	return ev->kind == PC_SW &&
	       (PERF_COUNTER_ID(ev->config) == PERF_COUNT_CPU_CLOCK ||
		PERF_COUNTER_ID(ev->config) == PERF_COUNT_TASK_CLOCK);
}

/*
 * This CPU as the tables' mapfile names it: on x86 "GenuineIntel-6-13"
 * (vendor, family, model in decimal, from CPUID), on PowerPC the PVR as
 * 0x%08x. PERF_COUNTER_CPUID overrides it (to list another CPU's
 * events).
 */
const char *pc_cpu_identity(void)
{
	static char id[64];
	const char *env = getenv("PERF_COUNTER_CPUID");

	if (env && *env)
		return env;
	if (id[0])
		return id;
#if defined(__i386__) || defined(__x86_64__)
	{
		unsigned int a, b, c, d, fam, model;
		char vendor[13];

		if (!__get_cpuid(0, &a, &b, &c, &d)) {
			strcpy(id, "unknown");
			return id;
		}
		memcpy(vendor, &b, 4);
		memcpy(vendor + 4, &d, 4);
		memcpy(vendor + 8, &c, 4);
		vendor[12] = '\0';
		__get_cpuid(1, &a, &b, &c, &d);
		fam = (a >> 8) & 0xf;
		model = (a >> 4) & 0xf;
		if (fam == 0xf)
			fam += (a >> 20) & 0xff;
		if (fam == 6 || fam >= 0xf)
			model |= ((a >> 16) & 0xf) << 4;
		snprintf(id, sizeof(id), "%s-%u-%u", vendor, fam, model);
	}
#elif defined(__powerpc__)
	{
		static char info[16384];
		unsigned int hi, lo, pvr = 0;
		char *p;

		if (pc_read_file("/proc/cpuinfo", info, sizeof(info)) < 0)
			info[0] = '\0';
		p = strstr(info, "(pvr ");
		if (p && sscanf(p, "(pvr %x %x)", &hi, &lo) == 2)
			pvr = hi << 16 | lo;
		else
			__asm__ __volatile__("mfpvr %0" : "=r" (pvr));
		snprintf(id, sizeof(id), "0x%08x", pvr);
	}
#else
	strcpy(id, "unknown");
#endif
	return id;
}

/* The first table whose mapfile regex matches the whole identity. */
const struct pc_pmu_table *pc_cpu_table(void)
{
	const char *id = pc_cpu_identity();
	unsigned int i;

	for (i = 0; i < pc_pmu_nr_tables; i++) {
		char re_src[512];
		regex_t re;
		int hit;

		snprintf(re_src, sizeof(re_src), "^(%s)$",
			 pc_pmu_tables[i].cpuid);
		if (regcomp(&re, re_src, REG_EXTENDED | REG_NOSUB | REG_ICASE))
			continue;
		hit = !regexec(&re, id, 0, NULL, 0);
		regfree(&re);
		if (hit)
			return &pc_pmu_tables[i];
	}
	return NULL;
}

/* The events directory of tracefs, or NULL when it is not mounted. */
const char *pc_tracefs_events(void)
{
	static const char * const dirs[] = {
		"/sys/kernel/tracing/events",
		"/sys/kernel/debug/tracing/events",
	};
	unsigned int i;
	struct stat st;
	char path[128];

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/header_page", dirs[i]);
		if (!stat(path, &st))
			return dirs[i];
	}
	return NULL;
}

static int parse_tracepoint(const char *str, struct pc_event *ev)
{
	const char *dir = pc_tracefs_events();
	const char *colon = strchr(str, ':');
	char path[512], buf[32];

	if (!dir || !colon || strchr(colon + 1, ':') || strchr(str, '/') ||
	    strstr(str, ".."))
		return -1;
	snprintf(path, sizeof(path), "%s/%.*s/%s/id", dir,
		 (int)(colon - str), str, colon + 1);
	if (pc_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	ev->kind = PC_TP;
	ev->config = PERF_COUNTER_CONFIG(PERF_TYPE_TRACEPOINT,
					 strtoull(buf, NULL, 10));
	return 0;
}

static int parse_raw(const char *str, struct pc_event *ev)
{
	const char *p = str + 1;
	unsigned long long code;

	if (str[0] != 'r' || !*p)
		return -1;
	for (; *p; p++)
		if (!isxdigit((unsigned char)*p))
			return -1;
	errno = 0;
	code = strtoull(str + 1, NULL, 16);
	if (errno == ERANGE || code > PERF_COUNTER_CONFIG_MASK) {
		pc_warn("%s: a raw code is at most %#llx", str,
			(unsigned long long)PERF_COUNTER_CONFIG_MASK);
		return -2;
	}
	ev->kind = PC_RAW;
	ev->config = PERF_COUNTER_RAW_CONFIG(code);
	return 0;
}

static int parse_named(const char *str, const char *mod, struct pc_event *ev)
{
	const struct pc_pmu_table *t = pc_cpu_table();
	unsigned int i;

	for (i = 0; t && i < t->nr_events; i++) {
		const struct pc_pmu_event *e = &t->events[i];

		if (strcasecmp(e->name, str))
			continue;
		ev->kind = PC_NAMED;
		ev->config = PERF_COUNTER_RAW_CONFIG(e->config);
		ev->extra = e->extra;
		ev->nr_extra = e->nr_extra;
		/* the modifier stays in the name: cycles:u is not cycles */
		snprintf(ev->name, sizeof(ev->name), "%s%s", e->name, mod);
		return 0;
	}
	return -1;
}

/*
 * Parse one event name into @ev; 0, -1 if no event has it, or -2 if it
 * was refused with a message (too long, a raw code out of range).
 */
int pc_parse_event(const char *str, struct pc_event *ev)
{
	char base[PC_NAME_MAX];
	const char *colon = strrchr(str, ':');
	const char *mod = "";
	unsigned int i;
	int r;

	memset(ev, 0, sizeof(*ev));
	if (strlen(str) >= sizeof(base)) {
		pc_warn("%.40s...: too long, an event name is at most %zu bytes",
			str, sizeof(base) - 1);
		return -2;
	}
	snprintf(base, sizeof(base), "%s", str);
	snprintf(ev->name, sizeof(ev->name), "%s", str);
	if (colon && colon[1] && strspn(colon + 1, "uk") == strlen(colon + 1)) {
		int u = !!strchr(colon + 1, 'u'), k = !!strchr(colon + 1, 'k');

		ev->exclude_kernel = u && !k;
		ev->exclude_user = k && !u;
		base[colon - str] = '\0';
		mod = colon;
	}
	for (i = 0; i < PC_NR_NAMES; i++) {
		const struct pc_name *n = &pc_names[i];

		if (strcmp(n->name, base))
			continue;
		ev->kind = n->kind;
		ev->config = PERF_COUNTER_CONFIG(n->kind == PC_HW ?
						 PERF_TYPE_HARDWARE :
						 PERF_TYPE_SOFTWARE, n->id);
		if (n->canon)
			snprintf(ev->name, sizeof(ev->name), "%s%s", n->canon,
				 mod);
		return 0;
	}
	r = parse_raw(base, ev);
	if (r != -1)
		return r;
	if (!parse_named(base, mod, ev) || !parse_tracepoint(base, ev))
		return 0;
	return -1;
}

int pc_parse_event_list(const char *list, struct pc_event **evs, int *nr)
{
	char *copy = pc_strdup(list), *save = NULL, *tok;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		*evs = pc_realloc(*evs, (*nr + 1) * sizeof(**evs));
		int r = pc_parse_event(tok, &(*evs)[*nr]);

		if (r) {
			if (r == -1)
				pc_unknown_event(tok);
			free(copy);
			return -1;
		}
		(*nr)++;
	}
	free(copy);
	return 0;
}

struct pc_guess {
	const char *name;
	int dist;
};

static void guess(struct pc_guess *best, const char *want, const char *name)
{
	int d = pc_edit_distance(want, name), i, j;

	for (i = 0; i < 3; i++) {
		if (best[i].name && !strcmp(best[i].name, name))
			return;
		if (!best[i].name || d < best[i].dist)
			break;
	}
	if (i == 3)
		return;
	for (j = 2; j > i; j--)
		best[j] = best[j - 1];
	best[i].name = name;
	best[i].dist = d;
}

/* Report @str as no event's name, with the three nearest names. */
void pc_unknown_event(const char *str)
{
	const struct pc_pmu_table *t = pc_cpu_table();
	struct pc_guess best[3] = { { NULL, 0 } };
	static char tp[3][160];
	const char *dir = pc_tracefs_events();
	unsigned int i;
	int n;

	for (i = 0; i < PC_NR_NAMES; i++)
		guess(best, str, pc_names[i].name);
	for (i = 0; t && i < t->nr_events; i++)
		guess(best, str, t->events[i].name);
	if (strchr(str, ':') && dir) {
		DIR *sd = opendir(dir);
		struct dirent *s;
		char cand[160];
		struct pc_guess tbest[3] = { { NULL, 0 } };
		char *pool = pc_zalloc(1);
		size_t pool_len = 0;

		/* keep every candidate alive until the scan is over */
		while (sd && (s = readdir(sd))) {
			char sub[400];
			DIR *ed;
			struct dirent *e;

			if (s->d_name[0] == '.')
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", dir, s->d_name);
			ed = opendir(sub);
			while (ed && (e = readdir(ed))) {
				if (e->d_name[0] == '.' ||
				    e->d_type != DT_DIR)
					continue;
				n = snprintf(cand, sizeof(cand), "%s:%s",
					     s->d_name, e->d_name);
				if (n < 0)
					continue;
				if ((size_t)n >= sizeof(cand))
					n = sizeof(cand) - 1;
				pool = pc_realloc(pool, pool_len + n + 1);
				memcpy(pool + pool_len, cand, n + 1);
				pool_len += n + 1;
			}
			if (ed)
				closedir(ed);
		}
		if (sd)
			closedir(sd);
		for (i = 0; i < pool_len; i += strlen(pool + i) + 1)
			guess(tbest, str, pool + i);
		for (n = 0; n < 3 && tbest[n].name; n++) {
			snprintf(tp[n], sizeof(tp[n]), "%s", tbest[n].name);
			guess(best, str, tp[n]);
		}
		free(pool);
	}
	fprintf(stderr, "perf-counter: unknown event '%s'", str);
	for (n = 0; n < 3 && best[n].name; n++)
		fprintf(stderr, "%s%s", n ? ", " : "; did you mean: ",
			best[n].name);
	fprintf(stderr, "\n  ('perf-counter list' shows every event)\n");
}
