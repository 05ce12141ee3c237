// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter diff: what changed between two recordings, and whether
 * the change is more than sampling noise.
 *
 * Each recording's first event is replayed into a profile (profile.c).
 * Per function (its own samples: where they were taken) or, with -g,
 * per stack (command and frames), each side's share of its samples is
 * compared by the two-proportion z test on the sample counts: with x
 * of n samples in the baseline and y of m in the new recording, and p
 * = (x + y) / (n + m),
 *
 *   z = (|y/m - x/n| - (1/n + 1/m) / 2) / sqrt(p (1 - p) (1/n + 1/m))
 *
 * with the sign of y/m - x/n (the continuity correction keeps a handful
 * of samples on one side and none on the other from passing for a
 * change: 0 against 9 of 800 is z 2.7, not 3.0). A thing expected to
 * have fewer than DIFF_MIN_EXPECTED samples on either side were its
 * share the same (n p or m p) gets z 0: the normal approximation the
 * test rests on does not hold for so few, and 8 samples of 1144
 * against 0 of 1692 came out at z -3.08 between two runs of one
 * workload.
 * Samples are the counts the test knows; their periods are not (a
 * frequency counter's vary), so shares are of samples. A change is
 * flagged only for |z| >= 3 (about 1 in 370 for one function whose
 * share did not move): raw deltas of small shares are mostly noise.
 * --format svg draws the new recording's stacks as a flame graph,
 * coloured by each frame's z (flamegraph.c).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "profile.h"
#include "reader.h"

#define DIFF_Z		3.0	/* a change, in standard errors */
/* the fewest samples a side is expected to have for the test to hold */
#define DIFF_MIN_EXPECTED	5.0
#define DIFF_LINES	20	/* rows beyond the changes, by default */

static void print_help(FILE *f)
{
	fprintf(f,
"usage: perf-counter diff [-g] [-n LINES] [--format svg [-o FILE]] [-f]\n"
"                         BASELINE NEW\n"
"  Two record files, their first events: per function (its own samples)\n"
"  the baseline's and the new share of samples, the change in points\n"
"  and its z score (two-proportion z test on the sample counts); a\n"
"  change is flagged up or down only for |z| >= 3.\n"
"  -g         per stack (command and functions, outermost first)\n"
"  -n LINES   the changes, and at most LINES rows more (default 20)\n"
"  --format svg\n"
"             a differential flame graph instead: the new recording's\n"
"             stacks, red where it grew, blue where it shrank (|z| >= 3)\n"
"  -o FILE    where --format writes (default stdout)\n"
"  -f         read files another user owns\n");
}

/* One side of the comparison: a file and its first event's profile. */
struct side {
	struct pc_rfile f;
	struct pc_replay p;
	struct pc_prof_builder *b;
	const struct pc_profile *prof;
	uint64_t samples;
};

static void side_sample(void *ctx, const struct pc_replay_sample *s)
{
	struct side *d = ctx;
	char anon[16];

	pc_prof_add(d->b, s, pc_tasks_name(d->p.tasks, s->pid, s->tid, anon,
					   sizeof(anon)), 0);
	d->samples++;
}

static void side_load(struct side *d, const char *path, int force)
{
	pc_rfile_open(&d->f, path, force, 1);
	d->b = pc_prof_new(&d->f);
	d->p.f = &d->f;
	d->p.event = 0;
	d->p.sample = side_sample;
	d->p.ctx = d;
	pc_replay_run(&d->p);
	pc_replay_done(&d->p);
	d->prof = pc_prof_get(d->b);
}

/* What is compared: a function or a stack, by its text, both counts. */
struct key {
	char *text;		/* "dso\tlabel", or "comm;f1;...;fn" */
	uint64_t n[2];		/* baseline's samples, new's */
	uint32_t stack[2];	/* -g: a stack of each side that has it */
	double z;
};

struct keys {
	struct key *k;
	size_t nr, cap;
	uint32_t *slot;		/* indices + 1 */
	size_t slots;
};

static uint64_t text_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static struct key *key_get(struct keys *t, const char *text)
{
	size_t i, k;

	if ((t->nr + 1) * 2 > t->slots) {
		uint32_t *old = t->slot;
		size_t n = t->slots;

		t->slots = n ? 2 * n : 256;
		t->slot = pc_zalloc(t->slots * sizeof(*t->slot));
		for (i = 0; i < n; i++) {
			if (!old[i])
				continue;
			k = text_hash(t->k[old[i] - 1].text) & (t->slots - 1);
			while (t->slot[k])
				k = (k + 1) & (t->slots - 1);
			t->slot[k] = old[i];
		}
		free(old);
	}
	for (k = text_hash(text) & (t->slots - 1); t->slot[k];
	     k = (k + 1) & (t->slots - 1))
		if (!strcmp(t->k[t->slot[k] - 1].text, text))
			return &t->k[t->slot[k] - 1];
	t->k = pc_grow(t->k, &t->cap, t->nr + 1, sizeof(*t->k));
	memset(&t->k[t->nr], 0, sizeof(*t->k));
	t->k[t->nr].text = pc_strdup(text);
	t->slot[k] = ++t->nr;
	return &t->k[t->nr - 1];
}

/* A growing string. */
struct text {
	char *s;
	size_t len, cap;
};

static void text_add(struct text *t, const char *s)
{
	size_t n = strlen(s);

	t->s = pc_grow(t->s, &t->cap, t->len + n + 1, 1);
	memcpy(t->s + t->len, s, n + 1);
	t->len += n;
}

static const char *frame_text(const struct pc_profile *p, uint32_t i,
			      char *buf, size_t len)
{
	return pc_frame_label(&p->frame[i], buf, len);
}

/* A stack's key: its command, then its frames outermost first. */
static void stack_text(const struct pc_profile *p, const struct pc_stack *s,
		       struct text *t)
{
	char buf[PC_FRAME_LABEL_MAX];
	uint32_t j;

	t->len = 0;
	text_add(t, p->thread[s->thread].comm ? p->thread[s->thread].comm :
		 "[unknown]");
	for (j = 0; j < s->nr; j++) {
		text_add(t, ";");
		text_add(t, frame_text(p, s->frame[j], buf, sizeof(buf)));
	}
}

/* A function's key: its file, then its name. */
static void func_text(const struct pc_profile *p, const struct pc_stack *s,
		      struct text *t)
{
	const struct pc_frame *fr = &p->frame[s->frame[s->nr - 1]];
	char buf[PC_FRAME_LABEL_MAX];

	t->len = 0;
	text_add(t, fr->dso ? fr->dso : "[unknown]");
	text_add(t, "\t");
	text_add(t, pc_frame_label(fr, buf, sizeof(buf)));
}

static void count_side(struct keys *t, const struct side *d, int which,
		       int stacks)
{
	const struct pc_profile *p = d->prof;
	struct text txt = { 0 };
	uint32_t i;

	for (i = 0; i < p->nr_stack; i++) {
		const struct pc_stack *s = &p->stack[i];
		struct key *k;

		if (!s->nr || s->event)
			continue;
		if (stacks)
			stack_text(p, s, &txt);
		else
			func_text(p, s, &txt);
		k = key_get(t, txt.s);
		k->n[which] += s->samples;
		k->stack[which] = i + 1;
	}
	free(txt.s);
}

/**
 * pc_diff_z() - the two-proportion z score of a change in share
 * @x:		samples of the thing in the baseline
 * @n:		the baseline's samples
 * @y:		in the new recording
 * @m:		its samples
 *
 * Return: z, continuity corrected, positive when the share grew; 0
 * when either side has no samples, the pooled share is 0 or 1, the
 * thing is expected to have fewer than DIFF_MIN_EXPECTED samples on a
 * side, or the change is within the correction.
 */
double pc_diff_z(uint64_t x, uint64_t n, uint64_t y, uint64_t m)
{
	double p, se, d, z;

	if (!n || !m)
		return 0;
	p = (double)(x + y) / (double)(n + m);
	if (p * n < DIFF_MIN_EXPECTED || p * m < DIFF_MIN_EXPECTED)
		return 0;
	se = sqrt(p * (1 - p) * (1.0 / n + 1.0 / m));
	if (se <= 0)
		return 0;
	d = (double)y / m - (double)x / n;
	z = (fabs(d) - (1.0 / n + 1.0 / m) / 2) / se;
	if (z <= 0)
		return 0;
	return d < 0 ? -z : z;
}

static int by_z(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int cx = fabs(x->z) >= DIFF_Z, cy = fabs(y->z) >= DIFF_Z;
	uint64_t sx = x->n[0] + x->n[1], sy = y->n[0] + y->n[1];

	if (cx != cy)
		return cx ? -1 : 1;
	if (cx && fabs(x->z) != fabs(y->z))
		return fabs(x->z) > fabs(y->z) ? -1 : 1;
	if (sx != sy)
		return sx > sy ? -1 : 1;
	return strcmp(x->text, y->text);
}

static void print_row(const struct key *k, const struct side *d, int stacks)
{
	double a = d[0].samples ? 100.0 * k->n[0] / d[0].samples : 0;
	double b = d[1].samples ? 100.0 * k->n[1] / d[1].samples : 0;
	const char *change = k->z >= DIFF_Z ? "up" :
			     k->z <= -DIFF_Z ? "down" : "-";
	const char *tab = strchr(k->text, '\t');
	const char *dso;
	char esc[84];

	printf("  %7.2f%%  %7.2f%%  %+8.2f  %+8.2f  %-6s  ", a, b, b - a,
	       k->z, change);
	if (stacks || !tab) {
		pc_print_escaped(k->text);
	} else {
		char file[PATH_MAX];
		size_t n = tab - k->text < (long)sizeof(file) - 1 ?
			   (size_t)(tab - k->text) : sizeof(file) - 1;

		memcpy(file, k->text, n);
		file[n] = '\0';
		dso = strrchr(file, '/');
		printf("%-20.20s  ", pc_escaped(dso ? dso + 1 : file, esc,
						 sizeof(esc)));
		pc_print_escaped(tab + 1);
	}
	putchar('\n');
}

static void print_table(struct keys *t, const struct side *d, int stacks,
			int max_lines)
{
	size_t i, up = 0, down = 0, rest = 0;

	for (i = 0; i < t->nr; i++) {
		t->k[i].z = pc_diff_z(t->k[i].n[0], d[0].samples,
				      t->k[i].n[1], d[1].samples);
		up += t->k[i].z >= DIFF_Z;
		down += t->k[i].z <= -DIFF_Z;
	}
	qsort(t->k, t->nr, sizeof(*t->k), by_z);
	printf("# perf-counter diff: baseline ");
	pc_print_escaped(d[0].f.in);
	printf(" (%llu samples of ", (unsigned long long)d[0].samples);
	pc_print_escaped(d[0].f.ev[0].name);
	printf("), new ");
	pc_print_escaped(d[1].f.in);
	printf(" (%llu samples of ", (unsigned long long)d[1].samples);
	pc_print_escaped(d[1].f.ev[0].name);
	printf(")\n# per %s; a change when |z| >= %.0f (two-proportion z test on the sample counts)\n",
	       stacks ? "stack" : "function (its own samples)", DIFF_Z);
	/* two-sided P(|Z| >= 3) = 0.0027: what noise alone would flag */
	printf("# %zu compared: sampling noise alone would flag about %.1f of them\n",
	       t->nr, t->nr * 0.0027);
	printf("# %zu change%s: %zu up, %zu down\n#\n", up + down,
	       up + down == 1 ? "" : "s", up, down);
	printf("#  Baseline       New     Delta         z  Change  %s\n",
	       stacks ? "Stack" : "Shared Object         Symbol");
	for (i = 0; i < t->nr; i++) {
		if (fabs(t->k[i].z) < DIFF_Z && rest++ >= (size_t)max_lines)
			break;
		print_row(&t->k[i], d, stacks);
	}
}

/*
 * --format svg: the stacks of both as one profile: frames and commands
 * by their text, each stack with the new samples and the baseline's.
 */
struct merged {
	struct pc_profile p;
	struct keys frames, threads;
	size_t frame_cap, thread_cap, stack_cap;
	uint32_t *pool;
	size_t pool_len, pool_cap;
};

static uint32_t merged_frame(struct merged *m, const struct pc_profile *p,
			     uint32_t i)
{
	const struct pc_frame *fr = &p->frame[i];
	char buf[PC_FRAME_LABEL_MAX];
	struct text t = { 0 };
	struct key *k;

	text_add(&t, fr->kernel ? "k\t" : "u\t");
	text_add(&t, fr->dso ? fr->dso : "");
	text_add(&t, "\t");
	text_add(&t, pc_frame_label(fr, buf, sizeof(buf)));
	k = key_get(&m->frames, t.s);
	free(t.s);
	if (!k->n[0]) {
		m->p.frame = pc_grow(m->p.frame, &m->frame_cap,
				     m->p.nr_frame + 1, sizeof(*m->p.frame));
		m->p.frame[m->p.nr_frame] = *fr;
		k->n[0] = ++m->p.nr_frame;
	}
	return k->n[0] - 1;
}

static uint32_t merged_thread(struct merged *m, const char *comm)
{
	struct key *k = key_get(&m->threads, comm ? comm : "[unknown]");

	if (!k->n[0]) {
		m->p.thread = pc_grow(m->p.thread, &m->thread_cap,
				      m->p.nr_thread + 1,
				      sizeof(*m->p.thread));
		memset(&m->p.thread[m->p.nr_thread], 0,
		       sizeof(*m->p.thread));
		m->p.thread[m->p.nr_thread].comm = k->text;
		k->n[0] = ++m->p.nr_thread;
	}
	return k->n[0] - 1;
}

static void merged_stack(struct merged *m, const struct key *k,
			 const struct side *d)
{
	int which = k->stack[1] ? 1 : 0;
	const struct pc_profile *p = d[which].prof;
	const struct pc_stack *s = &p->stack[k->stack[which] - 1];
	struct pc_stack *ns;
	uint32_t j;

	m->p.stack = pc_grow(m->p.stack, &m->stack_cap, m->p.nr_stack + 1,
			     sizeof(*m->p.stack));
	ns = &m->p.stack[m->p.nr_stack++];
	memset(ns, 0, sizeof(*ns));
	m->pool = pc_grow(m->pool, &m->pool_cap, m->pool_len + s->nr,
			  sizeof(*m->pool));
	for (j = 0; j < s->nr; j++)
		m->pool[m->pool_len + j] = merged_frame(m, p, s->frame[j]);
	/* the pool moves as it grows: frames are set once all are in */
	ns->frame = (uint32_t *)(uintptr_t)m->pool_len;
	m->pool_len += s->nr;
	ns->nr = s->nr;
	ns->thread = merged_thread(m, p->thread[s->thread].comm);
	ns->samples = ns->weight = k->n[1];
	ns->base = k->n[0];
}

static void write_svg(struct keys *t, const struct side *d, const char *out)
{
	struct merged m = { 0 };
	struct pc_prof_event ev = { .name = d[1].f.ev[0].name,
				    .unit = "samples" };
	FILE *f = stdout;
	size_t i;
	int err;

	for (i = 0; i < t->nr; i++)
		merged_stack(&m, &t->k[i], d);
	for (i = 0; i < m.p.nr_stack; i++)
		m.p.stack[i].frame = m.pool + (uintptr_t)m.p.stack[i].frame;
	m.p.command = d[1].f.cmd;
	m.p.event = &ev;
	m.p.nr_event = 1;
	m.p.diff = 1;
	m.p.base_total = d[0].samples;
	m.p.new_total = d[1].samples;
	if (out && strcmp(out, "-")) {
		f = fopen(out, "we");
		if (!f)
			pc_die("%s: %s", out, strerror(errno));
	} else {
		out = "stdout";
	}
	err = pc_write_svg(&m.p, 0, 0, f);
	if (f != stdout && fclose(f))
		err = -1;
	if (err)
		pc_die("%s: cannot write it all: %s", out, strerror(errno));
	for (i = 0; i < m.frames.nr; i++)
		free(m.frames.k[i].text);
	for (i = 0; i < m.threads.nr; i++)
		free(m.threads.k[i].text);
	free(m.frames.k);
	free(m.frames.slot);
	free(m.threads.k);
	free(m.threads.slot);
	free(m.p.frame);
	free(m.p.thread);
	free(m.p.stack);
	free(m.pool);
}

int cmd_diff(int argc, char **argv)
{
	struct pc_sample_opts o = { .count = DIFF_LINES };
	struct side d[2];
	struct keys t = { 0 };
	size_t i;
	int opt, svg = 0;

	opt = pc_sample_opts_parse(argc, argv, "gnRof", &o, print_help);
	if (opt < 0)
		return opt == -1 ? 0 : 1;
	if (argc - opt != 2) {
		print_help(stderr);
		return 1;
	}
	if (o.format) {
		if (strcmp(o.format, "svg"))
			pc_die("--format %s: diff writes svg", o.format);
		svg = 1;
	} else if (o.output) {
		pc_die("-o goes with --format");
	}
	memset(d, 0, sizeof(d));
	side_load(&d[0], argv[opt], o.force);
	side_load(&d[1], argv[opt + 1], o.force);
	if (strcmp(d[0].f.ev[0].name, d[1].f.ev[0].name)) {
		char a[256], b[256];

		pc_warn("the first events differ: %s and %s: their shares are compared all the same",
			pc_escaped(d[0].f.ev[0].name, a, sizeof(a)),
			pc_escaped(d[1].f.ev[0].name, b, sizeof(b)));
	}
	/* the flame graph's frames are stacks; the table's, as asked */
	count_side(&t, &d[0], 0, o.callchain || svg);
	count_side(&t, &d[1], 1, o.callchain || svg);
	if (svg)
		write_svg(&t, d, o.output);
	else
		print_table(&t, d, o.callchain, o.count);
	for (i = 0; i < t.nr; i++)
		free(t.k[i].text);
	free(t.k);
	free(t.slot);
	for (i = 0; i < 2; i++) {
		pc_prof_free(d[i].b);
		pc_rfile_close(&d[i].f);
	}
	return 0;
}
