// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter report --format folded: one line per distinct stack of
 * one event, as FlameGraph's stackcollapse-perf.pl writes them and
 * flamegraph.pl and inferno read them: the thread's command, then the
 * frames outermost first, joined by ';', a space and the events (ns for
 * a clock) the stack's samples stand for. Threads of one command are
 * one line. A ';' or a control character in a name would split or end
 * a line: each is written as '_'.
 */
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "profile.h"

struct folded_line {
	char *text;
	uint64_t weight;
};

/*
 * @s into @out from *@len on, after @sep if it is not 0; ';' and
 * control characters in @s as '_'.
 */
static void put_name(char **out, size_t *cap, size_t *len, char sep,
		     const char *s)
{
	size_t n = strlen(s), i;

	*out = pc_grow(*out, cap, *len + n + 2, 1);
	if (sep)
		(*out)[(*len)++] = sep;
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		(*out)[(*len)++] = c == ';' || c < 0x20 || c == 0x7f ? '_' : c;
	}
	(*out)[*len] = '\0';
}

static int by_text(const void *a, const void *b)
{
	const struct folded_line *x = a, *y = b;

	return strcmp(x->text, y->text);
}

/**
 * pc_write_folded() - write event @event's stacks folded
 * @p:		the profile
 * @event:	which of its events
 * @f:		where
 *
 * Return: 0, or -1 with errno when @f could not be written.
 */
int pc_write_folded(const struct pc_profile *p, uint32_t event, FILE *f)
{
	struct folded_line *l = pc_zalloc((p->nr_stack + 1) * sizeof(*l));
	char label[PC_FRAME_LABEL_MAX];
	uint32_t i, k, nr = 0;

	for (i = 0; i < p->nr_stack; i++) {
		const struct pc_stack *st = &p->stack[i];
		size_t cap = 0, len = 0;
		char *t = NULL;

		if (st->event != event)
			continue;
		put_name(&t, &cap, &len, 0, p->thread[st->thread].comm);
		for (k = 0; k < st->nr; k++) {
			pc_frame_label(&p->frame[st->frame[k]], label,
				       sizeof(label));
			put_name(&t, &cap, &len, ';', label);
		}
		l[nr].text = t;
		l[nr++].weight = st->weight;
	}
	qsort(l, nr, sizeof(*l), by_text);
	for (i = 0; i < nr; i = k) {
		uint64_t w = 0;

		for (k = i; k < nr && !strcmp(l[k].text, l[i].text); k++)
			w += l[k].weight;
		fprintf(f, "%s %llu\n", l[i].text, (unsigned long long)w);
	}
	for (i = 0; i < nr; i++)
		free(l[i].text);
	free(l);
	return fflush(f) || ferror(f) ? -1 : 0;
}
