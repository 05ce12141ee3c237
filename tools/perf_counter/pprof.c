// SPDX-License-Identifier: GPL-2.0
/*
 * pc_write_pprof(): a profile as a gzipped perftools.profiles.Profile,
 * the protocol buffer that pprof reads (its proto/profile.proto). The
 * message is encoded here by hand: varints, length-delimited strings
 * and messages, packed repeated integers.
 *
 * The sample types are ("samples", "count"), then each event's (its
 * name, its unit); a Sample is one pc_stack: its samples, then its
 * weight in its event's place and zero in the others', its locations
 * leaf first and the labels "thread" (the command), "pid" and "tid".
 * Each frame is one Location and one Function, whose id is the frame's
 * index + 1; each file is one Mapping, with its build-id. Strings are
 * UTF-8, as protobuf wants: a byte of a name that is not becomes '?'.
 * The samples' times are CLOCK_MONOTONIC: only their span is written
 * (duration_nanos), not time_nanos, which is of the epoch.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "profile.h"

/* wire types */
#define WT_VARINT	0
#define WT_BYTES	2

/* perftools.profiles.Profile */
#define PROFILE_SAMPLE_TYPE	1
#define PROFILE_SAMPLE		2
#define PROFILE_MAPPING		3
#define PROFILE_LOCATION	4
#define PROFILE_FUNCTION	5
#define PROFILE_STRING_TABLE	6
#define PROFILE_DURATION_NANOS	10
#define PROFILE_COMMENT		13
#define PROFILE_DEFAULT_SAMPLE_TYPE	14
/* ValueType */
#define VALUE_TYPE_TYPE		1
#define VALUE_TYPE_UNIT		2
/* Sample */
#define SAMPLE_LOCATION_ID	1
#define SAMPLE_VALUE		2
#define SAMPLE_LABEL		3
/* Label */
#define LABEL_KEY		1
#define LABEL_STR		2
#define LABEL_NUM		3
/* Mapping */
#define MAPPING_ID		1
#define MAPPING_FILENAME	5
#define MAPPING_BUILD_ID	6
#define MAPPING_HAS_FUNCTIONS	7
/* Location */
#define LOCATION_ID		1
#define LOCATION_MAPPING_ID	2
#define LOCATION_ADDRESS	3
#define LOCATION_LINE		4
/* Line */
#define LINE_FUNCTION_ID	1
/* Function */
#define FUNCTION_ID		1
#define FUNCTION_NAME		2
#define FUNCTION_SYSTEM_NAME	3

/* An encoded message, growing; @err is set once it could not grow. */
struct pbuf {
	unsigned char *d;
	size_t len, cap;
	int err;
};

/* A string of the string table. */
struct pstr {
	const char *s;
	size_t len;
	char *owned;		/* @s when it is freed with the table */
	uint32_t mapping;	/* as a dso: its Mapping's id, or 0 */
};

struct strtab {
	struct pstr *str;
	uint32_t nr, alloc;
	uint32_t *slot;		/* a hash table of index + 1, or 0 */
	uint32_t nr_slot;	/* a power of 2 */
};

struct pmapping {
	uint32_t filename, build_id;	/* string indices */
};

/* The arrays of one pc_write_pprof(), n elements of size each. */
static void *alloc_array(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return calloc(n ? n : 1, size);
}

static void *realloc_array(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

static int pb_reserve(struct pbuf *b, size_t more)
{
	size_t cap;
	unsigned char *d;

	if (b->err)
		return -1;
	if (more <= b->cap - b->len)
		return 0;
	if (more > SIZE_MAX - b->len)
		goto nomem;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + more) {
		if (cap > SIZE_MAX / 2) {
			cap = b->len + more;
			break;
		}
		cap *= 2;
	}
	d = realloc(b->d, cap);
	if (!d)
		goto nomem;
	b->d = d;
	b->cap = cap;
	return 0;
nomem:
	b->err = ENOMEM;
	return -1;
}

static void pb_bytes(struct pbuf *b, const void *p, size_t n)
{
	if (!n || pb_reserve(b, n))
		return;
	memcpy(b->d + b->len, p, n);
	b->len += n;
}

static void pb_varint(struct pbuf *b, uint64_t v)
{
	unsigned char tmp[10];
	size_t n = 0;

	while (v >= 0x80) {
		tmp[n++] = (v & 0x7f) | 0x80;
		v >>= 7;
	}
	tmp[n++] = v;
	pb_bytes(b, tmp, n);
}

static void pb_key(struct pbuf *b, unsigned int field, unsigned int wire)
{
	pb_varint(b, (uint64_t)field << 3 | wire);
}

/* An integer field; proto3 leaves out the ones that are 0. */
static void pb_int(struct pbuf *b, unsigned int field, uint64_t v)
{
	if (!v)
		return;
	pb_key(b, field, WT_VARINT);
	pb_varint(b, v);
}

static void pb_len_delim(struct pbuf *b, unsigned int field, const void *p,
			 size_t n)
{
	pb_key(b, field, WT_BYTES);
	pb_varint(b, n);
	pb_bytes(b, p, n);
}

/* @sub, encoded, as the field @field of @b; @sub is emptied for reuse. */
static void pb_message(struct pbuf *b, unsigned int field, struct pbuf *sub)
{
	if (sub->err) {
		b->err = sub->err;
		return;
	}
	pb_len_delim(b, field, sub->d, sub->len);
	sub->len = 0;
}

/* int64 fields: a count above INT64_MAX stays at INT64_MAX. */
static uint64_t to_int64(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : v;
}

static uint32_t str_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261U;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619U;
	return h;
}

static int strtab_rehash(struct strtab *t)
{
	uint32_t nr_slot, *slot, i, k;
	const struct pstr *e;

	if (t->nr_slot > UINT32_MAX / 2) {
		errno = ENOMEM;
		return -1;
	}
	nr_slot = t->nr_slot ? t->nr_slot * 2 : 256;
	slot = alloc_array(nr_slot, sizeof(*slot));
	if (!slot)
		return -1;
	for (i = 0; i < t->nr; i++) {
		e = &t->str[i];
		k = str_hash(e->s, e->len) & (nr_slot - 1);
		while (slot[k])
			k = (k + 1) & (nr_slot - 1);
		slot[k] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nr_slot = nr_slot;
	return 0;
}

/*
 * The index of @s in the string table, added when it is new; -1 with
 * errno when it could not be. @owned, if not NULL, is @s, and is freed
 * with the table or now.
 */
static int64_t strtab_add(struct strtab *t, const char *s, char *owned)
{
	size_t len = strlen(s), i;
	uint32_t k, alloc;
	struct pstr *str;
	char *valid;

	/* protobuf strings are UTF-8: any other byte becomes '?' */
	for (i = 0; i < len && pc_utf8_len(s + i); i += pc_utf8_len(s + i))
		;
	if (i < len) {
		valid = malloc(len + 1);
		if (!valid) {
			errno = ENOMEM;
			goto fail;
		}
		for (i = 0; i < len; ) {
			int n = pc_utf8_len(s + i);

			if (n) {
				memcpy(valid + i, s + i, n);
				i += n;
			} else {
				valid[i++] = '?';
			}
		}
		valid[len] = '\0';
		free(owned);
		s = owned = valid;
	}

	if (t->nr >= t->nr_slot / 2 && strtab_rehash(t))
		goto fail;
	k = str_hash(s, len) & (t->nr_slot - 1);
	for (; t->slot[k]; k = (k + 1) & (t->nr_slot - 1)) {
		const struct pstr *e = &t->str[t->slot[k] - 1];

		if (e->len == len && !memcmp(e->s, s, len)) {
			free(owned);
			return t->slot[k] - 1;
		}
	}
	if (t->nr == t->alloc) {
		if (t->alloc > UINT32_MAX / 4) {
			errno = ENOMEM;
			goto fail;
		}
		alloc = t->alloc ? t->alloc * 2 : 256;
		str = realloc_array(t->str, alloc, sizeof(*str));
		if (!str) {
			errno = ENOMEM;
			goto fail;
		}
		t->str = str;
		t->alloc = alloc;
	}
	t->str[t->nr] = (struct pstr){ .s = s, .len = len, .owned = owned };
	t->slot[k] = t->nr + 1;
	return t->nr++;
fail:
	free(owned);
	return -1;
}

static void strtab_free(struct strtab *t)
{
	uint32_t i;

	for (i = 0; i < t->nr; i++)
		free(t->str[i].owned);
	free(t->str);
	free(t->slot);
}

/* A frame with no name: "[file] 0xADDR" (pc_frame_label()'s and where). */
static char *frame_label(const struct pc_frame *fr)
{
	char buf[PC_FRAME_LABEL_MAX + 24];
	char *s;

	pc_frame_label(fr, buf, PC_FRAME_LABEL_MAX);
	snprintf(buf + strlen(buf), 24, " 0x%" PRIx64, fr->addr);
	s = strdup(buf);
	if (!s)
		errno = ENOMEM;
	return s;
}

/* What the messages refer to, by string index or id. */
struct pprof {
	const struct pc_profile *p;
	struct strtab strs;
	struct pbuf out, msg, sub;
	int64_t samples, count, thread, pid, tid, comment;
	int64_t *event_name, *event_unit;
	int64_t *frame_name;
	uint32_t *frame_mapping;
	struct pmapping *mapping;
	uint32_t nr_mapping;
};

static int check_profile(const struct pc_profile *p)
{
	uint32_t i, k;
	const struct pc_stack *s;

	for (i = 0; i < p->nr_stack; i++) {
		s = &p->stack[i];
		if (!s->nr || s->event >= p->nr_event ||
		    s->thread >= p->nr_thread)
			goto inval;
		for (k = 0; k < s->nr; k++)
			if (s->frame[k] >= p->nr_frame)
				goto inval;
	}
	return 0;
inval:
	errno = EINVAL;
	return -1;
}

/* The strings every profile has, and those of its events. */
static int add_names(struct pprof *pp)
{
	const struct pc_profile *p = pp->p;
	struct strtab *t = &pp->strs;
	const char *unit;
	char *comment;
	size_t n;
	uint32_t i;

	if (strtab_add(t, "", NULL) < 0)	/* string_table[0] */
		return -1;
	pp->samples = strtab_add(t, "samples", NULL);
	pp->count = strtab_add(t, "count", NULL);
	pp->thread = strtab_add(t, "thread", NULL);
	pp->pid = strtab_add(t, "pid", NULL);
	pp->tid = strtab_add(t, "tid", NULL);
	if (pp->samples < 0 || pp->count < 0 || pp->thread < 0 ||
	    pp->pid < 0 || pp->tid < 0)
		return -1;

	for (i = 0; i < p->nr_event; i++) {
		unit = p->event[i].unit ? p->event[i].unit : "events";
		pp->event_name[i] = strtab_add(t, p->event[i].name ?
					       p->event[i].name : "event",
					       NULL);
		pp->event_unit[i] = strtab_add(t, unit, NULL);
		if (pp->event_name[i] < 0 || pp->event_unit[i] < 0)
			return -1;
	}

	pp->comment = 0;
	if (p->command) {
		n = strlen(p->command);
		if (n > SIZE_MAX - 32) {
			errno = ENOMEM;
			return -1;
		}
		comment = malloc(n + 32);
		if (!comment) {
			errno = ENOMEM;
			return -1;
		}
		snprintf(comment, n + 32, "perf-counter record %s",
			 p->command);
		pp->comment = strtab_add(t, comment, comment);
		if (pp->comment < 0)
			return -1;
	}
	return 0;
}

/* The name, file and Mapping of each frame. */
static int add_frames(struct pprof *pp)
{
	const struct pc_profile *p = pp->p;
	const struct pc_frame *fr;
	struct pmapping *m;
	struct pstr *dso;
	int64_t file, bid;
	char *label;
	uint32_t i;

	for (i = 0; i < p->nr_frame; i++) {
		fr = &p->frame[i];
		file = strtab_add(&pp->strs, fr->dso ? fr->dso : "[unknown]",
				  NULL);
		if (file < 0)
			return -1;

		dso = &pp->strs.str[file];
		if (!dso->mapping) {
			m = &pp->mapping[pp->nr_mapping++];
			m->filename = file;
			m->build_id = 0;
			dso->mapping = pp->nr_mapping;
		}
		pp->frame_mapping[i] = dso->mapping;
		m = &pp->mapping[dso->mapping - 1];
		if (!m->build_id && fr->build_id && fr->build_id[0]) {
			bid = strtab_add(&pp->strs, fr->build_id, NULL);
			if (bid < 0)
				return -1;
			m->build_id = bid;
		}

		if (fr->name && fr->name[0]) {
			pp->frame_name[i] = strtab_add(&pp->strs, fr->name,
						       NULL);
		} else {
			label = frame_label(fr);
			if (!label)
				return -1;
			pp->frame_name[i] = strtab_add(&pp->strs, label,
						       label);
		}
		if (pp->frame_name[i] < 0)
			return -1;
	}
	return 0;
}

/* samples/count, then each event in its unit */
static void put_sample_types(struct pprof *pp)
{
	uint32_t i;

	pb_int(&pp->msg, VALUE_TYPE_TYPE, pp->samples);
	pb_int(&pp->msg, VALUE_TYPE_UNIT, pp->count);
	pb_message(&pp->out, PROFILE_SAMPLE_TYPE, &pp->msg);
	for (i = 0; i < pp->p->nr_event; i++) {
		pb_int(&pp->msg, VALUE_TYPE_TYPE, pp->event_name[i]);
		pb_int(&pp->msg, VALUE_TYPE_UNIT, pp->event_unit[i]);
		pb_message(&pp->out, PROFILE_SAMPLE_TYPE, &pp->msg);
	}
}

static void put_label(struct pprof *pp, int64_t key, int64_t str,
		      uint64_t num)
{
	pb_int(&pp->sub, LABEL_KEY, key);
	pb_int(&pp->sub, LABEL_STR, str);
	pb_int(&pp->sub, LABEL_NUM, num);
	pb_message(&pp->msg, SAMPLE_LABEL, &pp->sub);
}

static int put_samples(struct pprof *pp)
{
	const struct pc_profile *p = pp->p;
	const struct pc_stack *s;
	const struct pc_thread *th;
	uint64_t v, k, nr_value = (uint64_t)p->nr_event + 1;
	int64_t comm;
	uint32_t i, j;

	for (i = 0; i < p->nr_stack; i++) {
		s = &p->stack[i];
		th = &p->thread[s->thread];

		/* leaf first: the stack's frames are outermost first */
		for (j = s->nr; j-- > 0; )
			pb_varint(&pp->sub, s->frame[j] + 1ULL);
		pb_message(&pp->msg, SAMPLE_LOCATION_ID, &pp->sub);

		/* its samples, then its weight in its event's place */
		for (k = 0; k < nr_value; k++) {
			v = 0;
			if (k == 0)
				v = to_int64(s->samples);
			else if (k == s->event + 1ULL)
				v = to_int64(s->weight);
			pb_varint(&pp->sub, v);
		}
		pb_message(&pp->msg, SAMPLE_VALUE, &pp->sub);

		/* a label with str 0 would read as a number: no "" */
		if (th->comm && th->comm[0]) {
			comm = strtab_add(&pp->strs, th->comm, NULL);
			if (comm < 0)
				return -1;
			put_label(pp, pp->thread, comm, 0);
		}
		put_label(pp, pp->pid, 0, th->pid);
		put_label(pp, pp->tid, 0, th->tid);
		pb_message(&pp->out, PROFILE_SAMPLE, &pp->msg);
	}
	return 0;
}

static void put_mappings(struct pprof *pp)
{
	const struct pmapping *m;
	uint32_t i;

	for (i = 0; i < pp->nr_mapping; i++) {
		m = &pp->mapping[i];
		pb_int(&pp->msg, MAPPING_ID, i + 1);
		pb_int(&pp->msg, MAPPING_FILENAME, m->filename);
		pb_int(&pp->msg, MAPPING_BUILD_ID, m->build_id);
		pb_int(&pp->msg, MAPPING_HAS_FUNCTIONS, 1);
		pb_message(&pp->out, PROFILE_MAPPING, &pp->msg);
	}
}

static void put_locations(struct pprof *pp)
{
	uint32_t i;

	for (i = 0; i < pp->p->nr_frame; i++) {
		pb_int(&pp->msg, LOCATION_ID, i + 1ULL);
		pb_int(&pp->msg, LOCATION_MAPPING_ID, pp->frame_mapping[i]);
		pb_int(&pp->msg, LOCATION_ADDRESS, pp->p->frame[i].addr);
		pb_int(&pp->sub, LINE_FUNCTION_ID, i + 1ULL);
		pb_message(&pp->msg, LOCATION_LINE, &pp->sub);
		pb_message(&pp->out, PROFILE_LOCATION, &pp->msg);
	}
}

static void put_functions(struct pprof *pp)
{
	uint32_t i;

	for (i = 0; i < pp->p->nr_frame; i++) {
		pb_int(&pp->msg, FUNCTION_ID, i + 1ULL);
		pb_int(&pp->msg, FUNCTION_NAME, pp->frame_name[i]);
		pb_int(&pp->msg, FUNCTION_SYSTEM_NAME, pp->frame_name[i]);
		/* no filename: a source file's, not known (see Mapping) */
		pb_message(&pp->out, PROFILE_FUNCTION, &pp->msg);
	}
}

static void put_profile(struct pprof *pp)
{
	const struct pc_profile *p = pp->p;
	const struct pstr *e;
	uint32_t i;

	for (i = 0; i < pp->strs.nr; i++) {
		e = &pp->strs.str[i];
		pb_len_delim(&pp->out, PROFILE_STRING_TABLE, e->s, e->len);
	}
	/*
	 * No time_nanos: it is of the epoch, and the samples' times are of
	 * CLOCK_MONOTONIC. Their span is the profile's duration.
	 */
	if (p->end_ns > p->start_ns)
		pb_int(&pp->out, PROFILE_DURATION_NANOS,
		       to_int64(p->end_ns - p->start_ns));
	pb_int(&pp->out, PROFILE_COMMENT, pp->comment);
	/* the weight of the first event, rather than the last value */
	if (p->nr_event)
		pb_int(&pp->out, PROFILE_DEFAULT_SAMPLE_TYPE,
		       pp->event_name[0]);
}

int pc_write_pprof(const struct pc_profile *p, FILE *f)
{
	struct pprof pp = { .p = p };
	int ret = -1;

	if (check_profile(p))
		return -1;
	pp.event_name = alloc_array(p->nr_event, sizeof(*pp.event_name));
	pp.event_unit = alloc_array(p->nr_event, sizeof(*pp.event_unit));
	pp.frame_name = alloc_array(p->nr_frame, sizeof(*pp.frame_name));
	pp.frame_mapping = alloc_array(p->nr_frame,
				       sizeof(*pp.frame_mapping));
	pp.mapping = alloc_array(p->nr_frame, sizeof(*pp.mapping));
	if (!pp.event_name || !pp.event_unit || !pp.frame_name ||
	    !pp.frame_mapping || !pp.mapping) {
		errno = ENOMEM;
		goto out;
	}

	if (add_names(&pp) || add_frames(&pp))
		goto out;
	put_sample_types(&pp);
	if (put_samples(&pp))
		goto out;
	put_mappings(&pp);
	put_locations(&pp);
	put_functions(&pp);
	put_profile(&pp);
	if (pp.out.err || pp.msg.err || pp.sub.err) {
		errno = ENOMEM;
		goto out;
	}
	ret = pc_gzip(pp.out.d, pp.out.len, f);
out:
	strtab_free(&pp.strs);
	free(pp.out.d);
	free(pp.msg.d);
	free(pp.sub.d);
	free(pp.event_name);
	free(pp.event_unit);
	free(pp.frame_name);
	free(pp.frame_mapping);
	free(pp.mapping);
	return ret;
}
