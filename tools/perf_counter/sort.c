// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter report: samples counted by the keys --sort names (comm,
 * pid, dso, sym, cpu, as perf spells them), the rows printed the most
 * sampled first, and the filters --comms, --dsos and --symbols.
 */
#include <stdlib.h>
#include <string.h>

#include "pc.h"

static const char * const key_name[] = {
	[PC_SORT_COMM]	= "comm",
	[PC_SORT_PID]	= "pid",
	[PC_SORT_DSO]	= "dso",
	[PC_SORT_SYM]	= "sym",
	[PC_SORT_CPU]	= "cpu",
};

/* --sort KEY[,KEY...]: each known key once; dies naming the known ones. */
void pc_sort_parse(const char *list, struct pc_sort *s)
{
	char *copy = pc_strdup(list), *save = NULL, *tok;
	unsigned int i, j;

	s->nr = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(key_name); i++)
			if (!strcmp(tok, key_name[i]) ||
			    (i == PC_SORT_SYM && !strcmp(tok, "symbol")))
				break;
		if (i == ARRAY_SIZE(key_name))
			pc_die("--sort %s: no key '%s' (comm, pid, dso, sym, cpu)",
			       list, tok);
		for (j = 0; j < s->nr; j++)
			if (s->key[j] == (int)i)
				pc_die("--sort %s: '%s' twice", list, tok);
		s->key[s->nr++] = i;
	}
	free(copy);
	if (!s->nr)
		pc_die("--sort '%s': no key", list);
}

/* Is @name in the comma-separated @list? A NULL list holds everything. */
int pc_filter_match(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	if (!list)
		return 1;
	while (*p) {
		size_t l = strcspn(p, ",");

		if (l == n && !strncmp(p, name, n))
			return 1;
		p += l + (p[l] == ',');
	}
	return 0;
}

static int key_cmp(const struct pc_row *a, const struct pc_row *b, int key)
{
	switch (key) {
	case PC_SORT_COMM:
		return strcmp(a->comm, b->comm);
	case PC_SORT_PID:
		return a->pid < b->pid ? -1 : a->pid > b->pid;
	case PC_SORT_DSO:
		return strcmp(a->dso, b->dso);
	case PC_SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	default:
		/* a function by name; the unnamed of one file together */
		if (a->sym && b->sym)
			return strcmp(a->sym, b->sym);
		if (a->sym || b->sym)
			return a->sym ? -1 : 1;
		return strcmp(a->dso, b->dso);
	}
}

static int row_cmp(const struct pc_sort *s, const struct pc_row *a,
		   const struct pc_row *b)
{
	unsigned int i;
	int d;

	for (i = 0; i < s->nr; i++) {
		d = key_cmp(a, b, s->key[i]);
		if (d)
			return d;
	}
	return 0;
}

static uint64_t hash_str(uint64_t h, const char *p)
{
	while (*p)
		h = (h ^ (unsigned char)*p++) * 1099511628211ULL;
	return (h ^ 0xff) * 1099511628211ULL;
}

static uint64_t row_hash(const struct pc_sort *s, const struct pc_row *r)
{
	uint64_t h = 1469598103934665603ULL;
	unsigned int i;

	for (i = 0; i < s->nr; i++) {
		switch (s->key[i]) {
		case PC_SORT_COMM:
			h = hash_str(h, r->comm);
			break;
		case PC_SORT_PID:
			h = (h ^ r->pid) * 1099511628211ULL;
			break;
		case PC_SORT_DSO:
			h = hash_str(h, r->dso);
			break;
		case PC_SORT_CPU:
			h = (h ^ (uint32_t)r->cpu) * 1099511628211ULL;
			break;
		default:
			h = hash_str(h, r->sym ? r->sym : r->dso);
			break;
		}
	}
	return h;
}

static void rehash(struct pc_rows *r, const struct pc_sort *s)
{
	size_t i;

	free(r->slot);
	r->nr_slot = r->nr_slot ? r->nr_slot * 2 : 1024;
	r->slot = pc_zalloc(r->nr_slot * sizeof(*r->slot));
	for (i = 0; i < r->nr; i++) {
		size_t at = row_hash(s, &r->row[i]) & (r->nr_slot - 1);

		while (r->slot[at])
			at = (at + 1) & (r->nr_slot - 1);
		r->slot[at] = i + 1;
	}
}

/**
 * pc_rows_add() - count one sample under its keys
 * @r:		the rows
 * @s:		the keys that tell rows apart
 * @k:		the sample's comm, pid, dso, sym (NULL: none) and ip (the
 *		row's first is shown for no name), and in @count the events
 *		it stands for, its weight; its strings are copied when a
 *		row is made
 */
void pc_rows_add(struct pc_rows *r, const struct pc_sort *s,
		 const struct pc_row *k)
{
	size_t at;
	struct pc_row *n;

	if (2 * (r->nr + 1) > r->nr_slot)
		rehash(r, s);
	at = row_hash(s, k) & (r->nr_slot - 1);
	for (; r->slot[at]; at = (at + 1) & (r->nr_slot - 1)) {
		n = &r->row[r->slot[at] - 1];
		if (!row_cmp(s, n, k)) {
			n->count += k->count;
			n->samples++;
			r->total += k->count;
			return;
		}
	}
	r->row = pc_grow(r->row, &r->cap, r->nr + 1, sizeof(*r->row));
	n = &r->row[r->nr];
	*n = *k;
	n->comm = pc_strdup(k->comm);
	n->dso = pc_strdup(k->dso);
	n->sym = k->sym ? pc_strdup(k->sym) : NULL;
	n->samples = 1;
	r->slot[at] = ++r->nr;
	r->total += k->count;
}

static const struct pc_sort *sorting;

static int by_count(const void *a, const void *b)
{
	const struct pc_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return row_cmp(sorting, x, y);
}

/**
 * pc_rows_print() - the rows, the heaviest first
 * @r:		the rows (sorted here; no more may be added)
 * @s:		their keys, the columns in this order
 * @total:	the weight (events) a row's Overhead is a share of; its
 *		Samples column counts samples
 * @max_lines:	at most this many rows; -1 all
 */
void pc_rows_print(struct pc_rows *r, const struct pc_sort *s,
		   uint64_t total, int max_lines)
{
	size_t i, j;

	sorting = s;
	if (r->nr)
		qsort(r->row, r->nr, sizeof(*r->row), by_count);
	printf("#\n# %8s %8s ", "Overhead", "Samples");
	for (j = 0; j < s->nr; j++) {
		switch (s->key[j]) {
		case PC_SORT_COMM:
			printf(j + 1 < s->nr ? " %-16s" : " %s", "Command");
			break;
		case PC_SORT_PID:
			printf(" %7s", "Pid");
			break;
		case PC_SORT_CPU:
			printf(" %3s", "CPU");
			break;
		case PC_SORT_DSO:
			printf(j + 1 < s->nr ? " %-20s" : " %s", "DSO");
			break;
		default:
			printf(" %s", "Symbol");
			break;
		}
	}
	putchar('\n');
	for (i = 0; i < r->nr && (max_lines < 0 || i < (size_t)max_lines);
	     i++) {
		const struct pc_row *e = &r->row[i];

		printf("  %7.2f%% %8llu ", total ? 100.0 * e->count / total : 0,
		       (unsigned long long)e->samples);
		for (j = 0; j < s->nr; j++) {
			size_t w;

			putchar(' ');
			switch (s->key[j]) {
			case PC_SORT_COMM:
				pc_print_escaped(e->comm);
				w = strlen(e->comm);
				if (j + 1 < s->nr)
					printf("%*s", (int)(w < 16 ? 16 - w : 0),
					       "");
				break;
			case PC_SORT_PID:
				printf("%7u", e->pid);
				break;
			case PC_SORT_CPU:
				printf("%3d", e->cpu);
				break;
			case PC_SORT_DSO:
				pc_print_escaped(e->dso);
				w = strlen(e->dso);
				if (j + 1 < s->nr)
					printf("%*s", (int)(w < 20 ? 20 - w : 0),
					       "");
				break;
			default:
				printf("[%c] ", e->kernel ? 'k' : '.');
				if (e->sym)
					pc_print_escaped(e->sym);
				else
					printf("0x%llx",
					       (unsigned long long)e->ip);
				break;
			}
		}
		putchar('\n');
	}
}

void pc_rows_free(struct pc_rows *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free((char *)r->row[i].comm);
		free((char *)r->row[i].dso);
		free((char *)r->row[i].sym);
	}
	free(r->row);
	free(r->slot);
	memset(r, 0, sizeof(*r));
}
