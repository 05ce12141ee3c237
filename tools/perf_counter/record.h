/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file perf-counter record writes and report reads. All fields are
 * in the byte order of the machine that recorded, told by byte_order;
 * report swaps when it differs. Documentation/perf_counter/tool.rst.
 *
 *   struct pc_file_header, then items until the end of the file, each
 *   a struct pc_item (type, size of the whole item including the 8-byte
 *   item header, a multiple of 8) and its body.
 *
 * Call chains (record -g) extend a SAMPLE item, not the version: its
 * body goes on past the sample's fixed part with a struct pc_item_chain.
 * A report that knows nothing of chains reads such a file as a flat
 * profile (it reads the fixed part of an item and skips the rest).
 *
 * Version 3 (side-band records) is a stream in time order. After the
 * EVENT items (one per -e, numbered from 0 in the order written) and the
 * COMMAND, if there was one, come the tasks that existed when recording
 * began, read from /proc: a COMM item for each thread and a KMMAP item
 * for each executable mapping, all with time 0. Then every SAMPLE, LOST
 * and side-band item the kernel gave, ordered by its time: a report
 * replays them one after the other, and names each sample with the
 * mappings its task had at that moment. The side-band items' bodies are
 * the kernel's records as read() gave them (struct perf_counter_mmap,
 * _comm, _task: <linux/perf_counter.h>). A version 3 SAMPLE's fixed part
 * is struct pc_item_sample3, its LOST's struct pc_item_lost3. Version 2
 * files (samples first, the mappings /proc showed at the end) are still
 * read.
 *
 * Version 4 (periods) is version 3 with the period each sample stands
 * for (PERF_RECORD_PERIOD: the kernel's choice under -F) at the end of
 * its fixed part, struct pc_item_sample4: report weights each sample by
 * it. Versions 2 and 3 carry one period an event, the EVENT item's.
 *
 * Portable files (version 4 too: a report that does not know these
 * items skips them). At its end, record appends what report needs to
 * name the samples on any machine: a HOST item (the boot it recorded
 * in), a DSO item for every file with samples (its build-id, the
 * program headers that place its symbols, and the symbols that hold
 * a sampled address or a chain's) and a KSYMS item with the kernel's
 * symbols that do (only when /proc/kallsyms gave the recorder their
 * addresses). report names addresses with these: it reads no symbols
 * from an ELF file they describe (only the head of a regular file at
 * that path, to tell another build-id), nor /proc/kallsyms unless the
 * file has no KSYMS item and report runs in the boot that recorded.
 */
#ifndef PC_RECORD_H
#define PC_RECORD_H

#include <stdint.h>

#define PC_FILE_MAGIC		"PCRECORD"
#define PC_FILE_VERSION		4
#define PC_FILE_VERSION_MIN	2	/* the oldest report reads */
#define PC_FILE_EVENTS_MAX	64	/* EVENT items a file may hold */
#define PC_FILE_BYTE_ORDER	0x01020304U

struct pc_file_header {
	char magic[8];			/* "PCRECORD", no NUL */
	uint32_t version;		/* 4; 3 and 2 are read */
	uint32_t byte_order;		/* 0x01020304 as the writer stored it */
};

enum pc_item_type {
	PC_ITEM_EVENT	= 1,	/* struct pc_item_event */
	PC_ITEM_COMMAND	= 2,	/* executable path, then argv, NUL-separated */
	PC_ITEM_MMAP	= 3,	/* struct pc_item_mmap (version 2) */
	PC_ITEM_SAMPLE	= 4,	/* struct pc_item_sample[3|4] [pc_item_chain] */
	PC_ITEM_LOST	= 5,	/* uint64_t, or struct pc_item_lost3 */
	/* version 3: the kernel's side-band records, as it gave them */
	PC_ITEM_KMMAP	= 6,	/* struct perf_counter_mmap */
	PC_ITEM_COMM	= 7,	/* struct perf_counter_comm */
	PC_ITEM_FORK	= 8,	/* struct perf_counter_task */
	PC_ITEM_EXIT	= 9,	/* struct perf_counter_task */
	PC_ITEM_LOST_SIDEBAND = 10,	/* struct pc_item_lost3 */
	/* portable files */
	PC_ITEM_HOST	= 11,	/* struct pc_item_host */
	PC_ITEM_DSO	= 12,	/* struct pc_item_dso, loads, syms, strings */
	PC_ITEM_KSYMS	= 13,	/* struct pc_item_ksyms, syms, strings */
	/* record --off-cpu */
	PC_ITEM_SWITCH	= 14,	/* struct pc_item_switch [chain, stack] */
};

struct pc_item {
	uint32_t type;
	uint32_t size;
};

struct pc_item_event {
	uint64_t event_config;
	uint64_t irq_period;
	uint64_t record_type;
	uint64_t extra;
	uint32_t nr_extra;
	uint32_t freq;			/* -F: the kernel's frequency, or 0 */
	char name[];			/* NUL-terminated, padded to 8 */
};

struct pc_item_mmap {
	uint32_t pid;
	uint32_t pad;
	uint64_t start, end, pgoff;
	uint64_t dev, ino;		/* the file's st_dev and st_ino */
	char path[];			/* NUL-terminated, padded to 8 */
};

struct pc_item_sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;			/* CLOCK_MONOTONIC ns */
};

/* Version 3: which event, on which CPU (-1: a task's counter). */
struct pc_item_sample3 {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;			/* CLOCK_MONOTONIC ns */
	uint32_t event;			/* the EVENT item's number */
	int32_t cpu;
};

/* Version 4: and the events (ns for a clock) the sample stands for. */
struct pc_item_sample4 {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;			/* CLOCK_MONOTONIC ns */
	uint32_t event;			/* the EVENT item's number */
	int32_t cpu;
	uint64_t period;
};

/* Version 3: records of @event's queue on @cpu the kernel dropped. */
struct pc_item_lost3 {
	uint64_t lost;
	uint64_t time;			/* when the tool was told */
	uint32_t event;
	int32_t cpu;
};

/*
 * After a sample's fixed part, when its body is longer: the kernel's
 * struct perf_counter_callchain, as it gave it. The words are innermost
 * first, the markers PERF_CONTEXT_KERNEL and _USER among them; flags
 * & PERF_COUNTER_CHAIN_END_MASK tells how the chain ended.
 */
struct pc_item_chain {
	uint32_t nr;			/* words that follow */
	uint32_t flags;			/* PERF_COUNTER_CHAIN_* */
	uint64_t ip[];
};

/*
 * record --off-cpu: a task left the CPU or took it (@out), as the
 * kernel's switch record of @event's counter on @cpu told (-1: a task's
 * counter). A switch-out of PERF_SWITCH_OUT_CHAIN is followed by its
 * chain (struct pc_item_chain and its words, as for a sample) and then
 * @stack_words words of the task's user stack, as the kernel copied
 * them; @flags are the kernel's (PERF_COUNTER_SWITCH_PREEMPTED).
 */
struct pc_item_switch {
	uint32_t pid, tid;
	uint64_t time;			/* CLOCK_MONOTONIC ns */
	uint32_t event;
	int32_t cpu;
	uint32_t out;			/* 1: switch-out, 0: switch-in */
	uint32_t flags;
	uint32_t stack_words;
	uint32_t pad;
};

/* The machine and boot a file was recorded in; strings NUL-padded. */
struct pc_item_host {
	char boot_id[40];		/* /proc/sys/kernel/random/boot_id */
	char release[64];		/* uname -r */
	char machine[24];		/* uname -m */
};

#define PC_BUILD_ID_MAX	32	/* bytes of a build-id kept */

/*
 * A file's symbols: after the fixed part, @nr_load struct pc_item_load
 * (its PT_LOAD headers: a file offset to the address its symbols use),
 * @nr_sym struct pc_item_sym by address, then @strings bytes: the
 * file's path at 0, each name at its offset, all NUL-terminated.
 */
struct pc_item_dso {
	uint64_t dev, ino;		/* the file mapped (st_dev, st_ino) */
	uint32_t nr_load, nr_sym;
	uint32_t strings;
	uint32_t build_id_len;		/* 0: the file has none */
	uint8_t build_id[PC_BUILD_ID_MAX];
};

struct pc_item_load {
	uint64_t offset, vaddr, filesz;
};

struct pc_item_sym {
	uint64_t addr, size;		/* size 0: up to the next symbol */
	uint32_t name;			/* offset in the strings */
	int32_t fp;			/* sets up a frame: 1, 0, -1 unknown */
};

/*
 * The kernel's symbols: @nr_sym struct pc_item_sym, then @strings bytes
 * of names. Addresses from @kstart up are the kernel's.
 */
struct pc_item_ksyms {
	uint64_t kstart;
	uint32_t nr_sym;
	uint32_t strings;
};

#endif /* PC_RECORD_H */
