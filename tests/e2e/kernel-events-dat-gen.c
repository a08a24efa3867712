// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-events-dat-gen.c - a .dat of the kernel events Perfetto's ftrace
 * importer draws that this machine's kernel does not fire (no NIC with
 * NAPI, no thermal zone, clock, CPU hotplug, suspend or memory pressure
 * here, and two events mainline kernels do not have), for
 * perfetto-samples.sh, written with the core's .dat writer.
 *
 *   kernel-events-dat-gen FORMATS_DIR OUT.dat
 *
 * FORMATS_DIR holds each event's format (tests/e2e/kernel-formats/: a
 * 6.18 kernel's, Android's sched_blocked_reason, mainline's former
 * power:clock_*).  On CPU 0, task 7000 ("netd") takes a local timer
 * interrupt, receives through NAPI GRO on eth0, retransmits a TCP
 * segment, reclaims memory directly (a slab shrinker inside), starts a
 * block I/O and sleeps in D, and sched_blocked_reason names io_schedule
 * for that sleep; the I/O completes.  Then a thermal zone warms up, a
 * clock changes rate and one is enabled and disabled, CPU 1 goes
 * through two hotplug steps, and the machine goes through
 * suspend_enter with freeze_processes inside it.  Kernel symbols come
 * from the file's kallsyms, suspend_resume's action strings from its
 * printk formats, as the kernel's own .dat would have them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat-fixture.h"

/* The file's kallsyms and printk formats (trace-cmd's own layouts). */
#define SYM_IO_SCHEDULE		0xffffffff81000000ull
#define SYM_SUPER_CACHE_SCAN	0xffffffff81000100ull
#define SYM_CPUHP_STEP		0xffffffff81000200ull
#define STR_SUSPEND_ENTER	0xffffffff82000000ull
#define STR_FREEZE_PROCESSES	0xffffffff82000020ull
static const char kallsyms[] =
	"ffffffff81000000 T io_schedule\n"
	"ffffffff81000100 t super_cache_scan\n"
	"ffffffff81000200 T sched_cpu_deactivate\n"
	"ffffffff81000300 T _etext\n";
static const char printk[] =
	"0xffffffff82000000 : \"suspend_enter\"\n"
	"0xffffffff82000020 : \"freeze_processes\"\n";

enum {
	EV_SWITCH, EV_TIMER_ENTRY, EV_TIMER_EXIT, EV_NAPI_ENTRY,
	EV_NAPI_EXIT, EV_RETRANSMIT, EV_RECLAIM_BEGIN, EV_RECLAIM_END,
	EV_SHRINK_START, EV_SHRINK_END, EV_IO_START, EV_IO_DONE,
	EV_BLOCKED, EV_THERMAL, EV_CLOCK_RATE, EV_CLOCK_ON, EV_CLOCK_OFF,
	EV_CPUHP_ENTER, EV_CPUHP_MULTI, EV_CPUHP_EXIT, EV_SUSPEND, NR_EV
};

static const struct {
	const char *system, *name;
} events[NR_EV] = {
	[EV_SWITCH] = { "sched", "sched_switch" },
	[EV_TIMER_ENTRY] = { "irq_vectors", "local_timer_entry" },
	[EV_TIMER_EXIT] = { "irq_vectors", "local_timer_exit" },
	[EV_NAPI_ENTRY] = { "net", "napi_gro_receive_entry" },
	[EV_NAPI_EXIT] = { "net", "napi_gro_receive_exit" },
	[EV_RETRANSMIT] = { "tcp", "tcp_retransmit_skb" },
	[EV_RECLAIM_BEGIN] = { "vmscan", "mm_vmscan_direct_reclaim_begin" },
	[EV_RECLAIM_END] = { "vmscan", "mm_vmscan_direct_reclaim_end" },
	[EV_SHRINK_START] = { "vmscan", "mm_shrink_slab_start" },
	[EV_SHRINK_END] = { "vmscan", "mm_shrink_slab_end" },
	[EV_IO_START] = { "block", "block_io_start" },
	[EV_IO_DONE] = { "block", "block_io_done" },
	[EV_BLOCKED] = { "sched", "sched_blocked_reason" },
	[EV_THERMAL] = { "thermal", "thermal_temperature" },
	[EV_CLOCK_RATE] = { "power", "clock_set_rate" },
	[EV_CLOCK_ON] = { "power", "clock_enable" },
	[EV_CLOCK_OFF] = { "power", "clock_disable" },
	[EV_CPUHP_ENTER] = { "cpuhp", "cpuhp_enter" },
	[EV_CPUHP_MULTI] = { "cpuhp", "cpuhp_multi_enter" },
	[EV_CPUHP_EXIT] = { "cpuhp", "cpuhp_exit" },
	[EV_SUSPEND] = { "power", "suspend_resume" },
};
static int ids[NR_EV];

/* A record's payload, filled by the field offsets of its format. */
struct rec {
	uint8_t	b[256];
	size_t	end;		/* past the last byte set */
};

static void at(struct rec *r, size_t off, const void *v, size_t n)
{
	off -= 8;		/* the common fields are the writer's */
	memcpy(r->b + off, v, n);	/* the file is the host's order */
	if (off + n > r->end)
		r->end = off + n;
}

static void u8_at(struct rec *r, size_t off, uint8_t v)
{
	at(r, off, &v, 1);
}

static void u16_at(struct rec *r, size_t off, uint16_t v)
{
	at(r, off, &v, 2);
}

static void u32_at(struct rec *r, size_t off, uint32_t v)
{
	at(r, off, &v, 4);
}

static void u64_at(struct rec *r, size_t off, uint64_t v)
{
	at(r, off, &v, 8);
}

/* A __data_loc string whose word is at @off, its bytes at @data. */
static void str_at(struct rec *r, size_t off, size_t data, const char *s)
{
	size_t n = strlen(s) + 1;

	u32_at(r, off, (uint32_t)(n << 16 | data));
	at(r, data, s, n);
}

static void emit(unsigned int cpu, int ev, int pid, struct rec *r)
{
	fixture_emit(cpu, ids[ev], pid, r->b, r->end);
	memset(r, 0, sizeof(*r));
}

static const char *comm_of(int pid)
{
	return pid == 7000 ? "netd" : pid == 7001 ? "cpuhp/1" : "swapper/0";
}

static void sched_switch(unsigned int cpu, int prev, uint64_t state,
			 int next)
{
	struct rec r = { 0 };
	char comm[16] = { 0 };

	strncpy(comm, comm_of(prev), sizeof(comm) - 1);
	at(&r, 8, comm, 16);
	u32_at(&r, 24, prev);
	u32_at(&r, 28, 120);
	u64_at(&r, 32, state);
	memset(comm, 0, sizeof(comm));
	strncpy(comm, comm_of(next), sizeof(comm) - 1);
	at(&r, 40, comm, 16);
	u32_at(&r, 56, next);
	u32_at(&r, 60, 120);
	emit(cpu, EV_SWITCH, prev, &r);
}

static void net_events(struct rec *r)
{
	u32_at(r, 8, 236);				/* vector */
	emit(0, EV_TIMER_ENTRY, 7000, r);
	u32_at(r, 8, 236);
	emit(0, EV_TIMER_EXIT, 7000, r);
	u32_at(r, 12, 0x2001);				/* napi_id */
	u64_at(r, 24, 0xffff888100a00000ull);		/* skbaddr */
	u16_at(r, 38, 0x0800);				/* protocol */
	u32_at(r, 52, 1500);				/* len */
	u32_at(r, 56, 0);				/* data_len */
	u32_at(r, 60, 2304);				/* truesize */
	u16_at(r, 76, 0);				/* gso_type */
	str_at(r, 8, 80, "eth0");
	emit(0, EV_NAPI_ENTRY, 7000, r);
	u32_at(r, 8, 1);				/* GRO_MERGED */
	emit(0, EV_NAPI_EXIT, 7000, r);
	u64_at(r, 8, 0xffff888100a00100ull);		/* skbaddr */
	u64_at(r, 16, 0xffff888100b00000ull);		/* skaddr */
	u32_at(r, 24, 1);				/* ESTABLISHED */
	u16_at(r, 28, 443);
	u16_at(r, 30, 50000);
	u16_at(r, 32, 2);				/* AF_INET */
	u32_at(r, 76, 0);				/* err */
	emit(0, EV_RETRANSMIT, 7000, r);
}

static void reclaim_events(struct rec *r)
{
	u32_at(r, 8, 0);				/* order */
	u64_at(r, 16, 0xcc0);				/* GFP_KERNEL */
	emit(0, EV_RECLAIM_BEGIN, 7000, r);
	u64_at(r, 8, 0xffff888100c00000ull);		/* shr */
	u64_at(r, 16, SYM_SUPER_CACHE_SCAN);
	u32_at(r, 24, 0);				/* nid */
	u64_at(r, 32, 128);			/* nr_objects_to_shrink */
	u64_at(r, 40, 0xcc0);
	u64_at(r, 48, 4096);				/* cache_items */
	u64_at(r, 56, 64);				/* delta */
	u64_at(r, 64, 192);				/* total_scan */
	u32_at(r, 72, 12);				/* priority */
	emit(0, EV_SHRINK_START, 7000, r);
	u64_at(r, 8, 0xffff888100c00000ull);
	u32_at(r, 16, 0);
	u64_at(r, 24, SYM_SUPER_CACHE_SCAN);
	u64_at(r, 32, 0);				/* unused_scan */
	u64_at(r, 40, 64);				/* new_scan */
	u32_at(r, 48, 96);				/* retval */
	u64_at(r, 56, 192);
	emit(0, EV_SHRINK_END, 7000, r);
	u64_at(r, 8, 32);				/* nr_reclaimed */
	emit(0, EV_RECLAIM_END, 7000, r);
}

/* block_io_start/done of 8:0, sector 2048, 8 sectors, by @comm. */
static void block_io(struct rec *r, int ev, int pid, const char *comm)
{
	char rwbs[10] = "WS", c[16] = { 0 };

	strncpy(c, comm, sizeof(c) - 1);
	u32_at(r, 8, 8u << 20);				/* dev 8:0 */
	u64_at(r, 16, 2048);
	u32_at(r, 24, 8);
	u32_at(r, 28, 4096);
	u16_at(r, 32, 0);
	at(r, 34, rwbs, sizeof(rwbs));
	at(r, 44, c, sizeof(c));
	str_at(r, 60, 64, "");
	emit(0, ev, pid, r);
}

static void device_events(struct rec *r)
{
	static const char *const clk[] = { "cpu0_clk", "uart_clk" };
	int i;

	for (i = 0; i < 3; i++) {
		u32_at(r, 12, 0);			/* id */
		u32_at(r, 16, 45000 + 1000 * i);	/* temp_prev */
		u32_at(r, 20, 46000 + 1000 * i);	/* temp */
		str_at(r, 8, 24, "cpu-thermal");
		emit(0, EV_THERMAL, 7000, r);
	}
	u64_at(r, 16, 1200000000);
	u64_at(r, 24, 0);
	str_at(r, 8, 32, clk[0]);
	emit(0, EV_CLOCK_RATE, 7000, r);
	for (i = 0; i < 2; i++) {
		u64_at(r, 16, !i);			/* state */
		u64_at(r, 24, 0);
		str_at(r, 8, 32, clk[1]);
		emit(0, i ? EV_CLOCK_OFF : EV_CLOCK_ON, 7000, r);
	}
}

static void cpuhp_step(struct rec *r, int ev, int idx)
{
	u32_at(r, 8, 1);				/* cpu */
	u32_at(r, 12, 0);				/* target */
	u32_at(r, 16, idx);
	u64_at(r, 24, SYM_CPUHP_STEP);
	emit(1, ev, 7001, r);
	u32_at(r, 8, 1);
	u32_at(r, 12, idx - 1);				/* state */
	u32_at(r, 16, idx);
	u32_at(r, 20, 0);				/* ret */
	emit(1, EV_CPUHP_EXIT, 7001, r);
}

static void suspend(struct rec *r, uint64_t action, int val, int start)
{
	u64_at(r, 8, action);
	u32_at(r, 16, val);
	u8_at(r, 20, start);
	emit(0, EV_SUSPEND, 7000, r);
}

int main(int argc, char **argv)
{
	struct dat_writer *w;
	struct rec r = { 0 };
	int i, err;

	if (argc != 3) {
		fprintf(stderr,
			"usage: kernel-events-dat-gen FORMATS_DIR OUT.dat\n");
		return 2;
	}
	w = fixture_open("kernel-events-dat-gen", argv[2]);
	for (i = 0; i < NR_EV; i++)
		ids[i] = fixture_format_file(argv[1], events[i].system,
				     events[i].name);
	err = dat_writer_set_kallsyms(w, kallsyms, sizeof(kallsyms) - 1);
	if (!err)
		err = dat_writer_set_printk(w, printk, sizeof(printk) - 1);
	if (err)
		fixture_die("kallsyms and printk", err);
	dat_writer_add_cmdline(w, 7000, "netd");
	dat_writer_add_cmdline(w, 7001, "cpuhp/1");

	sched_switch(0, 0, 0, 7000);
	net_events(&r);
	reclaim_events(&r);
	block_io(&r, EV_IO_START, 7000, "netd");
	sched_switch(0, 7000, 2, 0);			/* D */
	u32_at(&r, 8, 7000);
	u64_at(&r, 16, SYM_IO_SCHEDULE);
	u8_at(&r, 24, 1);				/* io_wait */
	emit(0, EV_BLOCKED, 0, &r);
	block_io(&r, EV_IO_DONE, 0, "swapper/0");
	sched_switch(0, 0, 0, 7000);
	device_events(&r);
	sched_switch(1, 0, 0, 7001);
	cpuhp_step(&r, EV_CPUHP_ENTER, 200);
	cpuhp_step(&r, EV_CPUHP_MULTI, 150);
	sched_switch(1, 7001, 1, 0);
	suspend(&r, STR_SUSPEND_ENTER, 3, 1);
	suspend(&r, STR_FREEZE_PROCESSES, 0, 1);
	suspend(&r, STR_FREEZE_PROCESSES, 0, 0);
	suspend(&r, STR_SUSPEND_ENTER, 3, 0);
	sched_switch(0, 7000, 1, 0);
	fixture_close();
	return 0;
}
