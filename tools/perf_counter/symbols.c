// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: addresses to names. A user address goes through the
 * task's executable mappings (/proc/PID/maps, or as record saved them)
 * to a file offset, through the file's program headers to the address
 * its symbols use and to the ELF symbol table (.symtab, else .dynsym;
 * ELF32 or ELF64, either byte order). A kernel address goes to
 * /proc/kallsyms, when it is readable and its addresses are not all
 * zero (kernel.kptr_restrict).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pc.h"

struct pc_sym {
	uint64_t addr, size;
	const char *name;
};

struct pc_load {
	uint64_t offset, vaddr, filesz;
};

struct pc_dso {
	char *path;
	struct pc_sym *sym;
	int nr_sym;
	struct pc_load *load;
	int nr_load;
	char *strings;		/* a copy of every name the symbols point to */
};

static struct pc_dso *dsos;
static int nr_dsos;

static struct pc_sym *ksyms;
static int nr_ksyms, ksyms_loaded;
static char *kstrings;

/* A section marker (__cpuidle_text_start) names no function. */
static int marker(const char *name)
{
	return !strncmp(name, "__", 2) && (strstr(name, "_start") ||
					   strstr(name, "_end"));
}

/* By address; of names at one address the marker first, so not taken. */
static int cmp_sym(const void *a, const void *b)
{
	const struct pc_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return marker(y->name) - marker(x->name);
}

/* ELF fields in the file's own byte order. */
struct elf_file {
	const unsigned char *p;
	size_t len;
	int is64, le;
};

static uint64_t get(const struct elf_file *e, size_t off, int bytes)
{
	uint64_t v = 0;
	int i;

	if (off + bytes > e->len)
		return 0;
	for (i = 0; i < bytes; i++) {
		/* most significant byte first */
		int b = e->le ? bytes - 1 - i : i;

		v = v << 8 | e->p[off + b];
	}
	return v;
}

static void load_elf(struct pc_dso *d)
{
	struct elf_file e;
	struct stat st;
	uint64_t shoff, phoff;
	unsigned int shnum, shentsize, phnum, phentsize, i;
	int fd = open(d->path, O_RDONLY | O_CLOEXEC), pass;
	void *map;
	size_t str_len = 0;

	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || st.st_size < EI_NIDENT) {
		close(fd);
		return;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	e.p = map;
	e.len = st.st_size;
	if (memcmp(e.p, ELFMAG, SELFMAG) ||
	    (e.p[EI_CLASS] != ELFCLASS32 && e.p[EI_CLASS] != ELFCLASS64))
		goto out;
	e.is64 = e.p[EI_CLASS] == ELFCLASS64;
	e.le = e.p[EI_DATA] == ELFDATA2LSB;

	phoff = get(&e, e.is64 ? 32 : 28, e.is64 ? 8 : 4);
	shoff = get(&e, e.is64 ? 40 : 32, e.is64 ? 8 : 4);
	phentsize = get(&e, e.is64 ? 54 : 42, 2);
	phnum = get(&e, e.is64 ? 56 : 44, 2);
	shentsize = get(&e, e.is64 ? 58 : 46, 2);
	shnum = get(&e, e.is64 ? 60 : 48, 2);

	for (i = 0; i < phnum; i++) {
		size_t ph = phoff + (size_t)i * phentsize;
		struct pc_load *l;

		if (get(&e, ph, 4) != PT_LOAD)
			continue;
		d->load = pc_realloc(d->load,
				     (d->nr_load + 1) * sizeof(*d->load));
		l = &d->load[d->nr_load++];
		if (e.is64) {
			l->offset = get(&e, ph + 8, 8);
			l->vaddr = get(&e, ph + 16, 8);
			l->filesz = get(&e, ph + 32, 8);
		} else {
			l->offset = get(&e, ph + 4, 4);
			l->vaddr = get(&e, ph + 8, 4);
			l->filesz = get(&e, ph + 16, 4);
		}
	}

	/* .symtab if there is one, else .dynsym */
	for (pass = 0; pass < 2 && !d->nr_sym; pass++) {
		uint32_t want = pass ? SHT_DYNSYM : SHT_SYMTAB;

		for (i = 0; i < shnum; i++) {
			size_t sh = shoff + (size_t)i * shentsize, s_off,
			       s_size, ent, str_sh, str_off, str_size, k;

			if (get(&e, sh + 4, 4) != want)
				continue;
			s_off = get(&e, sh + (e.is64 ? 24 : 16), e.is64 ? 8 : 4);
			s_size = get(&e, sh + (e.is64 ? 32 : 20), e.is64 ? 8 : 4);
			ent = get(&e, sh + (e.is64 ? 56 : 36), e.is64 ? 8 : 4);
			str_sh = shoff + (size_t)get(&e, sh + (e.is64 ? 40 : 24),
						     4) * shentsize;
			str_off = get(&e, str_sh + (e.is64 ? 24 : 16),
				      e.is64 ? 8 : 4);
			str_size = get(&e, str_sh + (e.is64 ? 32 : 20),
				       e.is64 ? 8 : 4);
			if (!ent || s_off + s_size > e.len ||
			    str_off + str_size > e.len)
				continue;
			for (k = 0; k < s_size / ent; k++) {
				size_t sym = s_off + k * ent;
				uint64_t name, value, size;
				unsigned int info, shndx;
				const char *n;
				struct pc_sym *ps;

				if (e.is64) {
					name = get(&e, sym, 4);
					info = e.p[sym + 4];
					shndx = get(&e, sym + 6, 2);
					value = get(&e, sym + 8, 8);
					size = get(&e, sym + 16, 8);
				} else {
					name = get(&e, sym, 4);
					value = get(&e, sym + 4, 4);
					size = get(&e, sym + 8, 4);
					info = e.p[sym + 12];
					shndx = get(&e, sym + 14, 2);
				}
				if ((ELF32_ST_TYPE(info) != STT_FUNC &&
				     ELF32_ST_TYPE(info) != STT_GNU_IFUNC) ||
				    shndx == SHN_UNDEF || !value ||
				    name >= str_size)
					continue;
				n = (const char *)e.p + str_off + name;
				d->sym = pc_realloc(d->sym, (d->nr_sym + 1) *
						    sizeof(*d->sym));
				ps = &d->sym[d->nr_sym++];
				ps->addr = value;
				ps->size = size;
				/* an offset into strings, fixed up below */
				ps->name = (const char *)(uintptr_t)str_len;
				d->strings = pc_realloc(d->strings, str_len +
							strnlen(n, str_size -
								name) + 1);
				memcpy(d->strings + str_len, n,
				       strnlen(n, str_size - name));
				str_len += strnlen(n, str_size - name);
				d->strings[str_len++] = '\0';
			}
		}
	}
	for (i = 0; i < (unsigned int)d->nr_sym; i++)
		d->sym[i].name = d->strings + (uintptr_t)d->sym[i].name;
	qsort(d->sym, d->nr_sym, sizeof(*d->sym), cmp_sym);
out:
	munmap(map, st.st_size);
}

static struct pc_dso *find_dso(const char *path)
{
	struct pc_dso *d;
	int i;

	for (i = 0; i < nr_dsos; i++)
		if (!strcmp(dsos[i].path, path))
			return &dsos[i];
	dsos = pc_realloc(dsos, (nr_dsos + 1) * sizeof(*dsos));
	d = &dsos[nr_dsos++];
	memset(d, 0, sizeof(*d));
	d->path = pc_strdup(path);
	load_elf(d);
	return d;
}

static const struct pc_sym *lookup(const struct pc_sym *s, int nr,
				   uint64_t addr)
{
	int lo = 0, hi = nr - 1, best = -1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (s[mid].addr <= addr) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (best < 0)
		return NULL;
	/* a sized symbol must hold the address; an unsized one may */
	if (s[best].size && addr >= s[best].addr + s[best].size)
		return NULL;
	return &s[best];
}

static void load_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	size_t str_len = 0;
	int nonzero = 0, i;

	ksyms_loaded = 1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];
		size_t l;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T')
			continue;
		nonzero |= addr != 0;
		ksyms = pc_realloc(ksyms, (nr_ksyms + 1) * sizeof(*ksyms));
		ksyms[nr_ksyms].addr = addr;
		ksyms[nr_ksyms].size = 0;
		ksyms[nr_ksyms].name = (const char *)(uintptr_t)str_len;
		nr_ksyms++;
		l = strlen(name) + 1;
		kstrings = pc_realloc(kstrings, str_len + l);
		memcpy(kstrings + str_len, name, l);
		str_len += l;
	}
	fclose(f);
	if (!nonzero) {
		/* kptr_restrict hides them: no names */
		free(ksyms);
		ksyms = NULL;
		nr_ksyms = 0;
		return;
	}
	for (i = 0; i < nr_ksyms; i++)
		ksyms[i].name = kstrings + (uintptr_t)ksyms[i].name;
	qsort(ksyms, nr_ksyms, sizeof(*ksyms), cmp_sym);
}

/* Read /proc/kallsyms now, not in the middle of a measurement. */
void pc_symbols_init(void)
{
	if (!ksyms_loaded)
		load_kallsyms();
}

void pc_maps_add(struct pc_maps *maps, uint32_t pid, uint64_t start,
		 uint64_t end, uint64_t pgoff, const char *path)
{
	struct pc_map *m;

	maps->map = pc_realloc(maps->map, (maps->nr + 1) * sizeof(*m));
	m = &maps->map[maps->nr++];
	m->pid = pid;
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	m->path = pc_strdup(path);
}

/* Add @pid's executable file mappings; how many, or -1. */
int pc_read_maps(pid_t pid, struct pc_maps *maps)
{
	char path[64], line[1024];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff;
		char perms[8], file[800];

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %799s", &start,
			   &end, perms, &pgoff, file) != 5)
			continue;
		/* files, and the vDSO (named, though it has no file) */
		if (perms[2] != 'x' ||
		    (file[0] != '/' && strcmp(file, "[vdso]")))
			continue;
		pc_maps_add(maps, pid, start, end, pgoff, file);
		n++;
	}
	fclose(f);
	return n;
}

void pc_maps_free(struct pc_maps *maps)
{
	int i;

	for (i = 0; i < maps->nr; i++)
		free(maps->map[i].path);
	free(maps->map);
	maps->map = NULL;
	maps->nr = 0;
}

/*
 * @pid's mapping that holds @ip; a task with no mappings of its own
 * (gone before they were read: a short-lived child) is taken to share
 * the first task's, as a child does until it calls exec.
 */
const struct pc_map *pc_maps_find(const struct pc_maps *maps, uint32_t pid,
				  uint64_t ip)
{
	int i, own = 0;

	for (i = maps->nr - 1; i >= 0; i--) {
		const struct pc_map *m = &maps->map[i];

		if (m->pid != pid)
			continue;
		own = 1;
		if (ip >= m->start && ip < m->end)
			return m;
	}
	if (own)
		return NULL;
	for (i = 0; i < maps->nr; i++)
		if (ip >= maps->map[i].start && ip < maps->map[i].end)
			return &maps->map[i];
	return NULL;
}

static int kernel_address(uint64_t ip)
{
	if (nr_ksyms)
		return ip >= ksyms[0].addr;
	if (ip >> 32)
		return ip >= 0xffff800000000000ULL;
	return ip >= 0xc0000000ULL;
}

/*
 * The name of the function at @ip in @pid, or NULL; *dso says where
 * (a file's base name, or "[kernel]"), *kernel whether it is the
 * kernel's.
 */
const char *pc_resolve(const struct pc_maps *maps, uint32_t pid,
		       uint64_t ip, const char **dso, int *kernel)
{
	const struct pc_map *m = pc_maps_find(maps, pid, ip);
	const struct pc_sym *s;

	if (!ksyms_loaded)
		load_kallsyms();
	*kernel = 0;
	if (m) {
		struct pc_dso *d = find_dso(m->path);
		uint64_t off = ip - m->start + m->pgoff, addr = off;
		const char *base = strrchr(m->path, '/');
		int i;

		*dso = base ? base + 1 : m->path;
		for (i = 0; i < d->nr_load; i++)
			if (off >= d->load[i].offset &&
			    off < d->load[i].offset + d->load[i].filesz) {
				addr = off - d->load[i].offset +
				       d->load[i].vaddr;
				break;
			}
		s = lookup(d->sym, d->nr_sym, addr);
		return s ? s->name : NULL;
	}
	if (kernel_address(ip)) {
		*kernel = 1;
		*dso = "[kernel]";
		s = lookup(ksyms, nr_ksyms, ip);
		return s ? s->name : NULL;
	}
	*dso = "[unknown]";
	return NULL;
}
