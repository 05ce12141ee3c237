// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter list: every event name the tool takes on this machine.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "pmu-events/pmu-events.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static void list_tracepoints(void)
{
	const char *dir = pc_tracefs_events();
	char **names = NULL;
	int nr = 0, i;
	DIR *sd;
	struct dirent *s;

	if (!dir) {
		printf("\nTracepoint events: none (tracefs is not mounted at\n"
		       "  /sys/kernel/tracing or /sys/kernel/debug/tracing)\n");
		return;
	}
	sd = opendir(dir);
	while (sd && (s = readdir(sd))) {
		char sub[400];
		DIR *ed;
		struct dirent *e;

		if (s->d_name[0] == '.' || s->d_type != DT_DIR)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, s->d_name);
		ed = opendir(sub);
		while (ed && (e = readdir(ed))) {
			char name[600];

			if (e->d_name[0] == '.' || e->d_type != DT_DIR)
				continue;
			snprintf(name, sizeof(name), "%s:%s", s->d_name,
				 e->d_name);
			names = pc_realloc(names, (nr + 1) * sizeof(*names));
			names[nr++] = pc_strdup(name);
		}
		if (ed)
			closedir(ed);
	}
	if (sd)
		closedir(sd);
	qsort(names, nr, sizeof(*names), cmp_str);
	printf("\nTracepoint events (%s, %d):\n", dir, nr);
	for (i = 0; i < nr; i++) {
		printf("  %-40s [Tracepoint event]\n", names[i]);
		free(names[i]);
	}
	free(names);
}

static void list_cpu_events(void)
{
	const struct pc_pmu_table *t = pc_cpu_table();
	unsigned int i, j;

	if (!t) {
		printf("\nNamed events of this CPU (%s): none in the tables\n",
		       pc_cpu_identity());
		return;
	}
	printf("\nNamed events of this CPU: %s (%s, table %s), %u:\n",
	       t->cpu_name, pc_cpu_identity(), t->dir, t->nr_events);
	for (i = 0; i < t->nr_events; i++) {
		const char *topic = t->events[i].topic;

		/* each topic once, where it first appears */
		for (j = 0; j < i; j++)
			if (!strcmp(t->events[j].topic, topic))
				break;
		if (j < i)
			continue;
		printf("\n %s:\n", topic);
		for (j = i; j < t->nr_events; j++) {
			const struct pc_pmu_event *e = &t->events[j];

			if (strcmp(e->topic, topic))
				continue;
			printf("  %-32s %s [raw 0x%llx", e->name, e->desc,
			       e->config);
			if (e->nr_extra)
				printf(", extra 0x%llx", e->extra);
			if (e->counters[0])
				printf(", counters %s", e->counters);
			printf("]\n");
		}
	}
}

static int want(int argc, char **argv, const char *what)
{
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], what))
			return 1;
	return 0;
}

int cmd_list(int argc, char **argv)
{
	const char *name, *desc;
	int i, sw;

	if (argc > 1 && (!strcmp(argv[1], "-h") ||
			 !strcmp(argv[1], "--help"))) {
		printf("usage: perf-counter list [hw|sw|raw|tracepoint|cpu]...\n"
		       "  every event name -e takes; a :u suffix counts user\n"
		       "  mode only, :k kernel mode only\n");
		return 0;
	}
	if (want(argc, argv, "hw")) {
		printf("Generic hardware events (counted by the CPU's PMU driver):\n");
		for (i = 0; (i = pc_generic_event(i, &name, &desc, &sw)) >= 0;
		     i++)
			if (!sw)
				printf("  %-40s %s [Hardware event]\n", name,
				       desc);
	}
	if (want(argc, argv, "sw")) {
		printf("\nSoftware events (counted by the kernel):\n");
		for (i = 0; (i = pc_generic_event(i, &name, &desc, &sw)) >= 0;
		     i++)
			if (sw)
				printf("  %-40s %s [Software event]\n", name,
				       desc);
	}
	if (want(argc, argv, "raw"))
		printf("\nRaw events:\n  %-40s %s\n", "rNNN",
		       "the PMU's own event code NNN, in hex [Raw event]");
	if (want(argc, argv, "cpu"))
		list_cpu_events();
	if (want(argc, argv, "tracepoint"))
		list_tracepoints();
	return 0;
}
