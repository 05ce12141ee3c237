/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter's probe for each trace event class, made where the
 * class's other probes are (define_trace.h, with CREATE_TRACE_POINTS).
 *
 * A tracepoint counter counts the hits of one tracepoint, whatever its
 * arguments say, so every class gets the same body: hand the counter's
 * data and the place the tracepoint's probes were called from to
 * perf_counter_tp_hit(). Each probe is declared with its class's own
 * prototype, so the tracepoint's indirect call matches its callee's
 * type exactly, as control-flow integrity checks require; its address
 * is in the class (trace_event_class.pc_probe), which is what
 * kernel/perf_counter/tp_counter.c registers on the tracepoint.
 */
#ifdef CONFIG_PERF_COUNTERS_TRACEPOINTS

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
static notrace void							\
pc_trace_##call(void *__data, proto)					\
{									\
	perf_counter_tp_hit(__data, _RET_IP_);				\
}

#undef DECLARE_EVENT_SYSCALL_CLASS
#define DECLARE_EVENT_SYSCALL_CLASS DECLARE_EVENT_CLASS

/* Compiled out: a build-time check that each event fits its class's probe. */
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, call, proto, args)			\
static inline void pc_test_probe_##call(void)				\
{									\
	check_trace_callback_type_##call(pc_trace_##template);		\
}

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))

#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#endif /* CONFIG_PERF_COUNTERS_TRACEPOINTS */
