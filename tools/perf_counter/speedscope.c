// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter report --format speedscope: the profile in speedscope's
 * file format (https://www.speedscope.app/file-format-schema.json):
 * the frames shared (a function's name and its file), then a "sampled"
 * profile for each thread and event, whose samples are its distinct
 * stacks (frame indices, outermost first) and whose weights are the
 * events (ns for a clock: unit "nanoseconds", else "none") each
 * stack's samples stand for. Strings are JSON-escaped: control
 * characters, quotes and backslashes; UTF-8 is kept, and any other byte
 * past ASCII (a name is any bytes) is written as the code point of its
 * value.
 */
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "profile.h"

/* The profile whose stacks qsort() orders (it passes no context). */
static const struct pc_profile *sort_p;

static int by_event_thread(const void *a, const void *b)
{
	const struct pc_stack *x = &sort_p->stack[*(const uint32_t *)a];
	const struct pc_stack *y = &sort_p->stack[*(const uint32_t *)b];

	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) -
	       (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* One profile: the stacks @order[from, to), of one thread and event. */
static void write_profile(const struct pc_profile *p, const uint32_t *order,
			  uint32_t from, uint32_t to, FILE *f)
{
	const struct pc_stack *st = &p->stack[order[from]];
	const struct pc_thread *t = &p->thread[st->thread];
	const struct pc_prof_event *ev = &p->event[st->event];
	uint64_t total = 0;
	char name[256];
	uint32_t i, k;

	for (i = from; i < to; i++)
		total += p->stack[order[i]].weight;
	snprintf(name, sizeof(name), "%s %u/%u: %s", t->comm, t->pid, t->tid,
		 ev->name);
	fputs("{\"type\":\"sampled\",\"name\":", f);
	pc_json_str(f, name);
	fprintf(f, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%llu,\n",
		strcmp(ev->unit, "nanoseconds") ? "none" : "nanoseconds",
		(unsigned long long)total);
	fputs("\"samples\":[", f);
	for (i = from; i < to; i++) {
		st = &p->stack[order[i]];
		fputs(i > from ? ",\n[" : "\n[", f);
		for (k = 0; k < st->nr; k++)
			fprintf(f, k ? ",%u" : "%u", st->frame[k]);
		putc(']', f);
	}
	fputs("],\n\"weights\":[", f);
	for (i = from; i < to; i++)
		fprintf(f, i > from ? ",%llu" : "%llu",
			(unsigned long long)p->stack[order[i]].weight);
	fputs("]}", f);
}

/**
 * pc_write_speedscope() - write the profile as a speedscope file
 * @p:		the profile
 * @f:		where
 *
 * Return: 0, or -1 with errno when @f could not be written.
 */
int pc_write_speedscope(const struct pc_profile *p, FILE *f)
{
	uint32_t *order = pc_zalloc((p->nr_stack + 1) * sizeof(*order));
	char label[PC_FRAME_LABEL_MAX], name[512];
	uint32_t i, k, nr = 0;

	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n",
	      f);
	fputs("\"exporter\":\"perf-counter\",\"name\":", f);
	snprintf(name, sizeof(name), "perf-counter: %s",
		 p->command ? p->command : "a recording");
	pc_json_str(f, name);
	/* an index of no profile is wrong: none without samples */
	if (p->nr_stack)
		fputs(",\"activeProfileIndex\":0", f);
	fputs(",\n\"shared\":{\"frames\":[", f);
	for (i = 0; i < p->nr_frame; i++) {
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
		pc_json_str(f, pc_frame_label(&p->frame[i], label,
					   sizeof(label)));
		fputs(",\"file\":", f);
		pc_json_str(f, p->frame[i].dso);
		putc('}', f);
	}
	fputs("]},\n\"profiles\":[", f);
	for (i = 0; i < p->nr_stack; i++)
		order[i] = i;
	sort_p = p;
	qsort(order, p->nr_stack, sizeof(*order), by_event_thread);
	for (i = 0; i < p->nr_stack; i = k) {
		const struct pc_stack *a = &p->stack[order[i]];

		for (k = i; k < p->nr_stack; k++) {
			const struct pc_stack *b = &p->stack[order[k]];

			if (b->event != a->event || b->thread != a->thread)
				break;
		}
		if (nr++)
			fputs(",\n", f);
		write_profile(p, order, i, k, f);
	}
	fputs("]}\n", f);
	free(order);
	return fflush(f) || ferror(f) ? -1 : 0;
}
