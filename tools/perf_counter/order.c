// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter record: the records of many queues (one per event and
 * task or CPU, or per event for all of -p's threads, whose counters
 * share a ring) into one stream in time order, wherever they were read
 * from. Each queue is in order (the kernel takes a record's time under
 * the queue's lock, whichever counter writes it); between queues it is
 * the reading that lags: records are held here and written once no
 * record still to be read can be older. A record is
 * committed microseconds after its time is taken, so after every queue
 * was read to its end, whatever is older than the start of that reading
 * by PC_ORDER_SLACK_NS has been read. A record later than that (a
 * virtual CPU the host stalled between the two) is written anyway,
 * counted, and put in its place by report, which sorts again.
 */
#include <stdlib.h>
#include <string.h>

#include "pc.h"

struct pc_order_item {
	uint64_t time, seq;	/* seq: the order of arrival, for ties */
	uint32_t type;
	uint32_t len;
	char *body;
};

struct pc_order {
	struct pc_order_item *item;
	size_t nr, cap;
	uint64_t seq;
	uint64_t written;	/* the last time written, to tell late ones */
	uint64_t late;		/* records older than one already written */
};

struct pc_order *pc_order_new(void)
{
	return pc_zalloc(sizeof(struct pc_order));
}

/* Hold a copy of an item of @type, @len bytes of @body, at @time. */
void pc_order_add(struct pc_order *o, uint64_t time, uint32_t type,
		  const void *body, size_t len)
{
	struct pc_order_item *it;

	o->item = pc_grow(o->item, &o->cap, o->nr + 1, sizeof(*o->item));
	it = &o->item[o->nr++];
	it->time = time;
	it->seq = o->seq++;
	it->type = type;
	it->len = len;
	it->body = pc_zalloc(len ? len : 1);
	memcpy(it->body, body, len);
}

static int cmp_item(const void *a, const void *b)
{
	const struct pc_order_item *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/**
 * pc_order_flush() - write the held items older than @upto, in order
 * @o:		the held items
 * @upto:	the time before which every record has been read (all of
 *		them: UINT64_MAX)
 * @write:	writes one item
 * @ctx:	for @write
 */
void pc_order_flush(struct pc_order *o, uint64_t upto,
		    void (*write)(void *ctx, uint32_t type, const void *body,
				  size_t len),
		    void *ctx)
{
	size_t i, n = 0;

	if (!o->nr)
		return;
	qsort(o->item, o->nr, sizeof(*o->item), cmp_item);
	while (n < o->nr && o->item[n].time < upto)
		n++;
	for (i = 0; i < n; i++) {
		struct pc_order_item *it = &o->item[i];

		if (it->time < o->written)
			o->late++;
		else
			o->written = it->time;
		write(ctx, it->type, it->body, it->len);
		free(it->body);
	}
	memmove(o->item, o->item + n, (o->nr - n) * sizeof(*o->item));
	o->nr -= n;
}

/* How many items were written after a later one (none, if all went well). */
uint64_t pc_order_late(const struct pc_order *o)
{
	return o->late;
}

void pc_order_free(struct pc_order *o)
{
	size_t i;

	for (i = 0; i < o->nr; i++)
		free(o->item[i].body);
	free(o->item);
	free(o);
}
