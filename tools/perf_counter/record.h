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
 * body goes on past struct pc_item_sample with a struct pc_item_chain.
 * A report that knows nothing of chains reads such a file as a flat
 * profile (it reads the fixed part of an item and skips the rest), and
 * every version 2 file written before chains is still a version 2 file.
 */
#ifndef PC_RECORD_H
#define PC_RECORD_H

#include <stdint.h>

#define PC_FILE_MAGIC		"PCRECORD"
#define PC_FILE_VERSION		2
#define PC_FILE_BYTE_ORDER	0x01020304U

struct pc_file_header {
	char magic[8];			/* "PCRECORD", no NUL */
	uint32_t version;		/* 2 */
	uint32_t byte_order;		/* 0x01020304 as the writer stored it */
};

enum pc_item_type {
	PC_ITEM_EVENT	= 1,	/* struct pc_item_event */
	PC_ITEM_COMMAND	= 2,	/* executable path, then argv, NUL-separated */
	PC_ITEM_MMAP	= 3,	/* struct pc_item_mmap */
	PC_ITEM_SAMPLE	= 4,	/* struct pc_item_sample [pc_item_chain] */
	PC_ITEM_LOST	= 5,	/* uint64_t records the kernel dropped */
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
	uint32_t freq;			/* -F as asked, or 0 */
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

#endif /* PC_RECORD_H */
