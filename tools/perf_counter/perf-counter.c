// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: the command line of the perf_counter user tool, which
 * hands each subcommand to its own file.
 */
#include <stdio.h>
#include <string.h>

#include "pc.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *what;
} pc_cmds[] = {
	{ "stat", cmd_stat, "run a command and count its events" },
	{ "list", cmd_list, "list the events this machine can count" },
	{ "record", cmd_record, "run a command and sample it into a file" },
	{ "report", cmd_report, "a profile of a record file, with its call chains" },
	{ "top", cmd_top, "system-wide profile, refreshed (kerneltop)" },
	{ "diff", cmd_diff, "what changed between two record files, and how surely" },
};

static void print_help(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: perf-counter COMMAND [ARGS]\n\n");
	for (i = 0; i < ARRAY_SIZE(pc_cmds); i++)
		fprintf(f, "  %-8s %s\n", pc_cmds[i].name, pc_cmds[i].what);
	fprintf(f, "\n'perf-counter COMMAND -h' shows a command's options.\n"
		"Documentation/perf_counter/tool.rst describes them all.\n");
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_help(argc < 2 ? stderr : stdout);
		return argc < 2;
	}
	for (i = 0; i < ARRAY_SIZE(pc_cmds); i++)
		if (!strcmp(argv[1], pc_cmds[i].name))
			return pc_cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "perf-counter: unknown command '%s'\n", argv[1]);
	print_help(stderr);
	return 1;
}
