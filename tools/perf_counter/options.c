// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: the options of the sampling commands, record, top and
 * report, in one table, so that a letter means the same thing in each
 * (and what perf means by it): -e the event, -c the period, -F the
 * frequency, -o the output file, -i the input file, -C the CPUs, -d the
 * refresh delay, -n how many (lines of a report, refreshes of top), -f
 * a file another user owns, -g call chains (record them, show them),
 * -B no build-ids and symbols at the end of a record file, -a every
 * CPU, -p the processes to attach to, -s the sort keys, -m the pages of
 * a mapped record ring. A command names
 * the letters it takes; the others are refused as unknown, with the
 * command's help. The options with only a long name,
 * as perf spells them, have a letter of their own that no short option
 * reaches: G --call-graph, Y --children, N --no-children, K --comms,
 * Q --dsos, Z --symbols, R --format, V --inverted, O --off-cpu,
 * W --wall, T --time, M --no-mmap. -D is also
 * --dump-raw-trace. Most letters have perf's long name too
 * (--event, --count, --freq, --output, --input, --cpu, --delay, --force,
 * --all-cpus, --pid, --sort, --mmap-pages).
 */
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "pc.h"

enum pc_opt_kind {
	PC_OPT_STR, PC_OPT_U64, PC_OPT_NUM, PC_OPT_CPUS,
	PC_OPT_LIST,		/* a string; given again, joined with ',' */
	PC_OPT_FLAG,		/* the field is set to min */
};

struct pc_opt {
	char		letter;
	const char	*name;		/* the long name, or NULL */
	int		long_only;	/* no short option -letter */
	enum pc_opt_kind kind;
	size_t		field;
	long long	min, max;
};

#define OPT(l, k, f, lo, hi) \
	{ l, NULL, 0, k, offsetof(struct pc_sample_opts, f), lo, hi }
#define LONG_OPT(l, n, k, f, lo) \
	{ l, n, 1, k, offsetof(struct pc_sample_opts, f), lo, 0 }
#define BOTH_OPT(l, n, k, f, lo, hi) \
	{ l, n, 0, k, offsetof(struct pc_sample_opts, f), lo, hi }

static const struct pc_opt pc_opts[] = {
	BOTH_OPT('e', "event", PC_OPT_LIST, event, 0, 0),
	BOTH_OPT('c', "count", PC_OPT_U64, period, 1, 0),
	BOTH_OPT('F', "freq", PC_OPT_NUM, freq, 1, 1000000),
	BOTH_OPT('o', "output", PC_OPT_STR, output, 0, 0),
	BOTH_OPT('i', "input", PC_OPT_STR, input, 0, 0),
	BOTH_OPT('C', "cpu", PC_OPT_CPUS, cpus, 0, 0),
	BOTH_OPT('d', "delay", PC_OPT_NUM, delay, 1, 86400),
	OPT('n', PC_OPT_NUM, count, 0, INT_MAX),
	BOTH_OPT('f', "force", PC_OPT_FLAG, force, 1, 0),
	OPT('g', PC_OPT_FLAG, callchain, 1, 0),
	BOTH_OPT('a', "all-cpus", PC_OPT_FLAG, all_cpus, 1, 0),
	BOTH_OPT('p', "pid", PC_OPT_STR, pids, 0, 0),
	BOTH_OPT('s', "sort", PC_OPT_STR, sort, 0, 0),
	LONG_OPT('K', "comms", PC_OPT_STR, comms, 0),
	LONG_OPT('Q', "dsos", PC_OPT_STR, dsos, 0),
	BOTH_OPT('D', "dump-raw-trace", PC_OPT_FLAG, dump, 1, 0),
	LONG_OPT('Z', "symbols", PC_OPT_STR, symbols, 0),
	LONG_OPT('G', "call-graph", PC_OPT_STR, call_graph, 0),
	LONG_OPT('Y', "children", PC_OPT_FLAG, children, 1),
	LONG_OPT('N', "no-children", PC_OPT_FLAG, children, 0),
	LONG_OPT('R', "format", PC_OPT_STR, format, 0),
	LONG_OPT('V', "inverted", PC_OPT_FLAG, inverted, 1),
	BOTH_OPT('B', "no-buildid", PC_OPT_FLAG, no_buildid, 1, 0),
	LONG_OPT('O', "off-cpu", PC_OPT_FLAG, off_cpu, 1),
	BOTH_OPT('m', "mmap-pages", PC_OPT_STR, mmap_pages, 0, 0),
	LONG_OPT('M', "no-mmap", PC_OPT_FLAG, no_mmap, 1),
	LONG_OPT('W', "wall", PC_OPT_FLAG, wall, 1),
	LONG_OPT('T', "time", PC_OPT_STR, time, 0),
};

static const struct pc_opt *pc_opt_find(char letter)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pc_opts); i++)
		if (pc_opts[i].letter == letter)
			return &pc_opts[i];
	return NULL;
}

/* "+e:c:h" from "+ec": getopt's string for the letters a command takes. */
static void pc_opt_string(const char *letters, char *out, size_t size)
{
	size_t n = 0;

	if (*letters == '+')
		out[n++] = *letters++;
	for (; *letters && n + 3 < size; letters++) {
		const struct pc_opt *o = pc_opt_find(*letters);

		if (o && o->long_only)
			continue;
		out[n++] = *letters;
		if (o && o->kind != PC_OPT_FLAG)
			out[n++] = ':';
	}
	out[n++] = 'h';
	out[n] = '\0';
}

static void pc_opt_set(const struct pc_opt *o, struct pc_sample_opts *opts,
		       const char *arg)
{
	char name[3] = { '-', o->letter, '\0' };
	void *field = (char *)opts + o->field;

	switch (o->kind) {
	case PC_OPT_STR:
		*(const char **)field = arg;
		break;
	case PC_OPT_LIST:
		/* the caller's default is replaced, what was given kept */
		if (opts->lists_given & (1U << (o - pc_opts))) {
			const char *was = *(const char **)field;
			char *both = pc_zalloc(strlen(was) + strlen(arg) + 2);

			sprintf(both, "%s,%s", was, arg);
			*(const char **)field = both;
		} else {
			*(const char **)field = arg;
		}
		opts->lists_given |= 1U << (o - pc_opts);
		break;
	case PC_OPT_U64:
		*(uint64_t *)field = pc_parse_u64(name, arg, o->min, UINT64_MAX);
		break;
	case PC_OPT_NUM:
		*(int *)field = pc_parse_num(name, arg, o->min, o->max);
		break;
	case PC_OPT_CPUS:
		opts->nr_cpus = pc_parse_cpus(arg, opts->cpus, PC_OPT_MAX_CPUS);
		if (opts->nr_cpus <= 0)
			pc_die("-C %s: refused", arg);
		break;
	case PC_OPT_FLAG:
		*(int *)field = o->min;
		break;
	}
}

/* getopt_long()'s table of the long options among @letters. */
static void pc_opt_longs(const char *letters, struct option *out, size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(pc_opts) && n + 1 < size; i++) {
		const struct pc_opt *o = &pc_opts[i];

		if (!o->name || !strchr(letters, o->letter))
			continue;
		out[n].name = o->name;
		out[n].has_arg = o->kind == PC_OPT_FLAG ? no_argument :
			required_argument;
		out[n].flag = NULL;
		out[n].val = o->letter;
		n++;
	}
	memset(&out[n], 0, sizeof(out[n]));
}

/**
 * pc_sample_opts_parse() - a sampling command's options, from the table
 * @argc:	the command's arguments, its name first
 * @argv:	as main() has them
 * @letters:	the option letters the command takes ("ecFo"); -h is
 *		every command's. A long-only option is named by its letter
 *		in the table (G, Y, N) and given as --name. A leading '+' stops at the first argument
 *		that is not an option (record's command); without it they
 *		may come in any order, as getopt permutes them.
 * @opts:	filled in; what is not given keeps what the caller set
 * @help:	the command's help, to stdout for -h, to stderr on an error
 *
 * Return: the index of the first argument left, or -1 after -h (the
 * caller returns 0) or -2 after an unknown option (the caller returns
 * 1).
 */
int pc_sample_opts_parse(int argc, char **argv, const char *letters,
			 struct pc_sample_opts *opts, void (*help)(FILE *f))
{
	char optstring[2 * ARRAY_SIZE(pc_opts) + 3];
	struct option longs[ARRAY_SIZE(pc_opts) + 1];
	int opt;

	pc_opt_string(letters, optstring, sizeof(optstring));
	pc_opt_longs(letters, longs, ARRAY_SIZE(longs));
	while ((opt = getopt_long(argc, argv, optstring, longs, NULL)) != -1) {
		const struct pc_opt *o = pc_opt_find((char)opt);

		if (opt == 'h') {
			help(stdout);
			return -1;
		}
		if (!o || !strchr(letters, opt)) {
			help(stderr);
			return -2;
		}
		pc_opt_set(o, opts, optarg);
	}
	return optind;
}
