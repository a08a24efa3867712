/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-packet.h - the Perfetto packets of a conversion, in FXT blob
 * records of blob type 3 (map-packet.c): ftrace events by CPU, in
 * FtraceEventBundles (sched_switch and sched_waking in their compact
 * form), and the packets that speak for the whole recording (system
 * info, the idle thread, the process tree, ftrace statistics).
 *
 * Perfetto joins the payloads of all such blobs, in file order, into
 * one protobuf stream and sorts what it reads by time with the FXT
 * records, so the packets may come anywhere in the file; the stream
 * must be exact, since one malformed byte fails the whole import.
 */
#ifndef _MAP_PACKET_H
#define _MAP_PACKET_H

#include "map-ctx.h"
#include "pb.h"

/* An FtraceEvent being written (map_pkt_event() to map_pkt_event_end()). */
struct map_pkt_ev {
	struct pb_buf	*b;		/* where its fields go */
	size_t		outer, inner;	/* pb_open()'s marks */
	unsigned int	cpu;
};

/*
 * Start the packets: system info from the file's options, the idle
 * thread marked; @first_ts is the recording's first timestamp.
 */
int map_pkt_start(struct map_ctx *ctx, uint64_t first_ts);

/*
 * An FtraceEvent in @cpu's bundle at @ts by task @pid, its event message
 * field @event opened in @e->b: write the message's fields there, then
 * call map_pkt_event_end().  Returns 1, 0 when @cpu's events are no
 * packets (Perfetto's CPU limit), or -ENOMEM.
 */
int map_pkt_event(struct map_ctx *ctx, unsigned int cpu, uint64_t ts,
		  int32_t pid, uint32_t event, struct map_pkt_ev *e);
int map_pkt_event_end(struct map_ctx *ctx, struct map_pkt_ev *e);

/*
 * @desc, the GenericEventDescriptor of described events of field @id
 * (@len bytes), into @cpu's bundle unless this CPU's bundles of this
 * chunk had it already: call before the CPU's event of @id at @ts.  0,
 * or -ENOMEM.
 */
int map_pkt_describe(struct map_ctx *ctx, unsigned int cpu, uint64_t ts,
		     uint32_t id, const void *desc, size_t len);

/*
 * The same FtraceEvent when its message holds only @n varint fields
 * (@proto[i] = @v[i], in order): the bytes map_pkt_event(), pb_uint()
 * and map_pkt_event_end() write, each length known before it is written
 * (a syscall's two events are most of a busy recording's).  Returns 0 or
 * -ENOMEM.
 */
int map_pkt_varints(struct map_ctx *ctx, unsigned int cpu, uint64_t ts,
		    int32_t pid, uint32_t event, const uint32_t *proto,
		    const uint64_t *v, unsigned int n);

/* A sched_switch in @cpu's CompactSched: its previous task is implicit. */
int map_pkt_switch(struct map_ctx *ctx, unsigned int cpu, uint64_t ts,
		   int64_t prev_state, int32_t next_pid, int32_t next_prio,
		   const char *comm, size_t len);

/* A sched_waking in @cpu's CompactSched: its waker is @cpu's task. */
int map_pkt_waking(struct map_ctx *ctx, unsigned int cpu, uint64_t ts,
		   int32_t pid, int32_t target_cpu, int32_t prio,
		   const char *comm, size_t len, uint32_t common_flags);

/*
 * A record of @cpu at @ts is next.  One before the CPU's last record
 * (a damaged recording's time leaps back) starts a new bundle: this
 * converter follows the task each CPU runs in the records' order, and
 * the FXT's own reader (pft2dat) follows compact sched's implicit tasks
 * and a bundle's full switches in time order within a bundle, in file
 * order across bundles.  0, or -ENOMEM.
 */
int map_pkt_record(struct map_ctx *ctx, unsigned int cpu, uint64_t ts);

/*
 * Whether @cpu has had no switch in the packets since the chunk they go
 * in began (map-packet.c, map_pkt_chunk_end()): its next switch is
 * written whole, so that a reader who lost the chunk before (damage)
 * knows the name and priority of the task it switches out (compact
 * sched's implicit task, whose pid each bundle's residue gives).  The
 * caller writes that switch: the CPU is no longer fresh after.
 */
bool map_pkt_fresh(struct map_ctx *ctx, unsigned int cpu);

/* Whether @cpu's events can be packets at all (Perfetto's CPU limit). */
bool map_pkt_cpu_ok(unsigned int cpu);

/*
 * The interning id of the kernel function at @addr (the symbol whose
 * name Perfetto shows for a workqueue or timer function, a shrinker, a
 * blocked function), interned in the packets the first time: 1, 2, ...
 * in the order they come (32 bits); 0 when @tep knows no function there.
 */
uint64_t map_pkt_symbol(struct map_ctx *ctx, struct tep_handle *tep,
			uint64_t addr);

/* The ring buffer of @cpu lost events before its next record. */
void map_pkt_lost(struct map_ctx *ctx, unsigned int cpu);

/*
 * A process created at @ts, whose parent process is @ppid, named @comm
 * (until map_pkt_process_name() renames it): the process tree's entry,
 * or none when a task_newtask event in the packets @started it.
 */
int map_pkt_process(struct map_ctx *ctx, int32_t pid, int32_t ppid,
		    uint64_t ts, const char *comm, size_t len, bool started);
void map_pkt_process_name(struct map_ctx *ctx, int32_t pid,
			  const char *comm, size_t len);
/* Whether @pid's start is the tree's latest entries already (a fork's
 * second event). */
bool map_pkt_process_known(struct map_ctx *ctx, int32_t pid);

/* Flush every bundle, write the process tree and ftrace statistics. */
int map_pkt_finish(struct map_ctx *ctx);

void map_pkt_free(struct map_ctx *ctx);

#endif /* _MAP_PACKET_H */
