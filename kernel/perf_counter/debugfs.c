// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: what the subsystem counts about itself, in debugfs.
 *
 * /sys/kernel/debug/perf_counter/ holds statistics for root (each file
 * 0400, in a file system only root may enter): they move with every
 * user's opens, forks and switches, a side channel on what others run.
 * None of them is ABI. The core's files:
 *
 *   objects        "counters N contexts N queues N arrays N tracepoints
 *                  N pages N": the objects alive (objects.c). With every
 *                  counter closed and every task that inherited one
 *                  gone, each is back where it was; the tests' leak
 *                  checks read it.
 *   context_swaps  how many times a task context has been handed from
 *                  one task to another at a switch (swap.c).
 *   context_homes  how many times a parent's context that had swapped
 *                  with a clone has been brought back to its owner
 *                  (home.c).
 *
 * A driver adds its own with pc_debugfs_add() (x86: pmi). On a kernel
 * without CONFIG_DEBUG_FS the calls below do nothing.
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/perf_counter_hw.h>
#include <linux/seq_file.h>

#include "internal.h"

static struct dentry *pc_debugfs_root;

static int pc_objects_show(struct seq_file *m, void *unused)
{
	seq_printf(m,
		   "counters %ld contexts %ld queues %ld arrays %ld tracepoints %ld pages %ld\n",
		   atomic_long_read(&pc_objects[PC_OBJ_COUNTER]),
		   atomic_long_read(&pc_objects[PC_OBJ_CONTEXT]),
		   atomic_long_read(&pc_objects[PC_OBJ_QUEUE]),
		   atomic_long_read(&pc_objects[PC_OBJ_ARRAY]),
		   atomic_long_read(&pc_objects[PC_OBJ_TRACEPOINT]),
		   atomic_long_read(&pc_objects[PC_OBJ_PAGE]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pc_objects);

static int pc_context_swaps_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "%lu\n", pc_ctx_swaps());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pc_context_swaps);

static int pc_context_homes_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "%lu\n", pc_ctx_homings());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pc_context_homes);

/**
 * pc_debugfs_add() - a statistics file in /sys/kernel/debug/perf_counter/
 * @name:	the file's name
 * @fops:	its operations (a seq_file, as DEFINE_SHOW_ATTRIBUTE makes)
 *
 * For root alone (mode 0400). Call it from an initcall after
 * fs_initcall, when the directory exists; the file lasts as long as the
 * kernel. Without debugfs, or if the directory could not be made, it
 * does nothing: statistics are never a reason to fail.
 */
void pc_debugfs_add(const char *name, const struct file_operations *fops)
{
	/* Before fs_initcall the file would land at debugfs's root. */
	if (WARN_ON_ONCE(!pc_debugfs_root))
		return;
	debugfs_create_file(name, 0400, pc_debugfs_root, NULL, fops);
}

/* After debugfs itself (core_initcall), before any driver's device_initcall. */
static int __init pc_debugfs_init(void)
{
	pc_debugfs_root = debugfs_create_dir("perf_counter", NULL);
	pc_debugfs_add("objects", &pc_objects_fops);
	pc_debugfs_add("context_swaps", &pc_context_swaps_fops);
	pc_debugfs_add("context_homes", &pc_context_homes_fops);
	return 0;
}
fs_initcall(pc_debugfs_init);
