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
 *
 * A portable record file (record.h) carries the symbols its samples
 * need: record marks every symbol it resolves (pc_symbols_mark()) and
 * writes the files' and the kernel's marked ones (pc_symbols_write());
 * report loads them (pc_symbols_load()) before it resolves anything,
 * and then reads no ELF file they describe for its symbols (only the
 * head of a regular file at that path, for its build-id) and, with the
 * kernel's, no /proc/kallsyms.
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
#include "profile.h"
#include "record.h"

struct pc_sym {
	uint64_t addr, size;
	const char *name;
	int fp;			/* pc_prologue_fp(): 1, 0, -1 unknown */
	int used;		/* resolved while marking: record writes it */
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
	uint8_t build_id[PC_BUILD_ID_MAX];
	uint32_t build_id_len;
	char *build_hex;	/* the build-id in hex, or NULL */
};

static struct pc_dso *dsos;
static int nr_dsos;

static struct pc_sym *ksyms;
static int nr_ksyms, ksyms_loaded;
static char *kstrings;
static uint64_t kstart;		/* the record file's: kernel addresses */
static int marking;		/* pc_symbols_mark() */

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
		  uint64_t value, uint64_t size)
{
	int i;

	for (i = 0; i < d->nr_load; i++) {
		const struct pc_load *l = &d->load[i];
		uint64_t in = value - l->vaddr, n;

		if (value < l->vaddr || in >= l->filesz)
			continue;
		/* its own bytes: the next function's prologue is not its */
		n = l->filesz - in < 40 ? l->filesz - in : 40;
		if (size && size <= n)
			n = size;
		if (!in_file(e, l->offset + in, n))
			return -1;
		return pc_prologue_fp(e->machine, e->p + l->offset + in, n,
				      size && size <= n);
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
	ps->used = 0;
	/* an offset into strings, fixed up by the caller */
	ps->name = (const char *)(uintptr_t)*str_len;
	d->strings = pc_grow(d->strings, &d->str_cap, *str_len + l + 1, 1);
	memcpy(d->strings + *str_len, n, l);
	*str_len += l;
	d->strings[(*str_len)++] = '\0';
}

/* Where @e's program headers are, and their size and number: 0 if bad. */
static int phdrs(const struct elf_file *e, uint64_t *phoff,
		 unsigned int *phentsize, unsigned int *phnum, size_t *need)
{
	int ok = 1;

	*need = e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	*phoff = word(e, e->is64 ? 32 : 28, &ok);
	*phentsize = get(e, e->is64 ? 54 : 42, 2, &ok);
	*phnum = get(e, e->is64 ? 56 : 44, 2, &ok);
	return ok && *phentsize >= *need;
}

static void load_phdrs(struct pc_dso *d, const struct elf_file *e)
{
	uint64_t phoff, ph;
	unsigned int phentsize, phnum, i;
	size_t need;
	int ok;

	if (!phdrs(e, &phoff, &phentsize, &phnum, &need))
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
			sym_fp(d, e, value, size));
	}
}

/*
 * The ELF file open at @fd, read whole (not mapped: a file its owner
 * truncates while this parses it would end the tool with SIGBUS; what
 * was read is parsed), or its first @max bytes, into @e. Closes @fd.
 * Return: the buffer to free, or NULL when it is no ELF file this
 * reads.
 */
static void *read_elf(int fd, struct elf_file *e, size_t max)
{
	struct stat st;
	size_t want;
	void *map;
	int ok = 1;

	/* a file past PC_ELF_MAX is read only for its head */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < EI_NIDENT ||
	    (max == PC_ELF_MAX && st.st_size > PC_ELF_MAX)) {
		close(fd);
		return NULL;
	}
	want = (uint64_t)st.st_size < max ? (size_t)st.st_size : max;
	map = malloc(want);
	if (!map) {
		close(fd);
		return NULL;
	}
	e->len = 0;
	while (e->len < want) {
		ssize_t n = read(fd, (char *)map + e->len, want - e->len);

		if (n <= 0)
			break;
		e->len += n;
	}
	close(fd);
	e->p = map;
	if (e->len < EI_NIDENT || memcmp(e->p, ELFMAG, SELFMAG) ||
	    (e->p[EI_CLASS] != ELFCLASS32 && e->p[EI_CLASS] != ELFCLASS64))
		goto bad;
	e->is64 = e->p[EI_CLASS] == ELFCLASS64;
	e->le = e->p[EI_DATA] == ELFDATA2LSB;
	if (e->len < (e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		goto bad;
	e->machine = get(e, 18, 2, &ok);
	return map;
bad:
	free(map);
	return NULL;
}

/*
 * The GNU build-id note in @len bytes of notes at @off, if there. A
 * note is 12 bytes of sizes and type, its name, then its descriptor,
 * each of those and the next note starting at a multiple of @align (4,
 * or the segment's 8) from the note's start.
 */
static int note_build_id(const struct elf_file *e, uint64_t off,
			 uint64_t len, uint64_t align, uint8_t *id,
			 uint32_t *id_len)
{
	uint64_t end, namesz, descsz, type, desc, next, pad = align - 1;
	int ok = 1;

	if (!in_file(e, off, len))
		return 0;
	end = off + len;
	/* each note at least 12 bytes on: bounded by @len */
	while (end - off >= 12) {
		namesz = get(e, off, 4, &ok);
		descsz = get(e, off + 4, 4, &ok);
		type = get(e, off + 8, 4, &ok);
		/* 32-bit sizes: no sum here wraps 64 bits */
		desc = (12 + namesz + pad) & ~pad;
		next = (desc + descsz + pad) & ~pad;
		if (!ok || desc + descsz > end - off)
			return 0;
		if (namesz == 4 && !memcmp(e->p + off + 12, "GNU", 4) &&
		    type == NT_GNU_BUILD_ID && descsz &&
		    descsz <= PC_BUILD_ID_MAX) {
			memcpy(id, e->p + off + desc, descsz);
			*id_len = descsz;
			return 1;
		}
		if (next > end - off)
			return 0;
		off += next;
	}
	return 0;
}

/* The build-id of @e, from its PT_NOTE segments. */
static void elf_build_id(const struct elf_file *e, uint8_t *id,
			 uint32_t *id_len)
{
	uint64_t phoff, ph, off, len, align;
	unsigned int phentsize, phnum, i;
	size_t need;
	int ok = 1;

	*id_len = 0;
	if (!phdrs(e, &phoff, &phentsize, &phnum, &need))
		return;
	for (i = 0; i < phnum; i++) {
		if (!entry(e, phoff, phentsize, i, need, &ph))
			return;
		if (get(e, ph, 4, &ok) != PT_NOTE)
			continue;
		off = e->is64 ? get(e, ph + 8, 8, &ok) : get(e, ph + 4, 4, &ok);
		len = e->is64 ? get(e, ph + 32, 8, &ok) :
			get(e, ph + 16, 4, &ok);
		align = e->is64 ? get(e, ph + 48, 8, &ok) :
			get(e, ph + 28, 4, &ok);
		if (ok && note_build_id(e, off, len, align == 8 ? 8 : 4, id,
					id_len))
			return;
	}
}

static char *hex(const uint8_t *p, uint32_t n)
{
	char *h = pc_zalloc(2 * n + 1);
	uint32_t i;

	for (i = 0; i < n; i++)
		snprintf(h + 2 * i, 3, "%02x", p[i]);
	return h;
}

static void load_elf(struct pc_dso *d)
{
	struct elf_file e;
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
	map = read_elf(fd, &e, PC_ELF_MAX);
	if (!map)
		return;
	elf_build_id(&e, d->build_id, &d->build_id_len);
	if (d->build_id_len)
		d->build_hex = hex(d->build_id, d->build_id_len);
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

/* The files by name and identity: an open hash of index + 1, 0 empty. */
static uint32_t *dso_slot;
static size_t dso_cap;		/* a power of two, at least twice nr_dsos */

static size_t dso_hash(const char *path, uint64_t dev, uint64_t ino)
{
	uint64_t h = (dev * 0x9e3779b97f4a7c15ULL) ^ ino;

	while (*path)
		h = (h ^ (unsigned char)*path++) * 0x100000001b3ULL;
	return h ^ h >> 29;
}

/* The slot of the file @path (@dev, @ino): its own, or the empty one. */
static uint32_t *dso_find(const char *path, uint64_t dev, uint64_t ino)
{
	size_t i = dso_hash(path, dev, ino) & (dso_cap - 1);

	while (dso_slot[i]) {
		const struct pc_dso *d = &dsos[dso_slot[i] - 1];

		if (d->dev == dev && d->ino == ino && !strcmp(d->path, path))
			break;
		i = (i + 1) & (dso_cap - 1);
	}
	return &dso_slot[i];
}

/* A new file's entry, empty, in the table; the slot dso_find() gave. */
static struct pc_dso *dso_add(const char *path, uint64_t dev, uint64_t ino)
{
	struct pc_dso *d;
	int i;

	if ((size_t)(nr_dsos + 1) * 2 > dso_cap) {
		free(dso_slot);
		dso_cap = dso_cap ? dso_cap * 2 : 64;
		dso_slot = pc_zalloc(dso_cap * sizeof(*dso_slot));
		for (i = 0; i < nr_dsos; i++)
			*dso_find(dsos[i].path, dsos[i].dev, dsos[i].ino) = i + 1;
	}
	dsos = pc_realloc(dsos, (nr_dsos + 1) * sizeof(*dsos));
	d = &dsos[nr_dsos++];
	memset(d, 0, sizeof(*d));
	d->path = pc_strdup(path);
	d->dev = dev;
	d->ino = ino;
	*dso_find(path, dev, ino) = nr_dsos;
	return d;
}

/* The symbols of the file @m maps: by its name and its identity. */
static struct pc_dso *find_dso(const struct pc_map *m)
{
	uint32_t *slot = dso_cap ? dso_find(m->path, m->dev, m->ino) : NULL;
	struct pc_dso *d;

	if (slot && *slot)
		return &dsos[*slot - 1];
	d = dso_add(m->path, m->dev, m->ino);
	load_elf(d);
	return d;
}

static struct pc_sym *lookup(struct pc_sym *s, int nr, uint64_t addr)
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
	/*
	 * Marked even when it does not hold the address: written, it keeps
	 * a symbol that encloses both from claiming the address.
	 */
	if (marking)
		s[best].used = 1;
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
		ksyms[nr_ksyms].used = 0;
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

/*
 * Is @ip in the kernel's part of the address space, as every port this
 * runs on lays it out: the upper half of 64 bits (x86_64 from
 * 0xffff800000000000, ppc64 from 0xc000000000000000), above 3 GiB of
 * 32 (i386, ppc32)?
 */
static int kernel_half(uint64_t ip)
{
	return ip >> 32 ? (int)(ip >> 63) : ip >= 0xc0000000ULL;
}

/* Is @ip the kernel's: from its lowest symbol, or in its half? */
static int kernel_address(uint64_t ip)
{
	if (kstart)
		return ip >= kstart;
	if (nr_ksyms)
		return ip >= ksyms[0].addr;
	return kernel_half(ip);
}

/* The symbol of file @d, mapped by @m, that holds @ip, or NULL. */
static struct pc_sym *user_sym(const struct pc_dso *d,
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

/* The symbol at @ip of @pid, its file, whether it is the kernel's. */
static struct pc_sym *resolve(const struct pc_maps *maps, uint32_t pid,
			      uint64_t ip, const struct pc_dso **dso,
			      int *kernel)
{
	const struct pc_map *m = pc_maps_find(maps, pid, ip);
	struct pc_sym *s = NULL;

	*kernel = 0;
	*dso = NULL;
	/*
	 * /proc/kallsyms is read for the first address that may be the
	 * kernel's (a 32-bit kernel may start at 2 GiB): then its lowest
	 * symbol says.
	 */
	if (!m && !ksyms_loaded && (ip >> 32 ? ip >> 63 : ip >= 0x80000000ULL))
		load_kallsyms();
	if (m) {
		*dso = find_dso(m);
		s = user_sym(*dso, m, ip);
	} else if (kernel_address(ip)) {
		*kernel = 1;
		s = lookup(ksyms, nr_ksyms, ip);
	}
	if (s && marking)
		s->used = 1;
	return s;
}

static const char *dso_name(const struct pc_dso *d, int kernel)
{
	const char *base;

	if (!d)
		return kernel ? "[kernel]" : "[unknown]";
	/* the file's name as its symbols keep it: it outlives the map */
	base = strrchr(d->path, '/');
	return base ? base + 1 : d->path;
}

/*
 * The name of the function at @ip in @pid, or NULL; *dso says where
 * (a file's base name, or "[kernel]"), *kernel whether it is the
 * kernel's.
 */
const char *pc_resolve(const struct pc_maps *maps, uint32_t pid,
		       uint64_t ip, const char **dso, int *kernel)
{
	const struct pc_dso *d;
	const struct pc_sym *s = resolve(maps, pid, ip, &d, kernel);

	*dso = dso_name(d, *kernel);
	return s ? s->name : NULL;
}

/**
 * pc_resolve_frame() - what a profile's frame says of @ip in @pid
 * @maps:	the task's mappings
 * @pid:	the task
 * @ip:		the address
 * @f:		filled: the function (or NULL) and its start, else @ip; the
 *		file's whole path and build-id (hex, or NULL); the kernel
 *
 * The strings live as long as the tool.
 */
void pc_resolve_frame(const struct pc_maps *maps, uint32_t pid, uint64_t ip,
		      struct pc_frame *f)
{
	const struct pc_dso *d;
	const struct pc_sym *s = resolve(maps, pid, ip, &d, &f->kernel);

	f->name = s ? s->name : NULL;
	f->addr = s ? s->addr : ip;
	f->dso = d ? d->path : dso_name(NULL, f->kernel);
	f->build_id = d ? d->build_hex : NULL;
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

/**
 * pc_symbols_mark() - remember every symbol resolved from now on
 * @on:		1 to start, 0 to stop
 *
 * record marks the symbols of its samples and their chains, then writes
 * them with pc_symbols_write().
 */
void pc_symbols_mark(int on)
{
	marking = on;
}

/* A symbol's size as written: up to the next one when it has none. */
static uint64_t sym_size(const struct pc_sym *s, int i, int nr)
{
	int k;

	if (s[i].size)
		return s[i].size;
	for (k = i + 1; k < nr; k++)
		if (s[k].addr > s[i].addr)
			return s[k].addr - s[i].addr;
	return 0;
}

/* An item's body being made: a buffer that grows. */
struct item_buf {
	char *p;
	size_t len, cap;
};

static void *item_put(struct item_buf *b, const void *data, size_t len)
{
	void *at;

	b->p = pc_grow(b->p, &b->cap, b->len + len, 1);
	at = b->p + b->len;
	if (data)
		memcpy(at, data, len);
	else
		memset(at, 0, len);
	b->len += len;
	return at;
}

/*
 * The used symbols of @s (@nr) into @b as struct pc_item_sym, their
 * names appended to @names (offsets from its start): how many.
 */
static uint32_t put_syms(struct item_buf *b, struct item_buf *names,
			 const struct pc_sym *s, int nr)
{
	uint32_t n = 0;
	int i;

	for (i = 0; i < nr; i++) {
		struct pc_item_sym is;

		if (!s[i].used)
			continue;
		memset(&is, 0, sizeof(is));
		is.addr = s[i].addr;
		is.size = sym_size(s, i, nr);
		is.name = names->len;
		is.fp = s[i].fp;
		item_put(b, &is, sizeof(is));
		item_put(names, s[i].name, strlen(s[i].name) + 1);
		n++;
	}
	return n;
}

static int any_used(const struct pc_sym *s, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (s[i].used)
			return 1;
	return 0;
}

/*
 * Emit @b's fixed part and symbols, then @names, as one item of @type;
 * an item too large for its 32-bit size is left out, and said.
 */
static int emit(struct item_buf *b, struct item_buf *names, uint32_t type,
		const char *what,
		void (*write)(void *ctx, uint32_t type, const void *body,
			      size_t len), void *ctx)
{
	int done = b->len + names->len <= UINT32_MAX - 64;

	item_put(b, names->p, names->len);
	if (done)
		write(ctx, type, b->p, b->len);
	else
		pc_warn("the symbols of %s are too many for one item: not written",
			what);
	b->len = 0;
	names->len = 0;
	return done;
}

/**
 * pc_symbols_write() - write the symbols marked, as record file items
 * @write:	called for each item: its type, body and length
 * @ctx:	for @write
 *
 * A DSO item for each file with a marked symbol, its path, build-id and
 * program headers with them; a KSYMS item for the kernel's, when
 * /proc/kallsyms named them.
 *
 * Return: how many items were written.
 */
int pc_symbols_write(void (*write)(void *ctx, uint32_t type,
				    const void *body, size_t len),
		      void *ctx)
{
	struct item_buf b = { 0 }, names = { 0 };
	int i, k, n = 0;
	uint32_t nr;

	for (i = 0; i < nr_dsos; i++) {
		const struct pc_dso *d = &dsos[i];
		struct pc_item_dso *h;

		if (!any_used(d->sym, d->nr_sym))
			continue;
		item_put(&b, NULL, sizeof(*h));
		item_put(&names, d->path, strlen(d->path) + 1);
		for (k = 0; k < d->nr_load; k++) {
			struct pc_item_load l = { d->load[k].offset,
						  d->load[k].vaddr,
						  d->load[k].filesz };

			item_put(&b, &l, sizeof(l));
		}
		nr = put_syms(&b, &names, d->sym, d->nr_sym);
		h = (void *)b.p;	/* after put_syms(), which moves it */
		h->nr_sym = nr;
		h->dev = d->dev;
		h->ino = d->ino;
		h->nr_load = d->nr_load;
		h->strings = names.len;
		h->build_id_len = d->build_id_len;
		memcpy(h->build_id, d->build_id, d->build_id_len);
		n += emit(&b, &names, PC_ITEM_DSO, d->path, write, ctx);
	}
	if (any_used(ksyms, nr_ksyms) && !kstart) {
		struct pc_item_ksyms *h;

		item_put(&b, NULL, sizeof(*h));
		nr = put_syms(&b, &names, ksyms, nr_ksyms);
		h = (void *)b.p;
		h->nr_sym = nr;
		h->kstart = ksyms[0].addr;
		h->strings = names.len;
		n += emit(&b, &names, PC_ITEM_KSYMS, "the kernel", write,
			  ctx);
	}
	free(b.p);
	free(names.p);
	return n;
}

/* A record file's field: in the byte order it was written in. */
static uint32_t f32(uint32_t v, int swap)
{
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t f64(uint64_t v, int swap)
{
	return swap ? __builtin_bswap64(v) : v;
}

/*
 * @nr struct pc_item_sym at @at, names in the @strings bytes at @str
 * (the last a NUL): copied, by address. Return: the symbols, or NULL
 * when a name is not in the strings.
 */
static struct pc_sym *load_syms(const char *at, uint32_t nr, char *str,
				uint32_t strings, int swap)
{
	struct pc_sym *s = pc_zalloc((nr ? nr : 1) * sizeof(*s));
	uint32_t i;

	for (i = 0; i < nr; i++) {
		struct pc_item_sym is;

		memcpy(&is, at + i * sizeof(is), sizeof(is));
		if (f32(is.name, swap) >= strings) {
			free(s);
			return NULL;
		}
		s[i].addr = f64(is.addr, swap);
		s[i].size = f64(is.size, swap);
		s[i].name = str + f32(is.name, swap);
		s[i].fp = (int32_t)f32(is.fp, swap);
		if (s[i].fp < -1 || s[i].fp > 1)
			s[i].fp = -1;
	}
	qsort(s, nr, sizeof(*s), cmp_sym);
	return s;
}

/*
 * Files a record file's DSO items are checked against, at most: each
 * check opens and reads a file's head, and a file is any bytes.
 */
#define PC_BUILD_ID_CHECKS	64
/* Where a file's build-id note is looked for: its first MiB. */
#define PC_BUILD_ID_HEAD	(1 << 20)

/*
 * A regular file at @d's path with another build-id: said. Only a
 * regular file (no link at its end, no device: pc_open_regular()), its
 * head alone, and for the first PC_BUILD_ID_CHECKS items; a file with
 * no build-id note is not told apart.
 */
static void check_build_id(const struct pc_dso *d)
{
	static int checks;
	uint8_t id[PC_BUILD_ID_MAX];
	uint32_t len = 0;
	struct elf_file e;
	char *here;
	void *map;
	int fd;

	if (!d->build_id_len || d->path[0] != '/' ||
	    checks++ >= PC_BUILD_ID_CHECKS)
		return;
	fd = pc_open_regular(d->path);
	if (fd < 0)
		return;
	map = read_elf(fd, &e, PC_BUILD_ID_HEAD);
	if (!map)
		return;
	elf_build_id(&e, id, &len);
	free(map);
	if (!len || (len == d->build_id_len && !memcmp(id, d->build_id, len)))
		return;
	here = hex(id, len);
	pc_warn("%s here has build-id %s, the recording's had %s: its samples are named with the recording's symbols",
		d->path, here, d->build_hex);
	free(here);
}

/**
 * pc_symbols_load() - take a record file's DSO or KSYMS item
 * @type:	PC_ITEM_DSO or PC_ITEM_KSYMS
 * @body:	its body (any alignment)
 * @blen:	the body's length
 * @swap:	the file is of the other byte order
 *
 * Before anything is resolved. The file's symbols then name its
 * addresses: no ELF file is read for that file (by path and identity),
 * and /proc/kallsyms not at all when the item is the kernel's. A later
 * item for the same file is ignored.
 *
 * Return: 0, or -1 for an item that does not hold what it says.
 */
int pc_symbols_load(uint32_t type, const void *body, size_t blen, int swap)
{
	const char *p = body;
	uint64_t need;
	uint32_t nr_load = 0, nr_sym, strings, i;
	struct pc_item_dso h;
	struct pc_item_ksyms kh;
	struct pc_sym *s;
	struct pc_dso *d;
	size_t fixed;
	char *str;

	if (type == PC_ITEM_DSO) {
		if (blen < sizeof(h))
			return -1;
		memcpy(&h, p, sizeof(h));
		nr_load = f32(h.nr_load, swap);
		nr_sym = f32(h.nr_sym, swap);
		strings = f32(h.strings, swap);
		fixed = sizeof(h);
		if (f32(h.build_id_len, swap) > PC_BUILD_ID_MAX)
			return -1;
	} else {
		if (blen < sizeof(kh))
			return -1;
		memcpy(&kh, p, sizeof(kh));
		nr_sym = f32(kh.nr_sym, swap);
		strings = f32(kh.strings, swap);
		fixed = sizeof(kh);
	}
	/* 32-bit counts: the sum cannot wrap 64 bits */
	need = fixed + (uint64_t)nr_load * sizeof(struct pc_item_load) +
	       (uint64_t)nr_sym * sizeof(struct pc_item_sym) + strings;
	if (need > blen || !strings)
		return -1;
	str = (char *)p + need - strings;
	if (str[strings - 1] != '\0')
		return -1;
	str = pc_zalloc(strings);
	memcpy(str, p + need - strings, strings);
	s = load_syms(p + fixed + nr_load * sizeof(struct pc_item_load),
		      nr_sym, str, strings, swap);
	if (!s) {
		free(str);
		return -1;
	}
	if (type == PC_ITEM_KSYMS) {
		if (ksyms_loaded && kstart) {
			free(s);
			free(str);
			return 0;
		}
		free(ksyms);
		free(kstrings);
		ksyms = s;
		nr_ksyms = nr_sym;
		kstrings = str;
		ksyms_loaded = 1;
		kstart = f64(kh.kstart, swap);
		if (!kstart)
			kstart = 1;	/* 0 is "none": every address then */
		return 0;
	}
	if (dso_cap && *dso_find(str, f64(h.dev, swap), f64(h.ino, swap))) {
		free(s);
		free(str);
		return 0;
	}
	d = dso_add(str, f64(h.dev, swap), f64(h.ino, swap));
	d->sym = s;
	d->nr_sym = nr_sym;
	d->strings = str;
	d->load = pc_zalloc((nr_load ? nr_load : 1) * sizeof(*d->load));
	for (i = 0; i < nr_load; i++) {
		struct pc_item_load l;

		memcpy(&l, p + fixed + i * sizeof(l), sizeof(l));
		d->load[i].offset = f64(l.offset, swap);
		d->load[i].vaddr = f64(l.vaddr, swap);
		d->load[i].filesz = f64(l.filesz, swap);
	}
	d->nr_load = nr_load;
	d->build_id_len = f32(h.build_id_len, swap);
	memcpy(d->build_id, h.build_id, d->build_id_len);
	if (d->build_id_len)
		d->build_hex = hex(d->build_id, d->build_id_len);
	check_build_id(d);
	return 0;
}

/**
 * pc_symbols_no_kallsyms() - name no kernel address from this machine
 *
 * For a file recorded in another boot without the kernel's symbols:
 * this machine's /proc/kallsyms would give wrong names.
 */
void pc_symbols_no_kallsyms(void)
{
	ksyms_loaded = 1;
}
