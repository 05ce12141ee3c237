// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter report: the profile of a record file, samples per
 * function, the most sampled first; with call chains in the file, each
 * function's share with its callees and the tree of its chains
 * (callchain.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "pc.h"
#include "record.h"

static int swap;

static uint32_t g32(uint32_t v)
{
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t g64(uint64_t v)
{
	return swap ? __builtin_bswap64(v) : v;
}

/* The least body an item of @type has (its fixed part). */
static size_t min_body(uint32_t type)
{
	switch (type) {
	case PC_ITEM_EVENT:
		return sizeof(struct pc_item_event);
	case PC_ITEM_MMAP:
		return sizeof(struct pc_item_mmap);
	case PC_ITEM_SAMPLE:
		return sizeof(struct pc_item_sample);
	case PC_ITEM_LOST:
		return sizeof(uint64_t);
	default:
		return 0;
	}
}

static void print_help(FILE *f)
{
	fprintf(f,
"usage: perf-counter report [-f] [-i FILE] [-n LINES] [-g]\n"
"                           [--children | --no-children]\n"
"                           [--call-graph TYPE,MIN,ORDER]\n"
"  -f        read a record file another user owns (its mappings name\n"
"            the files whose symbols are read)\n"
"  -i FILE   the record file (default perf-counter.data)\n"
"  -n LINES  at most LINES functions (default all)\n"
"  -g        show the call chains (the default when the file has them,\n"
"            from record -g)\n"
"  --children     Children: the samples whose chain passes through the\n"
"                 function, with the Self share (the default); trees\n"
"                 from the outermost caller down\n"
"  --no-children  the Self share alone; trees from the function out to\n"
"                 its callers\n"
"  --call-graph TYPE,MIN,ORDER\n"
"                 how trees print, each part optional: TYPE graph (a\n"
"                 branch's percent of all samples, the default),\n"
"                 fractal (of its parent branch) or none (no trees);\n"
"                 MIN the percent under which a branch is hidden\n"
"                 (default 0.5); ORDER caller or callee (the default\n"
"                 as above)\n"
"Samples per function: user addresses through the ELF symbols of the\n"
"files the command had mapped, kernel addresses through /proc/kallsyms\n"
"(of the running kernel: report in the boot that recorded). With call\n"
"chains, a line tells how many were complete, truncated at the depth\n"
"or broken, and a warning names x86 functions without a frame-pointer\n"
"prologue, whose chains are not to be trusted.\n");
}

/*
 * The record file, whole. One another user wrote is refused without
 * @force, as perf refuses it: its mappings name the files report reads
 * symbols from, and whoever wrote it chose them.
 */
static char *slurp(const char *path, size_t *len, int force)
{
	char *buf = NULL;
	size_t cap = 0, n;
	struct stat st;
	FILE *f;
	int fd;

	/* a FIFO or device (a link to /dev/zero) is never read from */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0)
		pc_die("%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		pc_die("%s: not a regular file", path);
	if (!force && st.st_uid != geteuid() && st.st_uid != 0)
		pc_die("%s: owned by uid %u, not by you or root (use -f to read it anyway)",
		       path, (unsigned int)st.st_uid);
	f = fdopen(fd, "r");
	if (!f)
		pc_die("%s: %s", path, strerror(errno));
	*len = 0;
	do {
		if (*len + 65536 > cap) {
			cap = cap * 2 + 65536;
			buf = pc_realloc(buf, cap);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return buf;
}

/* The chain of SAMPLE @body, if it has one, in host order in *@words. */
static int sample_chain(const void *body, size_t blen, uint64_t **words,
			size_t *cap, uint32_t *nr, uint32_t *flags)
{
	const struct pc_item_chain *ch;
	uint32_t i;

	if (blen < sizeof(struct pc_item_sample) + sizeof(*ch))
		return 0;
	ch = (const void *)((const char *)body +
			    sizeof(struct pc_item_sample));
	blen -= sizeof(struct pc_item_sample) + sizeof(*ch);
	*nr = g32(ch->nr);
	*flags = g32(ch->flags);
	if (*nr > blen / 8)
		return -1;
	*words = pc_grow(*words, cap, *nr + 1, sizeof(**words));
	for (i = 0; i < *nr; i++)
		(*words)[i] = g64(ch->ip[i]);
	return 1;
}

int cmd_report(int argc, char **argv)
{
	struct pc_sample_opts o = { .input = "perf-counter.data", .count = -1,
				    .children = -1 };
	struct pc_chain_view view = { .threshold = 0.5 };
	struct pc_chains *chains = NULL;
	uint64_t *words = NULL;
	size_t words_cap = 0;
	int has_chains = 0;
	const char *in, *ev_name = "?";
	struct pc_maps maps = { NULL, 0 };
	struct pc_hist h = { 0 };
	int opt, i, max_lines = -1, pass, force = 0;
	uint64_t period = 0, samples = 0, lost = 0, kernel = 0;
	const char *cmd = "?";
	size_t len, off, blen;
	char *buf;
	const struct pc_file_header *hdr;

	opt = pc_sample_opts_parse(argc, argv, "fingGYN", &o, print_help);
	if (opt < 0)
		return opt == -1 ? 0 : 1;
	if (opt < argc) {
		print_help(stderr);
		return 1;
	}
	in = o.input;
	max_lines = o.count;
	force = o.force;
	view.children = o.children != 0;
	view.caller = view.children;
	view.max_lines = max_lines;
	if (o.call_graph) {
		pc_chain_view_parse(&view, o.call_graph);
		o.callchain = 1;
	}
	buf = slurp(in, &len, force);
	hdr = (const void *)buf;
	if (len < sizeof(*hdr) || memcmp(hdr->magic, PC_FILE_MAGIC, 8))
		pc_die("%s: not a perf-counter record file", in);
	swap = hdr->byte_order != PC_FILE_BYTE_ORDER;
	if (swap && hdr->byte_order != __builtin_bswap32(PC_FILE_BYTE_ORDER))
		pc_die("%s: unknown byte order", in);
	if (g32(hdr->version) != PC_FILE_VERSION)
		pc_die("%s: version %u, this report reads %u", in,
		       g32(hdr->version), PC_FILE_VERSION);

	/* the mappings first (they are written last), then the samples */
	for (pass = 0; pass < 2; pass++) {
		for (off = sizeof(*hdr); off + sizeof(struct pc_item) <= len;) {
			const struct pc_item *it = (const void *)(buf + off);
			const void *body = it + 1;
			uint32_t type = g32(it->type), size = g32(it->size);

			if (size < sizeof(*it) || size % 8 || size > len - off)
				pc_die("%s: item at %zu is cut short", in, off);
			off += size;
			blen = size - sizeof(*it);
			if (blen < min_body(type)) {
				if (pass == 0)
					pc_warn("%s: item at %zu (type %u) too short, skipped",
						in, off - size, type);
				continue;
			}
			if ((type == PC_ITEM_MMAP || type == PC_ITEM_EVENT ||
			     type == PC_ITEM_COMMAND) &&
			    !memchr((const char *)body + min_body(type), '\0',
				    blen - min_body(type))) {
				if (pass == 0)
					pc_warn("%s: item at %zu (type %u): no NUL in its string, skipped",
						in, off - size, type);
				continue;
			}
			if (pass == 0 && type == PC_ITEM_MMAP) {
				const struct pc_item_mmap *m = body;
				struct pc_map map = {
					.pid = g32(m->pid),
					.start = g64(m->start),
					.end = g64(m->end),
					.pgoff = g64(m->pgoff),
					.dev = g64(m->dev),
					.ino = g64(m->ino),
					.path = (char *)m->path,
				};

				pc_maps_add(&maps, &map);
			} else if (pass == 0 && type == PC_ITEM_EVENT) {
				const struct pc_item_event *e = body;

				ev_name = e->name;
				period = g64(e->irq_period);
				if (g64(e->record_type) & PERF_RECORD_CALLCHAIN)
					has_chains = 1;
			} else if (pass == 0 && type == PC_ITEM_SAMPLE) {
				if (blen >= sizeof(struct pc_item_sample) +
				    sizeof(struct pc_item_chain))
					has_chains = 1;
			} else if (pass == 0 && type == PC_ITEM_COMMAND) {
				cmd = body;
			} else if (pass == 0 && type == PC_ITEM_LOST) {
				uint64_t v;

				memcpy(&v, body, sizeof(v));
				lost += g64(v);
			} else if (pass == 1 && type == PC_ITEM_SAMPLE) {
				const struct pc_item_sample *s = body;
				uint64_t ip = g64(s->ip);
				const char *dso, *sym;
				uint32_t nr, flags;
				int k, got;

				sym = pc_resolve(&maps, g32(s->pid), ip, &dso,
						 &k);
				samples++;
				kernel += k;
				pc_hist_add(&h, dso, sym, ip, k);
				if (!chains)
					continue;
				got = sample_chain(body, blen, &words,
						   &words_cap, &nr, &flags);
				if (got < 0)
					pc_warn("%s: item at %zu: a chain longer than its item, not counted",
						in, off - size);
				if (got > 0)
					pc_chains_add(chains, &maps,
						      g32(s->pid), ip, words,
						      nr, flags);
				else
					pc_chains_add_none(chains, &maps,
							   g32(s->pid), ip);
			}
		}
		if (pass == 0 && has_chains)
			chains = pc_chains_new(&view);
		if (pass == 0 && o.callchain && !has_chains)
			pc_warn("%s has no call chains (record them with record -g)",
				in);
	}
	pc_hist_sort(&h);
	printf("# perf-counter report of ");
	pc_print_escaped(in);
	printf(": command ");
	pc_print_escaped(cmd);
	printf("\n# %llu samples of ", (unsigned long long)samples);
	pc_print_escaped(ev_name);
	printf(" every %llu, %llu lost; %llu in the kernel\n",
	       (unsigned long long)period, (unsigned long long)lost,
	       (unsigned long long)kernel);
	if (chains) {
		pc_chains_quality(chains);
		pc_chains_fp_warn(chains, &maps);
		pc_chains_print(chains);
		pc_chains_free(chains);
		goto out;
	}
	printf("#\n# %8s %8s  %-20s %s\n", "Overhead", "Samples", "DSO",
	       "Symbol");
	for (i = 0; i < h.nr && (max_lines < 0 || i < max_lines); i++) {
		const struct pc_hist_entry *e = &h.e[i];
		char sym[64];

		if (!e->sym)
			snprintf(sym, sizeof(sym), "0x%llx",
				 (unsigned long long)e->ip);
		printf("  %7.2f%% %8llu  ", 100.0 * e->count / samples,
		       (unsigned long long)e->count);
		pc_print_escaped(e->dso);
		printf("%*s [%c] ", (int)(strlen(e->dso) < 20 ?
					 20 - strlen(e->dso) : 0), "",
		       e->kernel ? 'k' : '.');
		pc_print_escaped(e->sym ? e->sym : sym);
		putchar('\n');
	}
out:
	free(words);
	free(h.e);
	pc_maps_free(&maps);
	free(buf);
	return 0;
}
