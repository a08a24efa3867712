// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-sched-sample - write the scheduling of a made-up machine as a
 * Fuchsia-style producer would, through the core's writer: one provider
 * counting 24 MHz ticks, a process and its threads named by kernel
 * objects, context switches (scheduling records, every fifth the seed
 * spec's legacy record), thread wakeups and the threads' own instants,
 * now and then one of a thread just switched out (a trailing event:
 * KernelShark's sched plugin draws it as the thread switched in).
 * No ftrace instant restates them: the KernelShark plugin's fixture for
 * other producers' scheduling (tests/e2e/kshark-gui-compare.sh draws its
 * task plots against the .dat trace-fxt converts it to).
 *
 *   fxt-sched-sample [-n SWITCHES] [-c CPUS] OUT.fxt
 *
 * The machine: THREADS threads on CPUS CPUs (default 2); a thread runs a
 * while, then blocks (outgoing state blocked) or is preempted (outgoing
 * state new: runnable, the kernel's R; in the legacy records running, as
 * some producers write it, which `trace-fxt check` calls a fault and
 * every reader takes) and waits for its CPU again; a
 * blocked thread is woken later on some CPU and runs when that CPU next
 * switches.  Nothing in it is random: the same arguments give the same
 * bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxt-writer.h"
#include "sample-write.h"

#define PROVIDER	1
#define TICKS_PER_SEC	24000000ULL
#define US		24ULL		/* ticks */
#define THREADS		6
#define MAX_CPUS	16
#define PROCESS_KOID	1000
#define IDLE		0		/* the idle thread's koid */

enum state { BLOCKED, RUNNABLE, RUNNING };

struct thread {
	uint64_t	koid;
	enum state	state;
	unsigned int	cpu;		/* where it runs or waits to */
	uint64_t	since;		/* runnable since (queue order) */
};

struct machine {
	struct fxt_writer	*w;
	unsigned int		cpus;
	uint64_t		ts;
	uint64_t		seed;
	unsigned long		switches;	/* written so far */
	unsigned long		max_switches;
	struct thread		t[THREADS];
	int			running[MAX_CPUS];	/* -1: idle */
};

static unsigned int next_rand(struct machine *m, unsigned int n)
{
	m->seed = m->seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(m->seed >> 33) % n;
}

static uint64_t koid_of(const struct machine *m, int i)
{
	return i < 0 ? IDLE : m->t[i].koid;
}

static int write_names(struct machine *m)
{
	struct fxt_arg proc = { .type = FXT_ARG_KOID,
				.name = FXT_ARG_STR_NAME(FXT_ARG_NAME_PROCESS),
				.koid = PROCESS_KOID };
	char name[16];
	int i, len, ret;

	ret = fxt_write_kernel_object(m->w, PROCESS_KOID, FXT_OBJ_PROCESS,
				      fxt_str_make("sampled", 7), NULL, 0);
	for (i = 0; !ret && i < THREADS; i++) {
		len = snprintf(name, sizeof(name), "worker-%d", i + 1);
		ret = fxt_write_kernel_object(m->w, m->t[i].koid,
					      FXT_OBJ_THREAD,
					      fxt_str_make(name, (uint32_t)len),
					      &proc, 1);
	}
	return ret;
}

/* What thread @i writes of itself, now. */
static int thread_instant(struct machine *m, int i, const char *name)
{
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT,
		.ts = m->ts,
		.thread = { PROCESS_KOID, koid_of(m, i) },
		.category = FXT_ARG_STR_NAME("app"),
		.name = fxt_str_make(name, (uint32_t)strlen(name)),
	};

	if (i < 0)
		return 0;
	return fxt_write_event(m->w, &ev);
}

/* The runnable thread that has waited longest for @cpu, or -1. */
static int next_on(const struct machine *m, unsigned int cpu)
{
	int i, best = -1;

	for (i = 0; i < THREADS; i++)
		if (m->t[i].state == RUNNABLE && m->t[i].cpu == cpu &&
		    (best < 0 || m->t[i].since < m->t[best].since))
			best = i;
	return best;
}

static int write_switch(struct machine *m, unsigned int cpu, int out,
			unsigned int out_state, int in)
{
	if (m->switches++ % 5 == 4) {
		struct fxt_legacy_switch ls = {
			.ts = m->ts, .cpu = cpu, .out_state = out_state,
			.out = { out < 0 ? 0 : PROCESS_KOID, koid_of(m, out) },
			.in = { in < 0 ? 0 : PROCESS_KOID, koid_of(m, in) },
			.out_prio = 20, .in_prio = 20,
		};

		return fxt_write_legacy_switch(m->w, &ls);
	} else {
		struct fxt_sched_switch cs = {
			.ts = m->ts, .cpu = cpu, .out_state = out_state,
			.out_tid = koid_of(m, out), .in_tid = koid_of(m, in),
		};

		return fxt_write_sched_switch(m->w, &cs);
	}
}

/* CPU @cpu switches: its thread blocks or is preempted, the next runs. */
static int cpu_switch(struct machine *m, unsigned int cpu)
{
	int out = m->running[cpu], in = next_on(m, cpu), ret;
	unsigned int state = FXT_THREAD_BLOCKED;

	if (out < 0 && in < 0)
		return 0;
	if (out >= 0) {
		if (next_rand(m, 5) < 2 && in >= 0) {
			state = m->switches % 5 == 4 ? FXT_THREAD_RUNNING :
						       FXT_THREAD_NEW;
			m->t[out].state = RUNNABLE;
			m->t[out].since = m->ts;
		} else {
			m->t[out].state = BLOCKED;
		}
	}
	if (in >= 0)
		m->t[in].state = RUNNING;
	m->running[cpu] = in;
	ret = write_switch(m, cpu, out, state, in);
	if (ret || out < 0 || next_rand(m, 4))
		return ret;
	m->ts += 3 * US;
	return thread_instant(m, out, "switched_out");
}

/* A blocked thread is woken, to run on some CPU. */
static int wake_one(struct machine *m)
{
	int i = (int)next_rand(m, THREADS);
	struct fxt_sched_wakeup wk;

	if (m->t[i].state != BLOCKED)
		return 0;
	m->t[i].state = RUNNABLE;
	m->t[i].cpu = next_rand(m, m->cpus);
	m->t[i].since = m->ts;
	wk = (struct fxt_sched_wakeup){
		.ts = m->ts, .cpu = m->t[i].cpu, .tid = m->t[i].koid,
	};
	return fxt_write_sched_wakeup(m->w, &wk);
}

static int write_machine(struct fxt_writer *w, void *priv)
{
	struct machine *m = priv;
	unsigned int cpu;
	int i, ret;

	m->w = w;
	ret = fxt_write_provider_info(m->w, PROVIDER, "sched", 5);
	if (!ret)
		ret = fxt_write_init(m->w, TICKS_PER_SEC);
	for (i = 0; i < THREADS; i++)
		m->t[i] = (struct thread){ .koid = PROCESS_KOID + 1 + i,
					   .state = BLOCKED };
	for (cpu = 0; cpu < m->cpus; cpu++)
		m->running[cpu] = -1;
	if (!ret)
		ret = write_names(m);
	while (!ret && m->switches < m->max_switches) {
		m->ts += (50 + next_rand(m, 400)) * US;
		cpu = next_rand(m, m->cpus);
		switch (next_rand(m, 4)) {
		case 0:
		case 1:
			ret = wake_one(m);
			break;
		case 2:
			ret = cpu_switch(m, cpu);
			break;
		default:
			ret = thread_instant(m, m->running[cpu], "work");
			break;
		}
	}
	return ret;
}

static void usage(void)
{
	fputs("usage: fxt-sched-sample [-n SWITCHES] [-c CPUS] OUT.fxt\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct machine m = { .cpus = 2, .ts = 1000 * US, .seed = 26,
			     .max_switches = 600 };
	int c;

	while ((c = getopt(argc, argv, "n:c:")) != -1) {
		switch (c) {
		case 'n':
			m.max_switches = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			m.cpus = (unsigned int)strtoul(optarg, NULL, 0);
			if (!m.cpus || m.cpus > MAX_CPUS)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind + 1 != argc)
		usage();
	return sample_write("fxt-sched-sample", argv[optind], 0,
			    write_machine, &m);
}
