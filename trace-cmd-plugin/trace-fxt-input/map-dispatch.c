// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-dispatch.c - what the mapping does with each event, in one place.
 *
 * Every record becomes map-event.c's instant event, which keeps every
 * field.  The events Perfetto draws as something more (context switches,
 * wakeups, task names, trace_marker logs and atrace slices, counters,
 * EventHeader events) are the rows of map_specials[] below: which events,
 * the fields their handler reads (found once per format), and the
 * handler that writes what the mapping derives from the record, after
 * its instant.  An event no row takes is written as its instant alone.
 *
 * Adding a special event is adding a row, and a handler if none of the
 * existing ones fits.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "map-counter.h"
#include "map-dispatch.h"
#include "map-event.h"
#include "map-eventheader.h"
#include "map-field.h"
#include "map-ftrace.h"
#include "map-marker.h"
#include "map-sched.h"
#include "map-special.h"
#include "map-task.h"
#include "perfetto-proto.h"

/* sched events that name a task: the pid field, its comm field. */
#define MAP_NAMES(sys, ev, ...) {					\
	.system = sys, .name = ev, .field = { __VA_ARGS__ },		\
	.write = map_sched_names_write,					\
}

#define MAP_WAKEUP(ev, how) {						\
	.system = "sched", .name = ev,					\
	.field = { "pid", "prio", "target_cpu", "comm" },		\
	.write = map_sched_wakeup_write, .wake = how,			\
}

/* A row's field as a field of its Perfetto event (map-ftrace.c). */
#define PKT(kind, num)	{ MAP_PKT_##kind, num }

/*
 * A kernel event Perfetto's ftrace importer draws, written as its
 * Perfetto event @ev (map-ftrace.c): the fields, then how each becomes
 * a field of the event's message.
 */
#define MAP_FTRACE(sys, evname, ev, fields, ...) {			\
	.system = sys, .name = evname, .field = { fields },		\
	.need = 1, .pkt_write = map_ftrace_write,			\
	.pkt = { .event = ev, .f = { __VA_ARGS__ } },			\
}
#define F(...)	__VA_ARGS__

/*
 * The first row that takes an event is its handler; rows with a NULL
 * name come last, their classify() decides.
 */
const struct map_special map_specials[] = {
	{
		.system = "sched", .name = "sched_switch",
		.field = { "prev_pid", "next_pid", "prev_prio", "next_prio",
			   "prev_state", "prev_comm", "next_comm" },
		.write = map_sched_switch_write,
	},
	MAP_WAKEUP("sched_waking", MAP_WAKE_WAKING),
	MAP_WAKEUP("sched_wakeup", MAP_WAKE_UP),
	MAP_WAKEUP("sched_wakeup_new", MAP_WAKE_NEW),
	{
		.system = "ftrace", .name = "print", .field = { "buf" },
		.write = map_marker_write,
	},
	{
		/* a process the recording saw start: the process tree */
		.system = "sched", .name = "sched_process_fork",
		.field = { "child_pid", "child_comm", "parent_pid",
			   "parent_comm" },
		.write = map_sched_names_write,
		.pkt_write = map_ftrace_fork_write,
	},
	MAP_NAMES("sched", "sched_process_exit", "pid", "comm"),
	{
		/* Perfetto ends the thread (ParseSchedProcessFree) */
		.system = "sched", .name = "sched_process_free",
		.field = { "pid", "comm" },
		.write = map_sched_names_write,
		.pkt_write = map_ftrace_write,
		.pkt = { .event = PFT_EV_SCHED_PROCESS_FREE,
			 .f = { PKT(INT, 2), PKT(STR, 1) } },
	},
	MAP_NAMES("sched", "sched_process_wait", "pid", "comm"),
	MAP_NAMES("sched", "sched_stat_runtime", "pid", "comm"),
	MAP_NAMES("sched", "sched_migrate_task", "pid", "comm"),
	{
		/*
		 * Perfetto starts the thread, or the process and its main
		 * thread, there, its parent the forking task's process
		 * (ParseTaskNewTask); the second pair of names unused
		 */
		.system = "task", .name = "task_newtask",
		.field = { "pid", "comm", NULL, NULL, "clone_flags",
			   "oom_score_adj" }, .need = 2,
		.write = map_sched_names_write,
		.pkt_write = map_ftrace_newtask_write,
		.pkt = { .event = PFT_EV_TASK_NEWTASK,
			 .f = { PKT(INT, PFT_NEWTASK_PID),
				PKT(STR, PFT_NEWTASK_COMM), PKT(NONE, 0),
				PKT(NONE, 0),
				PKT(UINT, PFT_NEWTASK_CLONE_FLAGS),
				PKT(INT, PFT_NEWTASK_OOM_SCORE_ADJ) } },
	},
	{
		/* the thread's name, the process's if it leads one */
		.system = "task", .name = "task_rename",
		.field = { "pid", "newcomm" },
		.write = map_sched_names_write, .rename = true,
		.pkt_write = map_ftrace_rename_write,
		.pkt = { .event = PFT_EV_TASK_RENAME,
			 .f = { PKT(INT, 1), PKT(STR, 3) } },
	},
	{
		/* CPU counter tracks "cpufreq" (ParseCpuFreq) */
		.system = "power", .name = "cpu_frequency",
		.field = { "state", "cpu_id" }, .need = 1,
		.write = map_counter_write,
		.counter = { "cpufreq.cpu", "kHz", MAP_COUNTER_CPU },
		.pkt_write = map_ftrace_write,
		.pkt = { .event = PFT_EV_CPU_FREQUENCY, .instead = true,
			 .f = { PKT(UINT, 1), PKT(UINT, 2) } },
	},
	{
		/* "cpuidle" (ParseCpuIdle), 4294967295 the exit */
		.system = "power", .name = "cpu_idle",
		.field = { "state", "cpu_id" }, .need = 1,
		.write = map_counter_write,
		.counter = { "cpuidle.cpu", "state", MAP_COUNTER_CPU, true },
		.pkt_write = map_ftrace_write,
		.pkt = { .event = PFT_EV_CPU_IDLE, .instead = true,
			 .f = { PKT(UINT, 1), PKT(UINT, 2) } },
	},
	{
		/* "Cpu N Max/Min Freq Limit" (ParseCpuFrequencyLimits) */
		.system = "power", .name = "cpu_frequency_limits",
		.field = { "max_freq", "cpu_id", "min_freq" }, .need = 1,
		.write = map_counter_write,
		.counter = { "cpufreq_max.cpu", "kHz", MAP_COUNTER_CPU },
		.pkt_write = map_ftrace_write,
		.pkt = { .event = PFT_EV_CPU_FREQUENCY_LIMITS, .instead = true,
			 .f = { PKT(UINT, 2), PKT(UINT, 3), PKT(UINT, 1) } },
	},
	{
		.system = "power", .name = "pm_qos_update_target",
		.field = { "curr_value" }, .need = 1,
		.write = map_counter_write,
		.counter = { "pm_qos", "value", MAP_COUNTER_SYSTEM },
	},
	{
		/* the member tells the series; the mm, the process */
		.system = "kmem", .name = "rss_stat",
		.field = { "size", "member", "mm_id", "curr" }, .need = 1,
		.write = map_counter_write,
		.counter = { NULL, "bytes", MAP_COUNTER_RSS },
		/* Perfetto's own mem.rss.* (RssStatTracker::ParseRssStat) */
		.pkt_write = map_ftrace_write,
		.pkt = { .event = PFT_EV_RSS_STAT, .instead = true,
			 .f = { PKT(INT, 2), PKT(INT, 1), PKT(UINT, 4),
				PKT(UINT, 3) } },
	},
	/* slices "IRQ (name)" on "Irq Cpu N" (ParseIrqHandlerEntry/Exit) */
	MAP_FTRACE("irq", "irq_handler_entry", PFT_EV_IRQ_HANDLER_ENTRY,
		   F("irq", "name"), PKT(INT, 1), PKT(STR, 2)),
	MAP_FTRACE("irq", "irq_handler_exit", PFT_EV_IRQ_HANDLER_EXIT,
		   F("irq", "ret"), PKT(INT, 1), PKT(INT, 2)),
	/*
	 * "SoftIrq Cpu N", named after the vector (ParseSoftIrqEntry; one
	 * past the kernel's ten has no name there: left out)
	 */
	{
		.system = "irq", .name = "softirq_entry", .field = { "vec" },
		.need = 1, .pkt_write = map_ftrace_write,
		.pkt = { .event = PFT_EV_SOFTIRQ_ENTRY, .below = 10,
			 .f = { PKT(UINT, 1) } },
	},
	{
		.system = "irq", .name = "softirq_exit", .field = { "vec" },
		.need = 1, .pkt_write = map_ftrace_write,
		.pkt = { .event = PFT_EV_SOFTIRQ_EXIT, .below = 10,
			 .f = { PKT(UINT, 1) } },
	},
	/* slices on the worker's thread, named after the function */
	MAP_FTRACE("workqueue", "workqueue_execute_start",
		   PFT_EV_WORKQUEUE_EXECUTE_START, F("work", "function"),
		   PKT(UINT, 1), PKT(SYM, 2)),
	MAP_FTRACE("workqueue", "workqueue_execute_end",
		   PFT_EV_WORKQUEUE_EXECUTE_END, F("work", "function"),
		   PKT(UINT, 1), PKT(SYM, 2)),
	/* slices on a CPU's "hrtimer" track, named after the function */
	MAP_FTRACE("timer", "hrtimer_expire_entry",
		   PFT_EV_HRTIMER_EXPIRE_ENTRY,
		   F("hrtimer", "now", "function"),
		   PKT(UINT, 1), PKT(INT, 2), PKT(SYM, 3)),
	MAP_FTRACE("timer", "hrtimer_expire_exit",
		   PFT_EV_HRTIMER_EXPIRE_EXIT, F("hrtimer"), PKT(UINT, 1)),
	/*
	 * The function_graph tracer's calls: nested slices named after
	 * the function (its kernel symbol, interned) on the thread's
	 * "Funcgraph" track, the idle task's on "swapperN -funcgraph" of
	 * its CPU (ParseFuncgraphEntry/ParseFuncgraphExit)
	 */
	MAP_FTRACE("ftrace", "funcgraph_entry", PFT_EV_FUNCGRAPH_ENTRY,
		   F("func", "depth"), PKT(SYM, PFT_FGRAPH_ENTRY_FUNC),
		   PKT(INT, PFT_FGRAPH_ENTRY_DEPTH)),
	MAP_FTRACE("ftrace", "funcgraph_exit", PFT_EV_FUNCGRAPH_EXIT,
		   F("func", "depth", "overrun", "calltime", "rettime"),
		   PKT(SYM, PFT_FGRAPH_EXIT_FUNC),
		   PKT(INT, PFT_FGRAPH_EXIT_DEPTH),
		   PKT(UINT, PFT_FGRAPH_EXIT_OVERRUN),
		   PKT(UINT, PFT_FGRAPH_EXIT_CALLTIME),
		   PKT(UINT, PFT_FGRAPH_EXIT_RETTIME)),
	/*
	 * A slice per syscall on the thread, named from Perfetto's own
	 * syscall table by SystemInfo's machine (ParseSysEnterEvent/
	 * ParseSysExitEvent, SyscallTracker::Enter/Exit), with its return
	 * value.  Not its six arguments: the sys_enter instant at the
	 * slice's start has them, and they would make the packets twice as
	 * big (28 of the 69 bytes a syscall's two events take).  Not with
	 * --fxt-sched (.instead, no FXT record to replace): its atrace
	 * slices are FXT's, which Perfetto would not nest in them
	 * (map-marker.c).
	 */
	{
		.system = "raw_syscalls", .name = "sys_enter",
		.field = { "id" }, .need = 1,
		.pkt_write = map_ftrace_syscall_write,
		.pkt = { .event = PFT_EV_SYS_ENTER, .instead = true,
			 .f = { PKT(INT, PFT_SYS_ID) } },
	},
	{
		.system = "raw_syscalls", .name = "sys_exit",
		.field = { "id", "ret" }, .need = 1,
		.pkt_write = map_ftrace_syscall_write,
		.pkt = { .event = PFT_EV_SYS_EXIT, .instead = true,
			 .f = { PKT(INT, PFT_SYS_ID),
				PKT(INT, PFT_SYS_EXIT_RET) } },
	},
	/*
	 * More of the events Perfetto's ftrace importer draws (ftrace_parser.cc, ParseFtraceEvent's switch), each row's
	 * comment naming the function that draws it.  Only the fields
	 * Perfetto reads, and the ones that identify the event, are written
	 * (seven at most); the instant keeps every field.
	 */
	/* "<dev> Received KB" counter (ParseNetifReceiveSkb) */
	MAP_FTRACE("net", "netif_receive_skb", PFT_EV_NETIF_RECEIVE_SKB,
		   F("len", "name", "skbaddr"),
		   PKT(UINT, 1), PKT(STR, 2), PKT(UINT, 3)),
	/* "<dev> Transmitted KB", when rc is 0 (ParseNetDevXmit) */
	MAP_FTRACE("net", "net_dev_xmit", PFT_EV_NET_DEV_XMIT,
		   F("len", "name", "rc", "skbaddr"),
		   PKT(UINT, 1), PKT(STR, 2), PKT(INT, 3), PKT(UINT, 4)),
	/* slices on "Napi Gro Cpu N" (ParseNapiGroReceiveEntry/Exit) */
	MAP_FTRACE("net", "napi_gro_receive_entry",
		   PFT_EV_NAPI_GRO_RECEIVE_ENTRY,
		   F("len", "name", "napi_id", "skbaddr", "protocol",
		     "data_len", "truesize"),
		   PKT(UINT, 7), PKT(STR, 10), PKT(UINT, 11), PKT(UINT, 15),
		   PKT(UINT, 13), PKT(UINT, 1), PKT(UINT, 16)),
	MAP_FTRACE("net", "napi_gro_receive_exit",
		   PFT_EV_NAPI_GRO_RECEIVE_EXIT, F("ret"), PKT(INT, 1)),
	/* "TCP stream#N" state slices (ParseInetSockSetState) */
	MAP_FTRACE("sock", "inet_sock_set_state", PFT_EV_INET_SOCK_SET_STATE,
		   F("skaddr", "oldstate", "newstate", "sport", "dport",
		     "family", "protocol"),
		   PKT(UINT, 8), PKT(INT, 5), PKT(INT, 4), PKT(UINT, 9),
		   PKT(UINT, 2), PKT(UINT, 3), PKT(UINT, 6)),
	/* "TCP Retransmit Skb" slices (ParseTcpRetransmitSkb) */
	MAP_FTRACE("tcp", "tcp_retransmit_skb", PFT_EV_TCP_RETRANSMIT_SKB,
		   F("skbaddr", "skaddr", "state", "sport", "dport"),
		   PKT(UINT, 5), PKT(UINT, 4), PKT(INT, 7), PKT(UINT, 6),
		   PKT(UINT, 2)),
	/* the "Kfree Skb IP Prot" counter (ParseKfreeSkb) */
	MAP_FTRACE("skb", "kfree_skb", PFT_EV_KFREE_SKB,
		   F("skbaddr", "location", "protocol"),
		   PKT(UINT, 3), PKT(UINT, 1), PKT(UINT, 2)),
	/* the process's "oom_score_adj" counter (ParseOOMScoreAdjUpdate) */
	MAP_FTRACE("oom", "oom_score_adj_update", PFT_EV_OOM_SCORE_ADJ_UPDATE,
		   F("pid", "comm", "oom_score_adj"),
		   PKT(INT, 3), PKT(STR, 1), PKT(INT, 2)),
	/* thread slices (ParseDirectReclaimBegin/End, ParseShrinkSlab*) */
	MAP_FTRACE("vmscan", "mm_vmscan_direct_reclaim_begin",
		   PFT_EV_DIRECT_RECLAIM_BEGIN,
		   F("order", "gfp_flags", "may_writepage"),
		   PKT(INT, 1), PKT(UINT, 3), PKT(INT, 2)),
	MAP_FTRACE("vmscan", "mm_vmscan_direct_reclaim_end",
		   PFT_EV_DIRECT_RECLAIM_END, F("nr_reclaimed"), PKT(UINT, 1)),
	MAP_FTRACE("vmscan", "mm_shrink_slab_start", PFT_EV_SHRINK_SLAB_START,
		   F("shrink", "shr", "nid", "nr_objects_to_shrink",
		     "total_scan", "priority", "cache_items"),
		   PKT(SYM, 8), PKT(UINT, 7), PKT(INT, 10), PKT(INT, 5),
		   PKT(UINT, 9), PKT(INT, 11), PKT(UINT, 1)),
	MAP_FTRACE("vmscan", "mm_shrink_slab_end", PFT_EV_SHRINK_SLAB_END,
		   F("shr", "shrink", "nid", "unused_scan", "new_scan",
		     "retval", "total_scan"),
		   PKT(UINT, 3), PKT(UINT, 4), PKT(INT, 7), PKT(INT, 6),
		   PKT(INT, 1), PKT(INT, 2), PKT(INT, 5)),
	/* instant slices on the thread (ParseSignalGenerate/Deliver) */
	MAP_FTRACE("signal", "signal_generate", PFT_EV_SIGNAL_GENERATE,
		   F("sig", "code", "comm", "pid", "group", "result"),
		   PKT(INT, 6), PKT(INT, 1), PKT(STR, 2), PKT(INT, 4),
		   PKT(INT, 3), PKT(INT, 5)),
	MAP_FTRACE("signal", "signal_deliver", PFT_EV_SIGNAL_DELIVER,
		   F("sig", "code", "sa_flags"),
		   PKT(INT, 3), PKT(INT, 1), PKT(UINT, 2)),
	/* async "Suspend/Resume Latency" slices (ParseSuspendResume) */
	MAP_FTRACE("power", "suspend_resume", PFT_EV_SUSPEND_RESUME,
		   F("action", "val", "start"),
		   PKT(KSTR, 1), PKT(INT, 2), PKT(UINT, 3)),
	/* "CPU Hotplug" slices per CPU (ParseCpuhpEnter/Exit) */
	MAP_FTRACE("cpuhp", "cpuhp_enter", PFT_EV_CPUHP_ENTER,
		   F("cpu", "target", "idx", "fun"),
		   PKT(UINT, 1), PKT(INT, 4), PKT(INT, 3), PKT(UINT, 2)),
	MAP_FTRACE("cpuhp", "cpuhp_multi_enter", PFT_EV_CPUHP_MULTI_ENTER,
		   F("cpu", "target", "idx", "fun"),
		   PKT(UINT, 1), PKT(INT, 4), PKT(INT, 3), PKT(UINT, 2)),
	MAP_FTRACE("cpuhp", "cpuhp_exit", PFT_EV_CPUHP_EXIT,
		   F("cpu", "state", "idx", "ret"),
		   PKT(UINT, 1), PKT(INT, 4), PKT(INT, 2), PKT(INT, 3)),
	/* a counter per thermal zone (ThermalTracker) */
	MAP_FTRACE("thermal", "thermal_temperature",
		   PFT_EV_THERMAL_TEMPERATURE,
		   F("thermal_zone", "id", "temp_prev", "temp"),
		   PKT(STR, 4), PKT(INT, 1), PKT(INT, 3), PKT(INT, 2)),
	/*
	 * "<name> Frequency" and "<name> State" counters (ParseClockSetRate,
	 * ParseClockEnable/Disable): power:clock_*, of kernels that have
	 * them (6.18 has clk:clk_* instead, which Perfetto keeps as raw rows)
	 */
	MAP_FTRACE("power", "clock_set_rate", PFT_EV_CLOCK_SET_RATE,
		   F("name", "state", "cpu_id"),
		   PKT(STR, 1), PKT(UINT, 2), PKT(UINT, 3)),
	MAP_FTRACE("power", "clock_enable", PFT_EV_CLOCK_ENABLE,
		   F("name", "state", "cpu_id"),
		   PKT(STR, 1), PKT(UINT, 2), PKT(UINT, 3)),
	MAP_FTRACE("power", "clock_disable", PFT_EV_CLOCK_DISABLE,
		   F("name", "state", "cpu_id"),
		   PKT(STR, 1), PKT(UINT, 2), PKT(UINT, 3)),
	/* "block_io" slices per device (ParseBlockIoStart/Done) */
	MAP_FTRACE("block", "block_io_start", PFT_EV_BLOCK_IO_START,
		   F("dev", "sector", "nr_sector", "bytes", "ioprio", "rwbs",
		     "comm"),
		   PKT(UINT, 1), PKT(UINT, 2), PKT(UINT, 3), PKT(UINT, 4),
		   PKT(UINT, 5), PKT(STR, 6), PKT(STR, 7)),
	MAP_FTRACE("block", "block_io_done", PFT_EV_BLOCK_IO_DONE,
		   F("dev", "sector", "nr_sector", "bytes", "ioprio", "rwbs",
		     "comm"),
		   PKT(UINT, 1), PKT(UINT, 2), PKT(UINT, 3), PKT(UINT, 4),
		   PKT(UINT, 5), PKT(STR, 6), PKT(STR, 7)),
	/*
	 * Android's sched_blocked_reason: the function a D row of the
	 * thread blocked in (ParseSchedBlockedReason -> ThreadStateTracker::
	 * PushBlockedReason), its symbol interned
	 */
	MAP_FTRACE("sched", "sched_blocked_reason", PFT_EV_SCHED_BLOCKED_REASON,
		   F("pid", "caller", "io_wait"),
		   PKT(INT, 1), PKT(SYM, 2), PKT(UINT, 3)),
	/* "LocalTimer" slices on "Irq Cpu N" (ParseLocalTimerEntry/Exit) */
	MAP_FTRACE("irq_vectors", "local_timer_entry", PFT_EV_LOCAL_TIMER_ENTRY,
		   F("vector"), PKT(INT, 1)),
	MAP_FTRACE("irq_vectors", "local_timer_exit", PFT_EV_LOCAL_TIMER_EXIT,
		   F("vector"), PKT(INT, 1)),
	{
		/* user_events whose format EventHeader's header opens */
		.classify = map_eventheader_classify,
		.write = map_eventheader_write,
	},
};

const unsigned int map_nr_specials =
	sizeof(map_specials) / sizeof(map_specials[0]);

/* Whether row @s takes @me; its fields in me->sf[] if so. */
static bool map_dispatch_takes(const struct map_special *s,
			       struct map_event *me)
{
	struct tep_event *e = me->event;
	unsigned int i;

	if ((s->system && strcmp(e->system, s->system)) ||
	    (s->name && strcmp(e->name, s->name)))
		return false;
	for (i = 0; i < MAP_SPECIAL_FIELDS; i++) {
		me->sf[i] = s->field[i] ? tep_find_field(e, s->field[i]) :
					  NULL;
		if (i < s->need && !me->sf[i])
			return false;
	}
	return !s->classify || s->classify(me);
}

/*
 * The row of map_specials[] that takes @me, set in me->special, or NULL:
 * @me is written as its instant alone.
 */
const struct map_special *map_dispatch_classify(struct map_event *me)
{
	unsigned int i;

	me->special = NULL;
	for (i = 0; i < map_nr_specials; i++)
		if (map_dispatch_takes(&map_specials[i], me)) {
			me->special = &map_specials[i];
			return me->special;
		}
	memset(me->sf, 0, sizeof(me->sf));
	return NULL;
}

/*
 * What the mapping knows of @rec's event, by its id: described and
 * classified the first time the buffer meets it.  NULL for an unknown
 * id or when out of memory.
 */
struct map_event *map_dispatch_event(struct map_ctx *ctx,
				     struct map_buffer *buf,
				     struct tep_record *rec)
{
	struct tep_event *event;
	uint64_t v;
	int id;

	if (map_field_u64(buf, rec, ctx->common_type, &v))
		id = v;
	else
		id = tep_data_type(buf->tep, rec);
	if (id < 0)
		return NULL;
	if (id < buf->nr_events && buf->events[id])
		return buf->events[id];
	if (id >= buf->nr_events) {
		int n = id + 64;
		struct map_event **ev = realloc(buf->events, n * sizeof(*ev));

		if (!ev)
			return NULL;
		memset(ev + buf->nr_events, 0,
		       (n - buf->nr_events) * sizeof(*ev));
		buf->events = ev;
		buf->nr_events = n;
	}
	event = tep_find_event(buf->tep, id);
	if (!event)
		return NULL;
	buf->events[id] = map_event_new(ctx, event);
	if (buf->events[id])
		map_dispatch_classify(buf->events[id]);
	return buf->events[id];
}

/* What map_dispatch_event() and the handlers hold, freed. */
void map_dispatch_free(struct map_ctx *ctx)
{
	int i, id;

	for (i = 0; i < ctx->nr_bufs; i++) {
		struct map_buffer *b = &ctx->bufs[i];

		for (id = 0; id < b->nr_events; id++)
			map_event_free(b->events[id]);
		free(b->events);
		b->events = NULL;
		b->nr_events = 0;
	}
	map_eventheader_free(ctx);
}

/*
 * FNV-1a 64 of a record's bytes as far as its fields reach (a kernel
 * event's; a user_event's bytes past them are its payload): equal
 * records of two buffers.  The alignment padding past a kernel event's
 * fields holds what each ring buffer had there.
 */
static uint64_t map_rec_hash(struct map_event *me, struct tep_record *rec)
{
	const unsigned char *p = rec->data;
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned int i, end = me->user_data ? (unsigned int)rec->size :
					      map_field_data_end(me, rec);

	for (i = 0; i < end; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * How far apart two buffers' copies of one event may be: the kernel
 * writes them one after the other from the same tracepoint call, each
 * with its own clock read.
 */
#define MAP_DUP_WINDOW_NS	100000

/*
 * Whether @rec restates a record another buffer gave shortly before on
 * the same CPU, equal as far as a 64-bit hash of the bytes tells: the
 * kernel wrote one event into two ring buffers (both recording
 * sched_switch, say).  Its instant stays in each buffer's provider, but
 * what the mapping derives from the event (scheduling, names, logs,
 * slices, counters) is written once.  A copy matches one record only, so
 * events that really repeat stay.
 */
static bool map_dispatch_restated(struct map_ctx *ctx,
				  struct map_buffer *buf,
				  struct map_event *me,
				  struct tep_record *rec)
{
	struct map_cpu *c;
	struct map_dup *d;
	uint64_t h;
	unsigned int i;

	if (ctx->nr_bufs < 2)
		return false;
	c = map_cpu_get(ctx, rec->cpu);
	if (!c)
		return false;
	h = map_rec_hash(me, rec);
	for (i = 0; i < MAP_DUP_SLOTS; i++) {
		d = &c->dup[i];
		if (!d->buf || d->hash != h || d->buf == buf ||
		    rec->ts - d->ts > MAP_DUP_WINDOW_NS)
			continue;
		d->buf = NULL;
		return true;
	}
	d = &c->dup[c->next];
	c->next = (c->next + 1) % MAP_DUP_SLOTS;
	*d = (struct map_dup){ .ts = rec->ts, .hash = h, .buf = buf };
	return false;
}

/*
 * @rec as its instant event on @thread, then, unless another buffer just
 * gave the same record, what its row of map_specials[] derives from it.
 */
int map_dispatch_write(struct map_ctx *ctx, struct map_buffer *buf,
		       struct map_event *me, struct tep_record *rec,
		       const struct fxt_thread *thread)
{
	const struct map_special *s = me->special;
	bool pkt;
	int ret;

	ret = map_event_write(ctx, buf, me, rec, thread);
	if (!ctx->opts->fxt_sched)
		map_sched_seen(ctx, rec, (int)thread->tid);
	if (ret < 0 || !s || map_dispatch_restated(ctx, buf, me, rec))
		return ret;
	/* a packet "instead" of FXT records, unless FXT was asked for */
	pkt = s->pkt_write && !(s->pkt.instead && ctx->opts->fxt_sched);
	if (s->write && !(pkt && s->pkt.instead))
		ret = s->write(ctx, buf, me, rec, thread);
	if (ret >= 0 && pkt)
		ret = s->pkt_write(ctx, buf, me, rec);
	return ret;
}
