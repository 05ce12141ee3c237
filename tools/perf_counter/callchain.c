// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter report: call chains. Each sample's chain is resolved to
 * functions and counted per function twice, as perf counts it: "Self",
 * the samples taken in the function, and "Children", the samples whose
 * chain passes through it (once a sample, however often it recurs).
 * Each sample weighs the events it stands for (its period): the shares
 * are of the weights, the Samples column counts samples.
 * Under each function a tree of the chains, printed as perf report
 * --stdio prints its default graph: with --children (the default) the
 * callers above their callees ("caller" order: a function's own
 * samples show the whole chain from the outermost caller down, the
 * others the part from the function down to where the sample was
 * taken); with --no-children the callees above their callers
 * ("callee" order: from the function out to its callers). A branch's
 * percentage is of every sample ("graph"), or of its parent
 * ("fractal"); a branch under the threshold (0.5%) is not shown.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"

#define CC_MARGIN	"            "	/* where a tree starts: 12 columns */
#define CC_LEVEL	10		/* the columns a level adds, and 1 */

/* What a function or a tree node is told apart by. */
struct cc_key {
	const char *dso, *sym;
	uint64_t ip;		/* an address with no name; else 0 */
};

/* A line of the report: a function, or a DSO's addresses with no name. */
struct cc_func {
	struct cc_key key;
	int kernel;
	uint64_t first_ip;	/* the first address seen, for no name */
	uint64_t self, children;	/* weights */
	uint64_t self_n, children_n;	/* samples */
	uint64_t stamp, tstamp;	/* the last sample counted, and treed */
	unsigned int depth;	/* least frames from the outermost one */
	uint32_t root;		/* its tree's root node, 0 before any */
	int fp_check;		/* a frame it loses would lose a caller */
	int fp;			/* pc_frame_pointer() when first seen */
};

/* A name a tree node shows: a function, or one address with none. */
struct cc_label {
	struct cc_key key;
	uint32_t func;		/* its function's index + 1 */
};

/* A node of a tree: a label; its first child and its next sibling. */
struct cc_node {
	uint32_t label, child, next;
	uint64_t hits;		/* chains through it, weighed */
	uint64_t ends;		/* chains that end at it, weighed */
};

/* Open addressing of indices into an array whose entries start with a key. */
struct cc_hash {
	uint32_t *slot;		/* index + 1; 0 is empty */
	size_t cap, used;	/* cap is a power of two */
};

/* A few addresses recently resolved: the same ones recur in chains. */
#define CC_CACHE	4096
struct cc_cached {
	uint64_t addr;
	uint32_t pid, label;
	int ret;
	uint32_t gen;		/* valid while pc_chains' gen is this */
};

struct pc_chains {
	struct pc_chain_view v;
	struct cc_func *func;
	uint32_t nr_func;
	size_t func_cap;
	struct cc_hash func_hash;
	struct cc_label *label;
	uint32_t nr_label;
	size_t label_cap;
	struct cc_hash label_hash;
	struct cc_node *node;	/* node 0 is no node */
	uint32_t nr_node;
	size_t node_cap;
	uint32_t *fr;		/* this sample's frames, innermost first */
	size_t fr_cap;
	unsigned int max_frames;
	struct cc_cached *cache;
	uint32_t gen;		/* pc_chains_forget() moves it on */
	uint64_t total;		/* the samples' weight */
	uint64_t nr;		/* samples */
	uint64_t w;		/* the weight of the sample being counted */
	uint64_t chains;	/* samples with a chain */
	uint64_t end[4];	/* chains by flags & END_MASK */
};

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ULL;	/* FNV-1a */
	return h;
}

static uint64_t key_hash(const struct cc_key *k)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	h = hash_bytes(h, k->dso, strlen(k->dso) + 1);
	if (k->sym)
		return hash_bytes(h, k->sym, strlen(k->sym) + 1);
	return hash_bytes(h, &k->ip, sizeof(k->ip));
}

static int key_eq(const struct cc_key *a, const struct cc_key *b)
{
	if (strcmp(a->dso, b->dso))
		return 0;
	if (!a->sym || !b->sym)
		return !a->sym && !b->sym && a->ip == b->ip;
	return !strcmp(a->sym, b->sym);
}

static const struct cc_key *key_at(const void *base, size_t stride,
				   uint32_t i)
{
	return (const void *)((const char *)base + i * stride);
}

static uint32_t *hash_slot(struct cc_hash *h, const void *base,
			   size_t stride, const struct cc_key *k)
{
	size_t i = key_hash(k) & (h->cap - 1);

	while (h->slot[i] &&
	       !key_eq(key_at(base, stride, h->slot[i] - 1), k))
		i = (i + 1) & (h->cap - 1);
	return &h->slot[i];
}

/* Room for one more: at most half full. */
static void hash_grow(struct cc_hash *h, const void *base, size_t stride,
		      uint32_t n)
{
	uint32_t i;

	if ((h->used + 1) * 2 <= h->cap)
		return;
	free(h->slot);
	h->cap = h->cap ? h->cap * 2 : 256;
	h->slot = pc_zalloc(h->cap * sizeof(*h->slot));
	for (i = 0; i < n; i++)
		*hash_slot(h, base, stride, key_at(base, stride, i)) = i + 1;
}

/* The index of @k in the array *@base of *@n entries, added if new. */
static uint32_t intern(struct cc_hash *h, void **base, size_t *cap,
		       uint32_t *n, size_t stride, const struct cc_key *k)
{
	uint32_t *slot;
	char *e;

	hash_grow(h, *base, stride, *n);
	slot = hash_slot(h, *base, stride, k);
	if (*slot)
		return *slot - 1;
	*base = pc_grow(*base, cap, *n + 1, stride);
	e = (char *)*base + *n * stride;
	memset(e, 0, stride);
	memcpy(e, k, sizeof(*k));
	h->used++;
	*slot = ++*n;
	return *n - 1;
}

static uint32_t new_node(struct pc_chains *c, uint32_t label)
{
	struct cc_node *n;

	c->node = pc_grow(c->node, &c->node_cap, c->nr_node + 1,
			  sizeof(*c->node));
	n = &c->node[c->nr_node];
	memset(n, 0, sizeof(*n));
	n->label = label;
	return c->nr_node++;
}

/*
 * --call-graph, as perf spells it: "graph|fractal|none", a threshold,
 * "caller|callee", and perf's "function" and "percent", which are all
 * there is here.
 */
void pc_chain_view_parse(struct pc_chain_view *v, const char *arg)
{
	char *copy = pc_strdup(arg), *tok, *save = NULL, *end;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "graph")) {
			v->fractal = 0;
			v->none = 0;
		} else if (!strcmp(tok, "fractal")) {
			v->fractal = 1;
			v->none = 0;
		} else if (!strcmp(tok, "none")) {
			v->none = 1;
		} else if (!strcmp(tok, "caller")) {
			v->caller = 1;
		} else if (!strcmp(tok, "callee")) {
			v->caller = 0;
		} else if (!strcmp(tok, "function") ||
			   !strcmp(tok, "percent")) {
			/* perf's defaults, and the only key and value here */
		} else {
			v->threshold = strtod(tok, &end);
			if (end == tok || *end || !(v->threshold >= 0) ||
			    v->threshold > 100)
				pc_die("--call-graph %s: graph, fractal or none; a threshold\n"
				       "  (percent, 0 to 100); caller or callee; function;\n"
				       "  percent", arg);
		}
	}
	free(copy);
}

struct pc_chains *pc_chains_new(const struct pc_chain_view *v)
{
	struct pc_chains *c = pc_zalloc(sizeof(*c));

	c->v = *v;
	c->cache = pc_zalloc(CC_CACHE * sizeof(*c->cache));
	c->gen = 1;
	new_node(c, 0);		/* node 0: none */
	return c;
}

/**
 * pc_chains_forget() - a task's mappings changed: names looked up before
 * may be wrong now
 * @c:	the chains
 */
void pc_chains_forget(struct pc_chains *c)
{
	if (++c->gen == 0) {
		memset(c->cache, 0, CC_CACHE * sizeof(*c->cache));
		c->gen = 1;
	}
}

/*
 * The label of @addr in @pid's chain; @ret: a return address, looked
 * up one byte back, in the call (a call that never returns may be a
 * function's last instruction).
 */
static uint32_t label_of(struct pc_chains *c, const struct pc_maps *maps,
			 uint32_t pid, uint64_t addr, int ret)
{
	struct cc_cached *e = &c->cache[(addr ^ addr >> 12 ^ pid) %
					  CC_CACHE];
	uint64_t at = ret ? addr - 1 : addr;
	struct cc_key k;
	uint32_t l, f, nr;
	int kernel;

	if (e->gen == c->gen && e->addr == addr && e->pid == pid &&
	    e->ret == ret)
		return e->label;
	k.sym = pc_resolve(maps, pid, at, &k.dso, &kernel);
	k.ip = k.sym ? 0 : addr;
	l = intern(&c->label_hash, (void **)&c->label, &c->label_cap,
		   &c->nr_label, sizeof(*c->label), &k);
	if (!c->label[l].func) {
		k.ip = 0;
		nr = c->nr_func;
		f = intern(&c->func_hash, (void **)&c->func, &c->func_cap,
			   &c->nr_func, sizeof(*c->func), &k);
		if (f == nr) {
			c->func[f].kernel = kernel;
			c->func[f].first_ip = addr;
			c->func[f].depth = UINT_MAX;
			/* the file mapped now: a later exec may map another */
			c->func[f].fp = kernel ? -1 :
				pc_frame_pointer(maps, pid, at);
		}
		/* + 1: 0 tells a label just made */
		c->label[l].func = f + 1;
	}
	e->gen = c->gen;
	e->addr = addr;
	e->pid = pid;
	e->ret = ret;
	e->label = l;
	return l;
}

static struct cc_func *func_of(struct pc_chains *c, uint32_t label)
{
	return &c->func[c->label[label].func - 1];
}

/* The child of @n with @label, made if there is none. */
static uint32_t child_of(struct pc_chains *c, uint32_t n, uint32_t label)
{
	uint32_t k, made;

	for (k = c->node[n].child; k; k = c->node[k].next)
		if (c->node[k].label == label)
			return k;
	made = new_node(c, label);
	c->node[made].next = c->node[n].child;
	c->node[n].child = made;
	return made;
}

/* Add to @f's tree the frames from @from, @count of them, by @step. */
static void tree_add(struct pc_chains *c, struct cc_func *f, int from,
		     int step, int count)
{
	uint32_t n;
	int i;

	if (!f->root)
		f->root = new_node(c, 0);
	n = f->root;
	c->node[n].hits += c->w;
	for (i = 0; i < count; i++) {
		n = child_of(c, n, c->fr[from + i * step]);
		c->node[n].hits += c->w;
	}
	c->node[n].ends += c->w;
}

/* Count the sample whose @n frames are in c->fr, innermost first. */
static void count(struct pc_chains *c, int n, int complete)
{
	struct cc_func *f0 = func_of(c, c->fr[0]);
	int i, step = c->v.caller ? -1 : 1;

	c->nr++;
	c->total += c->w;
	f0->self += c->w;
	f0->self_n++;
	if ((unsigned int)n > c->max_frames)
		c->max_frames = n;
	for (i = 0; i < n; i++) {
		struct cc_func *f = func_of(c, c->fr[i]);

		if (f->stamp != c->nr) {
			f->stamp = c->nr;
			f->children += c->w;
			f->children_n++;
		}
		if ((unsigned int)(n - 1 - i) < f->depth)
			f->depth = n - 1 - i;
		/* the outermost frame of a whole chain has no caller to lose */
		if (!complete || i < n - 1)
			f->fp_check = 1;
	}
	if (c->v.none)
		return;
	/* the sample's own function: the whole chain */
	tree_add(c, f0, c->v.caller ? n - 1 : 0, step, n);
	f0->tstamp = c->nr;
	if (!c->v.children)
		return;
	/* each other function once, where the order meets it first */
	for (i = c->v.caller ? n - 1 : 0; i >= 0 && i < n; i += step) {
		struct cc_func *f = func_of(c, c->fr[i]);

		if (f->tstamp == c->nr)
			continue;
		f->tstamp = c->nr;
		tree_add(c, f, i, step, c->v.caller ? i + 1 : n - i);
	}
}

/**
 * pc_chain_walk() - the addresses of a sample and its call chain
 * @ip:		the sampled address
 * @words:	the chain, innermost first, markers and all (host order)
 * @nr:		how many words
 * @fn:		called for each address, innermost first, with @ret set
 *		for a return address (to be named one byte back, in its
 *		call: a call that never returns may be a function's last
 *		instruction)
 * @ctx:	for @fn
 *
 * The chain starts with the sampled address itself when it was taken
 * in the mode the chain starts in; it is not given twice. The first
 * address after a marker is where that mode was interrupted; every
 * other is a return address. report's trees, its exports and record's
 * portable symbols all walk chains through here, so all name the same.
 */
void pc_chain_walk(uint64_t ip, const uint64_t *words, uint32_t nr,
		   void (*fn)(void *ctx, uint64_t addr, int ret), void *ctx)
{
	int first = 1, ret = 0;
	uint32_t i;

	fn(ctx, ip, 0);
	for (i = 0; i < nr; i++) {
		uint64_t w = words[i];

		/* PERF_CONTEXT_KERNEL, _USER, ...: no address */
		if (w >= (uint64_t)PERF_CONTEXT_MAX) {
			ret = 0;
			continue;
		}
		if (first) {
			first = 0;
			if (w == ip) {
				ret = 1;
				continue;
			}
		}
		fn(ctx, w, ret);
		ret = 1;
	}
}

/* pc_chain_walk()'s frames into c->fr, as labels */
struct cc_walk {
	struct pc_chains *c;
	const struct pc_maps *maps;
	uint32_t pid;
	int n;
};

static void push(void *ctx, uint64_t addr, int ret)
{
	struct cc_walk *w = ctx;
	struct pc_chains *c = w->c;

	c->fr = pc_grow(c->fr, &c->fr_cap, w->n + 1, sizeof(*c->fr));
	c->fr[w->n++] = label_of(c, w->maps, w->pid, addr, ret);
}

/**
 * pc_chains_add() - count a sample and its call chain
 * @c:		the chains
 * @maps:	the recorded mappings, to resolve user addresses
 * @pid:	the sampled task
 * @ip:		the sampled address
 * @words:	the chain, innermost first, markers and all (host order)
 * @nr:		how many words
 * @flags:	the chain's flags (PERF_COUNTER_CHAIN_*)
 * @weight:	the events the sample stands for (its period)
 *
 * The addresses are those pc_chain_walk() gives.
 */
void pc_chains_add(struct pc_chains *c, const struct pc_maps *maps,
		   uint32_t pid, uint64_t ip, const uint64_t *words,
		   uint32_t nr, uint32_t flags, uint64_t weight)
{
	struct cc_walk w = { c, maps, pid, 0 };

	pc_chain_walk(ip, words, nr, push, &w);
	c->chains++;
	c->end[flags & PERF_COUNTER_CHAIN_END_MASK]++;
	c->w = weight;
	count(c, w.n, (flags & PERF_COUNTER_CHAIN_END_MASK) ==
		      PERF_COUNTER_CHAIN_COMPLETE);
}

/* A sample without a chain, in a file with chains: itself alone. */
void pc_chains_add_none(struct pc_chains *c, const struct pc_maps *maps,
			uint32_t pid, uint64_t ip, uint64_t weight)
{
	struct cc_walk w = { c, maps, pid, 0 };

	push(&w, ip, 0);
	c->w = weight;
	count(c, w.n, 0);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/* "# call chains: 98.7% complete, 1.0% truncated, 0.3% broken" */
void pc_chains_quality(const struct pc_chains *c)
{
	uint64_t none = c->nr - c->chains;

	printf("# call chains: %.1f%% complete, %.1f%% truncated, %.1f%% broken",
	       pct(c->end[PERF_COUNTER_CHAIN_COMPLETE], c->chains),
	       pct(c->end[PERF_COUNTER_CHAIN_TRUNCATED], c->chains),
	       pct(c->end[PERF_COUNTER_CHAIN_BROKEN], c->chains));
	if (c->end[0])
		printf(", %.1f%% unmarked", pct(c->end[0], c->chains));
	if (none)
		printf("; %llu samples without one", (unsigned long long)none);
	putchar('\n');
}

static const struct pc_chains *sorting;

static const char *func_name(const struct cc_func *f)
{
	return f->key.sym ? f->key.sym : "";
}

/* The report's order: Children (or Self), callers first, then by name. */
static int cmp_func(const void *a, const void *b)
{
	const struct cc_func *x = &sorting->func[*(const uint32_t *)a];
	const struct cc_func *y = &sorting->func[*(const uint32_t *)b];
	uint64_t vx = sorting->v.children ? x->children : x->self;
	uint64_t vy = sorting->v.children ? y->children : y->self;
	int r;

	if (vx != vy)
		return vx < vy ? 1 : -1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	r = strcmp(x->key.dso, y->key.dso);
	return r ? r : strcmp(func_name(x), func_name(y));
}

/* Functions seen without a frame-pointer prologue: by DSO, most seen first. */
static int cmp_fp(const void *a, const void *b)
{
	const struct cc_func *x = &sorting->func[*(const uint32_t *)a];
	const struct cc_func *y = &sorting->func[*(const uint32_t *)b];
	int r = strcmp(x->key.dso, y->key.dso);

	if (r)
		return r;
	if (x->children != y->children)
		return x->children < y->children ? 1 : -1;
	return strcmp(func_name(x), func_name(y));
}

#define CC_FP_NAMED	3	/* functions a warning names */

/**
 * pc_chains_fp_warn() - warn of chains through functions with no frame
 * @c:		the chains
 *
 * A function whose first bytes do not set up a frame pointer (x86)
 * loses its caller from every chain that passes through it: the kernel
 * walks the frame pointers. One warning per file, naming a few.
 */
void pc_chains_fp_warn(const struct pc_chains *c)
{
	uint32_t *bad = pc_zalloc((c->nr_func + 1) * sizeof(*bad));
	uint32_t i, j, k, nr = 0;

	for (i = 0; i < c->nr_func; i++) {
		const struct cc_func *f = &c->func[i];

		if (f->fp_check && !f->kernel && f->key.sym && !f->fp)
			bad[nr++] = i;
	}
	sorting = c;
	qsort(bad, nr, sizeof(*bad), cmp_fp);
	for (i = 0; i < nr; i = j) {
		const char *dso = c->func[bad[i]].key.dso;

		for (j = i; j < nr && !strcmp(c->func[bad[j]].key.dso, dso);)
			j++;
		printf("# warning: %u function%s of ", j - i,
		       j - i > 1 ? "s" : "");
		pc_print_escaped(dso);
		printf(" without a frame-pointer prologue: ");
		for (k = i; k < j && k < i + CC_FP_NAMED; k++) {
			printf("%s", k > i ? ", " : "");
			pc_print_escaped(c->func[bad[k]].key.sym);
		}
		printf("%s\n", j - i > CC_FP_NAMED ? ", ..." : "");
		printf("#   call chains through them are not trustworthy (callers go missing):\n#   rebuild ");
		pc_print_escaped(dso);
		printf(" with -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer\n");
	}
	free(bad);
}

static void print_label(const struct pc_chains *c, uint32_t label)
{
	const struct cc_label *l = &c->label[label];

	if (l->key.sym)
		pc_print_escaped(l->key.sym);
	else
		printf("0x%llx", (unsigned long long)l->key.ip);
	putchar('\n');
}

/* Biggest branch first, then by name. */
static int cmp_node(const void *a, const void *b)
{
	const struct cc_node *x = &sorting->node[*(const uint32_t *)a];
	const struct cc_node *y = &sorting->node[*(const uint32_t *)b];
	const struct cc_label *lx = &sorting->label[x->label];
	const struct cc_label *ly = &sorting->label[y->label];
	int r;

	if (x->hits != y->hits)
		return x->hits < y->hits ? 1 : -1;
	r = strcmp(lx->key.dso, ly->key.dso);
	if (r)
		return r;
	if (lx->key.sym && ly->key.sym)
		return strcmp(lx->key.sym, ly->key.sym);
	return lx->key.ip < ly->key.ip ? -1 : lx->key.ip > ly->key.ip;
}

/* @n's children that are over the threshold, sorted; how many. */
static int shown(const struct pc_chains *c, uint32_t n, uint32_t **out)
{
	uint64_t whole = c->v.fractal ? c->node[n].hits : c->total;
	uint32_t k, *kids = NULL;
	size_t cap = 0;
	int nr = 0;

	for (k = c->node[n].child; k; k = c->node[k].next) {
		if (pct(c->node[k].hits, whole) < c->v.threshold)
			continue;
		kids = pc_grow(kids, &cap, nr + 1, sizeof(*kids));
		kids[nr++] = k;
	}
	sorting = c;
	if (nr)
		qsort(kids, nr, sizeof(*kids), cmp_node);
	*out = kids;
	return nr;
}

/*
 * Print the run of labels from @n on while it is a single path: the
 * first line after @pre and @first, the others after @pre and @rest.
 * Returns the node the run ends at.
 */
static uint32_t print_run(const struct pc_chains *c, uint32_t n,
			  const char *pre, const char *first,
			  const char *rest)
{
	int i;

	for (i = 0;; i++) {
		printf("%s%s", pre, i ? rest : first);
		print_label(c, c->node[n].label);
		if (c->node[n].ends || !c->node[n].child ||
		    c->node[c->node[n].child].next)
			return n;
		n = c->node[n].child;
	}
}

/*
 * The branches under @n: each after a line with the level's pipe, its
 * first label after "--P%--", its pipe kept down the left while a
 * sibling follows. @pre is the columns of the levels above; it has room
 * for one level more.
 */
static void print_branches(const struct pc_chains *c, uint32_t n, char *pre)
{
	size_t len = strlen(pre);
	uint32_t *kids;
	int nr = shown(c, n, &kids), i;
	uint64_t whole = c->v.fractal ? c->node[n].hits : c->total;

	for (i = 0; i < nr; i++) {
		char first[32];
		uint32_t end;

		printf("%s|\n", pre);
		snprintf(first, sizeof(first), "--%.2f%%--",
			 pct(c->node[kids[i]].hits, whole));
		pre[len] = i == nr - 1 ? ' ' : '|';
		pre[len + 1] = '\0';
		end = print_run(c, kids[i], pre, first, "          ");
		memset(pre + len + 1, ' ', CC_LEVEL);
		pre[len + 1 + CC_LEVEL] = '\0';
		print_branches(c, end, pre);
		pre[len] = '\0';
	}
	free(kids);
}

/* @f's tree: a single root is printed after "---", as perf prints it. */
static void print_tree(const struct pc_chains *c, const struct cc_func *f)
{
	size_t room = sizeof(CC_MARGIN) + 3 +
		      (CC_LEVEL + 1) * (c->max_frames + 2);
	char *pre = pc_zalloc(room);
	uint32_t *kids, end;
	int nr;

	if (!f->root)
		goto out;
	strcpy(pre, CC_MARGIN);
	nr = shown(c, f->root, &kids);
	if (nr == 1) {
		printf("%s|\n", pre);
		end = print_run(c, kids[0], pre, "---", "   ");
		strcat(pre, "   ");
		print_branches(c, end, pre);
	} else {
		print_branches(c, f->root, pre);
	}
	free(kids);
	putchar('\n');
out:
	free(pre);
}

/**
 * pc_chains_print() - the report's lines, each with its tree
 * @c:		the chains, every sample added
 *
 * With children: "Children Self Samples DSO Symbol", every function a
 * chain passed through, Samples the samples it was in. Without: the
 * flat report's columns, the functions samples were taken in.
 */
void pc_chains_print(struct pc_chains *c)
{
	uint32_t *order = pc_zalloc((c->nr_func + 1) * sizeof(*order));
	uint32_t i, nr = 0;

	for (i = 0; i < c->nr_func; i++)
		if (c->v.children || c->func[i].self_n)
			order[nr++] = i;
	sorting = c;
	qsort(order, nr, sizeof(*order), cmp_func);
	if (c->v.children)
		printf("#\n# %8s %8s %8s  %-20s %s\n", "Children", "Self",
		       "Samples", "DSO", "Symbol");
	else
		printf("#\n# %8s %8s  %-20s %s\n", "Overhead", "Samples",
		       "DSO", "Symbol");
	for (i = 0; i < nr && (c->v.max_lines < 0 ||
			       i < (uint32_t)c->v.max_lines); i++) {
		const struct cc_func *f = &c->func[order[i]];
		size_t dl = strlen(f->key.dso);

		if (c->v.children)
			printf("  %7.2f%% %7.2f%% %8llu  ",
			       pct(f->children, c->total),
			       pct(f->self, c->total),
			       (unsigned long long)f->children_n);
		else
			printf("  %7.2f%% %8llu  ", pct(f->self, c->total),
			       (unsigned long long)f->self_n);
		pc_print_escaped(f->key.dso);
		printf("%*s [%c] ", (int)(dl < 20 ? 20 - dl : 0), "",
		       f->kernel ? 'k' : '.');
		if (f->key.sym)
			pc_print_escaped(f->key.sym);
		else
			printf("0x%llx", (unsigned long long)f->first_ip);
		putchar('\n');
		if (!c->v.none)
			print_tree(c, f);
	}
	free(order);
}

void pc_chains_free(struct pc_chains *c)
{
	free(c->func);
	free(c->func_hash.slot);
	free(c->label);
	free(c->label_hash.slot);
	free(c->node);
	free(c->fr);
	free(c->cache);
	free(c);
}
