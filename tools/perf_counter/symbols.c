// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: addresses to names. A user address goes through the
 * task's executable mappings (/proc/PID/maps, or as record saved them)
 * to a file offset, through the file's program headers to the address
 * its symbols use and to the ELF symbol table (.symtab, else .dynsym;
 * ELF32 or ELF64, either byte order). A kernel address goes to
 * /proc/kallsyms, when it is readable and its addresses are not all
 * zero (kernel.kptr_restrict). A file's function also tells whether
 * its first bytes set up a frame pointer (prologue.c), for call chains.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "pc.h"

struct pc_sym {
	uint64_t addr, size;
	const char *name;
	int fp;			/* pc_prologue_fp(): 1, 0, -1 unknown */
};

struct pc_load {
	uint64_t offset, vaddr, filesz;
};

struct pc_dso {
	char *path;
	uint64_t dev, ino;	/* the file the mapping was of */
	struct pc_sym *sym;
	int nr_sym;
	struct pc_load *load;
	int nr_load;
	char *strings;		/* a copy of every name the symbols point to */
	size_t sym_cap, str_cap;
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
/* The largest ELF file read for its symbols. */
#define PC_ELF_MAX	(256 << 20)

struct elf_file {
	const unsigned char *p;
	size_t len;
	int is64, le;
	unsigned int machine;	/* e_machine */
};

/* Does [off, off + bytes) lie in the file? Written not to wrap. */
static int in_file(const struct elf_file *e, uint64_t off, uint64_t bytes)
{
	return off <= e->len && bytes <= e->len - off;
}

/* A field of @bytes at @off; 0 (and *ok cleared) when it is not in the file. */
static uint64_t get(const struct elf_file *e, uint64_t off, int bytes,
		    int *ok)
{
	uint64_t v = 0;
	int i;

	if (!in_file(e, off, bytes)) {
		*ok = 0;
		return 0;
	}
	for (i = 0; i < bytes; i++) {
		/* most significant byte first */
		int b = e->le ? bytes - 1 - i : i;

		v = v << 8 | e->p[off + b];
	}
	return v;
}

/* A word: 8 bytes in ELF64, 4 in ELF32. */
static uint64_t word(const struct elf_file *e, uint64_t off, int *ok)
{
	return get(e, off, e->is64 ? 8 : 4, ok);
}

/* Entry @i of a table at @base of @n entries of @ent bytes, if in the file. */
static int entry(const struct elf_file *e, uint64_t base, uint64_t ent,
		 uint64_t i, uint64_t need, uint64_t *off)
{
	if (!in_file(e, base, 0) || i > (e->len - base) / ent)
		return 0;
	*off = base + i * ent;
	return in_file(e, *off, need);
}

/* Whether the function at @value sets up a frame, from its first bytes. */
static int sym_fp(const struct pc_dso *d, const struct elf_file *e,
		  uint64_t value)
{
	int i;

	for (i = 0; i < d->nr_load; i++) {
		const struct pc_load *l = &d->load[i];
		uint64_t in = value - l->vaddr, n;

		if (value < l->vaddr || in >= l->filesz)
			continue;
		n = l->filesz - in < 16 ? l->filesz - in : 16;
		if (!in_file(e, l->offset + in, n))
			return -1;
		return pc_prologue_fp(e->machine, e->p + l->offset + in, n);
	}
	return -1;
}

static void add_sym(struct pc_dso *d, size_t *str_len, uint64_t value,
		    uint64_t size, const char *n, size_t max, int fp)
{
	size_t l = strnlen(n, max);
	struct pc_sym *ps;

	d->sym = pc_grow(d->sym, &d->sym_cap, d->nr_sym + 1, sizeof(*d->sym));
	ps = &d->sym[d->nr_sym++];
	ps->addr = value;
	ps->size = size;
	ps->fp = fp;
	/* an offset into strings, fixed up by the caller */
	ps->name = (const char *)(uintptr_t)*str_len;
	d->strings = pc_grow(d->strings, &d->str_cap, *str_len + l + 1, 1);
	memcpy(d->strings + *str_len, n, l);
	*str_len += l;
	d->strings[(*str_len)++] = '\0';
}

static void load_phdrs(struct pc_dso *d, const struct elf_file *e)
{
	uint64_t phoff, ph;
	unsigned int phentsize, phnum, i;
	size_t need = e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	int ok = 1;

	phoff = word(e, e->is64 ? 32 : 28, &ok);
	phentsize = get(e, e->is64 ? 54 : 42, 2, &ok);
	phnum = get(e, e->is64 ? 56 : 44, 2, &ok);
	if (!ok || phentsize < need)
		return;
	for (i = 0; i < phnum; i++) {
		struct pc_load l;

		ok = 1;
		if (!entry(e, phoff, phentsize, i, need, &ph))
			return;
		if (get(e, ph, 4, &ok) != PT_LOAD)
			continue;
		if (e->is64) {
			l.offset = get(e, ph + 8, 8, &ok);
			l.vaddr = get(e, ph + 16, 8, &ok);
			l.filesz = get(e, ph + 32, 8, &ok);
		} else {
			l.offset = get(e, ph + 4, 4, &ok);
			l.vaddr = get(e, ph + 8, 4, &ok);
			l.filesz = get(e, ph + 16, 4, &ok);
		}
		if (!ok)
			continue;
		d->load = pc_realloc(d->load,
				     (d->nr_load + 1) * sizeof(*d->load));
		d->load[d->nr_load++] = l;
	}
}

/* The symbols of section header @sh (of shoff, shentsize, shnum). */
static void load_symtab(struct pc_dso *d, const struct elf_file *e,
			uint64_t sh, uint64_t shoff, unsigned int shentsize,
			unsigned int shnum, size_t *str_len)
{
	size_t need = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	size_t shneed = e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	uint64_t s_off, s_size, ent, str_sh, str_off, str_size, k, link;
	int ok = 1;

	s_off = word(e, sh + (e->is64 ? 24 : 16), &ok);
	s_size = word(e, sh + (e->is64 ? 32 : 20), &ok);
	link = get(e, sh + (e->is64 ? 40 : 24), 4, &ok);
	ent = word(e, sh + (e->is64 ? 56 : 36), &ok);
	if (!ok || ent < need || link >= shnum ||
	    !entry(e, shoff, shentsize, link, shneed, &str_sh))
		return;
	if (get(e, str_sh + 4, 4, &ok) != SHT_STRTAB)
		return;
	str_off = word(e, str_sh + (e->is64 ? 24 : 16), &ok);
	str_size = word(e, str_sh + (e->is64 ? 32 : 20), &ok);
	if (!ok || !in_file(e, s_off, s_size) ||
	    !in_file(e, str_off, str_size))
		return;
	for (k = 0; k < s_size / ent; k++) {
		uint64_t sym = s_off + k * ent, name, value, size;
		unsigned int info, shndx;

		if (e->is64) {
			name = get(e, sym, 4, &ok);
			info = get(e, sym + 4, 1, &ok);
			shndx = get(e, sym + 6, 2, &ok);
			value = get(e, sym + 8, 8, &ok);
			size = get(e, sym + 16, 8, &ok);
		} else {
			name = get(e, sym, 4, &ok);
			value = get(e, sym + 4, 4, &ok);
			size = get(e, sym + 8, 4, &ok);
			info = get(e, sym + 12, 1, &ok);
			shndx = get(e, sym + 14, 2, &ok);
		}
		if (!ok)
			return;
		if ((ELF32_ST_TYPE(info) != STT_FUNC &&
		     ELF32_ST_TYPE(info) != STT_GNU_IFUNC) ||
		    shndx == SHN_UNDEF || !value || name >= str_size)
			continue;
		add_sym(d, str_len, value, size,
			(const char *)e->p + str_off + name, str_size - name,
			sym_fp(d, e, value));
	}
}

static void load_elf(struct pc_dso *d)
{
	struct elf_file e;
	struct stat st;
	uint64_t shoff, sh;
	unsigned int shnum, shentsize, i;
	size_t shneed;
	int fd, pass, ok = 1;
	void *map;
	size_t str_len = 0;

	/* a file by its absolute path: never "[vdso]" in the cwd */
	if (d->path[0] != '/')
		return;
	fd = pc_open_file_id(d->path, d->dev, d->ino);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || st.st_size < EI_NIDENT ||
	    st.st_size > PC_ELF_MAX) {
		close(fd);
		return;
	}
	/*
	 * Read, not mapped: a file its owner truncates while this parses
	 * it would end the tool with SIGBUS. What was read is parsed.
	 */
	map = malloc(st.st_size);
	if (!map) {
		close(fd);
		return;
	}
	e.len = 0;
	while (e.len < (size_t)st.st_size) {
		ssize_t n = read(fd, (char *)map + e.len, st.st_size - e.len);

		if (n <= 0)
			break;
		e.len += n;
	}
	close(fd);
	e.p = map;
	if (e.len < EI_NIDENT)
		goto out;
	if (memcmp(e.p, ELFMAG, SELFMAG) ||
	    (e.p[EI_CLASS] != ELFCLASS32 && e.p[EI_CLASS] != ELFCLASS64))
		goto out;
	e.is64 = e.p[EI_CLASS] == ELFCLASS64;
	e.le = e.p[EI_DATA] == ELFDATA2LSB;
	if (e.len < (e.is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		goto out;
	e.machine = get(&e, 18, 2, &ok);

	load_phdrs(d, &e);

	shoff = word(&e, e.is64 ? 40 : 32, &ok);
	shentsize = get(&e, e.is64 ? 58 : 46, 2, &ok);
	shnum = get(&e, e.is64 ? 60 : 48, 2, &ok);
	shneed = e.is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	if (!ok || shentsize < shneed)
		goto out;

	/* .symtab if there is one, else .dynsym */
	for (pass = 0; pass < 2 && !d->nr_sym; pass++) {
		uint32_t want = pass ? SHT_DYNSYM : SHT_SYMTAB;

		for (i = 0; i < shnum; i++) {
			if (!entry(&e, shoff, shentsize, i, shneed, &sh))
				break;
			if (get(&e, sh + 4, 4, &ok) != want)
				continue;
			load_symtab(d, &e, sh, shoff, shentsize, shnum,
				    &str_len);
		}
	}
	for (i = 0; i < (unsigned int)d->nr_sym; i++)
		d->sym[i].name = d->strings + (uintptr_t)d->sym[i].name;
	if (d->nr_sym)
		qsort(d->sym, d->nr_sym, sizeof(*d->sym), cmp_sym);
out:
	free(map);
}

/* The symbols of the file @m maps: by its name and its identity. */
static struct pc_dso *find_dso(const struct pc_map *m)
{
	struct pc_dso *d;
	int i;

	for (i = 0; i < nr_dsos; i++)
		if (dsos[i].dev == m->dev && dsos[i].ino == m->ino &&
		    !strcmp(dsos[i].path, m->path))
			return &dsos[i];
	dsos = pc_realloc(dsos, (nr_dsos + 1) * sizeof(*dsos));
	d = &dsos[nr_dsos++];
	memset(d, 0, sizeof(*d));
	d->path = pc_strdup(m->path);
	d->dev = m->dev;
	d->ino = m->ino;
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
	char line[1024];
	size_t str_len = 0, sym_cap = 0, str_cap = 0;
	int nonzero = 0, i;

	ksyms_loaded = 1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[1024];
		size_t l;

		if (sscanf(line, "%llx %c %1023s", &addr, &type, name) != 3)
			continue;
		/* text, and weak symbols (the kernel's __weak functions) */
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		nonzero |= addr != 0;
		ksyms = pc_grow(ksyms, &sym_cap, nr_ksyms + 1, sizeof(*ksyms));
		ksyms[nr_ksyms].addr = addr;
		ksyms[nr_ksyms].size = 0;
		ksyms[nr_ksyms].fp = -1;
		ksyms[nr_ksyms].name = (const char *)(uintptr_t)str_len;
		nr_ksyms++;
		l = strlen(name) + 1;
		kstrings = pc_grow(kstrings, &str_cap, str_len + l, 1);
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

/* Add a copy of @m (its path copied too). */
void pc_maps_add(struct pc_maps *maps, const struct pc_map *m)
{
	struct pc_map *copy;

	maps->map = pc_realloc(maps->map, (maps->nr + 1) * sizeof(*copy));
	copy = &maps->map[maps->nr++];
	*copy = *m;
	copy->path = pc_strdup(m->path);
}

/* Add @pid's executable file mappings; how many, or -1. */
int pc_read_maps(pid_t pid, struct pc_maps *maps)
{
	char path[64], line[4096];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		char perms[8], *file;
		struct pc_map m;
		size_t l = strlen(line);
		int pos = 0;

		if (!l || line[l - 1] != '\n') {
			/* longer than line: skip the rest of it */
			int c;

			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			continue;
		}
		line[--l] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start,
			   &end, perms, &pgoff, &maj, &min, &ino, &pos) != 7 ||
		    !pos)
			continue;
		/* the path is the rest of the line, spaces and all */
		file = line + pos;
		if (perms[2] != 'x' || !*file)
			continue;
		m.pid = pid;
		m.start = start;
		m.end = end;
		m.pgoff = pgoff;
		m.dev = makedev(maj, min);
		m.ino = ino;
		m.path = file;
		l = strlen(file);
		/*
		 * "[vdso]" is named, though it has no file; any other needs
		 * an absolute path. Its symbols are read only from the file
		 * with this identity (load_elf()).
		 */
		if (strcmp(file, "[vdso]") &&
		    (file[0] != '/' ||
		     (l >= 10 && !strcmp(file + l - 10, " (deleted)"))))
			continue;
		pc_maps_add(maps, &m);
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

/* The symbol of file @d, mapped by @m, that holds @ip, or NULL. */
static const struct pc_sym *user_sym(const struct pc_dso *d,
				     const struct pc_map *m, uint64_t ip)
{
	uint64_t off = ip - m->start + m->pgoff, addr = off;
	int i;

	for (i = 0; i < d->nr_load; i++)
		if (off >= d->load[i].offset &&
		    off < d->load[i].offset + d->load[i].filesz) {
			addr = off - d->load[i].offset + d->load[i].vaddr;
			break;
		}
	return lookup(d->sym, d->nr_sym, addr);
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
		/* the file's name as its symbols keep it: it outlives @m */
		const struct pc_dso *d = find_dso(m);
		const char *base = strrchr(d->path, '/');

		*dso = base ? base + 1 : d->path;
		s = user_sym(d, m, ip);
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

/*
 * Whether the function at user address @ip in @pid sets up a frame
 * pointer: 1 yes, 0 no, -1 cannot tell (no file, no symbol, a machine
 * other than x86, a kernel address).
 */
int pc_frame_pointer(const struct pc_maps *maps, uint32_t pid, uint64_t ip)
{
	const struct pc_map *m = pc_maps_find(maps, pid, ip);
	const struct pc_sym *s;

	if (!m)
		return -1;
	s = user_sym(find_dso(m), m, ip);
	return s ? s->fp : -1;
}
