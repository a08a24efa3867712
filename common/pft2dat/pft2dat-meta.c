// SPDX-License-Identifier: GPL-2.0-only
/*
 * pft2dat-meta.c - what the packets say of the trace, for the .dat's
 * metadata: thread names (ProcessTree's threads, its processes' comms,
 * GenericKernelProcessTree's threads, and the comms the events carry) as
 * saved cmdlines, thread groups (the trees', task_newtask's and
 * sched_process_exec's) as saved tgids, the ftrace instances (the trace
 * config's linux.ftrace data sources, the buffer each sequence writes)
 * as .dat buffers, SystemInfo's CPU count and uname, FtraceStats of the
 * trace's end as CPUSTAT options, and the kernel symbols the recorder
 * interned (symbolize_ksyms) as a kallsyms of addresses of this file's
 * own (pft_meta_sym_addr()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto-proto.h"
#include "pft2dat-intern.h"

/* ProcessTree's fields past perfetto-proto.h's. */
enum {
	TREE_THREAD		= 2,	/* Thread, repeated */
	THREAD_TID		= 1,
	THREAD_NAME		= 2,
	THREAD_TGID		= 3,
	PROC_CMDLINE_IS_COMM	= 9,
};

/* Where the kallsyms this file makes puts its symbols, 16 bytes apart. */
#define PFT_SYM_BASE	0xffffffffc0000000ULL

/* A key of c->syms: the sequence, its generation, the iid. */
static uint64_t sym_key(struct pft_ctx *c, uint64_t iid)
{
	uint64_t gen = u64_map_get(&c->seq_gen, c->cur_seq);

	return c->cur_seq << 40 ^ gen << 28 ^ iid;
}

void pft_meta_sequence(struct pft_ctx *c, uint64_t seq, uint64_t flags)
{
	uint64_t *gen, at = u64_map_get(&c->seq_dat, seq);

	c->buffer = at ? (int)(at - 1) : 0;

	c->cur_seq = seq & PFT_SEQ_MASK;
	if (!(flags & PFT_SEQ_INCREMENTAL_STATE_CLEARED))
		return;
	gen = u64_map_put(&c->seq_gen, c->cur_seq);
	if (gen)
		*gen = (*gen + 1) & 0xfff;
}

uint64_t pft_meta_sym_addr(struct pft_ctx *c, uint64_t iid)
{
	uint64_t i, addr;

	if (!iid || iid >= 1u << 28)
		return 0;
	i = u64_map_get(&c->syms, sym_key(c, iid));
	if (!i)
		return 0;
	/* a converted trace.dat's FXT says where the symbol was */
	addr = pft_fxt_sym_addr(c, c->sym_names[i - 1],
				strlen(c->sym_names[i - 1]));
	return addr ? addr : PFT_SYM_BASE + (i << 4);
}

/* The index + 1 of @p in a list of strings, added if new; 0: no memory. */
static uint64_t str_index(char ***list, size_t *nr, size_t *cap,
			  const uint8_t *p, size_t len)
{
	size_t i;
	char **n;

	for (i = 0; i < *nr; i++)
		if (strlen((*list)[i]) == len && !memcmp((*list)[i], p, len))
			return i + 1;
	if (*nr == *cap) {
		size_t c = *cap ? 2 * *cap : 64;

		n = realloc(*list, c * sizeof(*n));
		if (!n)
			return 0;
		*list = n;
		*cap = c;
	}
	(*list)[*nr] = strndup((const char *)p, len);
	if (!(*list)[*nr])
		return 0;
	return ++*nr;
}

static uint64_t sym_name(struct pft_ctx *c, const uint8_t *p, size_t len)
{
	return str_index(&c->sym_names, &c->nr_sym_names, &c->cap_sym_names,
			 p, len);
}

/* Where the printk formats this file makes put its strings. */
#define PFT_STR_BASE	0xffffffffc8000000ULL

uint64_t pft_meta_str_addr(struct pft_ctx *c, const uint8_t *s, size_t len)
{
	uint64_t i;

	/* a printk format line ends at its newline: none inside */
	len = strnlen((const char *)s, len);
	if (memchr(s, '\n', len) || memchr(s, '"', len) || len > 1000)
		return 0;
	i = pft_fxt_str_addr(c, (const char *)s, len);
	if (i)
		return i;
	i = str_index(&c->strs, &c->nr_strs, &c->cap_strs, s, len);
	return i ? PFT_STR_BASE + (i << 10) : 0;
}

void pft_meta_name(struct pft_ctx *c, int32_t pid, const uint8_t *s,
		   size_t len, uint64_t ts)
{
	struct fxt_str str = { .ptr = (const char *)s };
	uint64_t seen;

	len = strnlen((const char *)s, len);
	/* a converted trace.dat's names are its saved cmdlines alone */
	if (pid <= 0 || !len || c->fxt.converted)
		return;
	seen = u64_map_get(&c->name_ts, (uint64_t)pid);
	if (seen && ts + 1 < seen)
		return;
	if (ts + 1 > seen && u64_map_set(&c->name_ts, (uint64_t)pid, ts + 1))
		return;
	if (len > 15)
		len = 15;
	str.len = (uint32_t)len;
	/* out of memory: the name stays the one it had */
	f2d_name_set(&c->f2d, (uint64_t)pid, str);
}

static int tree_thread(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r;
	struct pb_field f, name = { 0 };
	int64_t tid = 0, tgid = 0;
	int ret;

	pb_reader_init(&r, m->p, m->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.id == THREAD_TID && f.wt == PB_VARINT)
			tid = (int32_t)f.v;
		else if (f.id == THREAD_NAME && f.wt == PB_LEN)
			name = f;
		else if (f.id == THREAD_TGID && f.wt == PB_VARINT)
			tgid = (int32_t)f.v;
	}
	if (tgid > 0)
		pft_meta_tgid(c, (int32_t)tid, (int32_t)tgid, PFT_TGID_TREE);
	if (name.id)
		pft_meta_name(c, (int32_t)tid, name.p, name.len, 0);
	return ret;
}

/* A process's comm: its cmdline's first word, or the comm itself. */
static int tree_process(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r;
	struct pb_field f, cmd = { 0 };
	const uint8_t *p, *slash;
	int64_t pid = 0;
	bool is_comm = false;
	size_t n;
	int ret;

	pb_reader_init(&r, m->p, m->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.id == PFT_PROC_PID && f.wt == PB_VARINT)
			pid = (int32_t)f.v;
		else if (f.id == PFT_PROC_CMDLINE && f.wt == PB_LEN && !cmd.id)
			cmd = f;
		else if (f.id == PROC_CMDLINE_IS_COMM && f.wt == PB_VARINT)
			is_comm = f.v;
	}
	/* a process is its thread group's leader */
	pft_meta_tgid(c, (int32_t)pid, (int32_t)pid, PFT_TGID_TREE);
	if (!cmd.id || f2d_name_of(&c->f2d, (uint64_t)pid))
		return ret;
	p = cmd.p;
	n = strnlen((const char *)p, cmd.len);
	if (!is_comm) {
		slash = memrchr(p, '/', n);
		if (slash) {
			n -= (size_t)(slash + 1 - p);
			p = slash + 1;
		}
		if (memchr(p, ' ', n))
			n = (size_t)((const uint8_t *)memchr(p, ' ', n) - p);
	}
	pft_meta_name(c, (int32_t)pid, p, n, 0);
	return ret;
}

static int process_tree(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r;
	struct pb_field f;
	int ret;

	/* threads first: their names are the comms, processes' guesses */
	pb_reader_init(&r, m->p, m->len);
	while ((ret = pb_next(&r, &f)) > 0)
		if (f.id == TREE_THREAD && f.wt == PB_LEN)
			tree_thread(c, &f);
	pb_reader_init(&r, m->p, m->len);
	while ((ret = pb_next(&r, &f)) > 0)
		if (f.id == PFT_TREE_PROCESS && f.wt == PB_LEN)
			tree_process(c, &f);
	return 0;
}

/* GenericKernelProcessTree: its threads' names and groups. */
static int kernel_tree(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r, tr;
	struct pb_field f, g, comm;
	int64_t tid, pid;

	pb_reader_init(&r, m->p, m->len);
	while (pb_next(&r, &f) > 0) {
		if (f.id != PFT_GKTREE_THREAD || f.wt != PB_LEN)
			continue;
		tid = pid = 0;
		memset(&comm, 0, sizeof(comm));
		pb_reader_init(&tr, f.p, f.len);
		while (pb_next(&tr, &g) > 0) {
			if (g.id == PFT_GKTHREAD_TID && g.wt == PB_VARINT)
				tid = (int64_t)g.v;
			else if (g.id == PFT_GKTHREAD_PID && g.wt == PB_VARINT)
				pid = (int64_t)g.v;
			else if (g.id == PFT_GKTHREAD_COMM && g.wt == PB_LEN)
				comm = g;
		}
		if (comm.id && tid > 0 && tid <= INT32_MAX)
			pft_meta_name(c, (int32_t)tid, comm.p, comm.len, 0);
		if (tid > 0 && tid <= INT32_MAX && pid > 0 && pid <= INT32_MAX)
			pft_meta_tgid(c, (int32_t)tid, (int32_t)pid,
				      PFT_TGID_TREE);
	}
	return 0;
}

#define TGID_LINK	(1ULL << 32)
#define TGID_SRC_SHIFT	33

void pft_meta_tgid(struct pft_ctx *c, int32_t pid, int32_t tgid,
		   enum pft_tgid_src src)
{
	uint64_t had, v;

	/* and its thread groups its FXT's (pft_fxt_apply()) */
	if (pid <= 0 || !tgid || tgid == INT32_MIN || c->fxt.converted)
		return;
	had = u64_map_get(&c->tgids, (uint64_t)pid);
	if (had >> TGID_SRC_SHIFT > src)
		return;
	v = (uint64_t)src << TGID_SRC_SHIFT |
	    (tgid < 0 ? TGID_LINK | (uint32_t)-tgid : (uint32_t)tgid);
	/* out of memory: the group stays the one it had (none) */
	u64_map_set(&c->tgids, (uint64_t)pid, v);
}

/*
 * The group of @pid, links followed (a thread's creator's group); 0 when
 * unknown: its creator's group unknown, or the links go round.
 */
static int32_t tgid_of(struct pft_ctx *c, int32_t pid)
{
	unsigned int hops;
	uint64_t v;

	for (hops = 0; hops < 64; hops++) {
		v = u64_map_get(&c->tgids, (uint64_t)pid);
		if (!v)
			return 0;
		if (!(v & TGID_LINK))
			return (int32_t)(uint32_t)v;
		pid = (int32_t)(uint32_t)v;
	}
	return 0;
}

/* The saved tgids: each task's group, as far as it is known. */
static int tgids_text(struct pft_ctx *c)
{
	struct u64_map known = { 0 };
	size_t i;
	int32_t tgid;
	int ret = 0;

	for (i = 0; i < c->tgids.cap && !ret; i++) {
		if (!c->tgids.slot[i].val)
			continue;
		tgid = tgid_of(c, (int32_t)c->tgids.slot[i].key);
		if (tgid > 0 && u64_map_set(&known, c->tgids.slot[i].key,
					    (uint64_t)tgid))
			ret = -ENOMEM;
	}
	if (!ret)
		ret = f2d_tgids_text(&c->f2d, &known);
	u64_map_free(&known);
	return ret;
}

static int system_info(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r, ur;
	struct pb_field f, g;
	struct pb_field uts[5] = { { 0 } };
	char buf[512];

	pb_reader_init(&r, m->p, m->len);
	while (pb_next(&r, &f) > 0) {
		if (f.id == PFT_SYSINFO_NUM_CPUS && f.wt == PB_VARINT &&
		    f.v && f.v <= PFT_MAX_CPU)
			c->sys_cpus = (unsigned int)f.v;
		if (f.id != PFT_SYSINFO_UTSNAME || f.wt != PB_LEN)
			continue;
		pb_reader_init(&ur, f.p, f.len);
		while (pb_next(&ur, &g) > 0)
			if (g.id >= 1 && g.id <= 4 && g.wt == PB_LEN)
				uts[g.id] = g;
	}
	if (!uts[PFT_UTS_SYSNAME].id)
		return 0;
	/* trace-cmd's: sysname nodename release machine; no nodename here */
	snprintf(buf, sizeof(buf), "%.*s - %.*s %.*s",
		 (int)uts[PFT_UTS_SYSNAME].len, uts[PFT_UTS_SYSNAME].p,
		 (int)uts[PFT_UTS_RELEASE].len,
		 uts[PFT_UTS_RELEASE].p ? (const char *)uts[PFT_UTS_RELEASE].p :
		 "", (int)uts[PFT_UTS_MACHINE].len,
		 uts[PFT_UTS_MACHINE].p ? (const char *)uts[PFT_UTS_MACHINE].p :
		 "");
	c->f2d.uname.len = 0;
	return f2d_text_add(&c->f2d.uname, buf, strlen(buf));
}

static int kernel_symbols(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r, sr;
	struct pb_field f, g, name;
	uint64_t iid, idx;

	pb_reader_init(&r, m->p, m->len);
	while (pb_next(&r, &f) > 0) {
		if (f.id != PFT_INTERNED_KERNEL_SYMBOLS || f.wt != PB_LEN)
			continue;
		iid = 0;
		memset(&name, 0, sizeof(name));
		pb_reader_init(&sr, f.p, f.len);
		while (pb_next(&sr, &g) > 0) {
			if (g.id == PFT_ISTRING_IID && g.wt == PB_VARINT)
				iid = g.v;
			else if (g.id == PFT_ISTRING_STR && g.wt == PB_LEN)
				name = g;
		}
		/* iids past 2^28 would leave the key's room */
		if (!name.id || !name.len || !iid || iid >= 1u << 28 ||
		    memchr(name.p, '\n', name.len))
			continue;
		idx = sym_name(c, name.p, name.len);
		if (!idx || u64_map_set(&c->syms, sym_key(c, iid), idx))
			return -ENOMEM;
	}
	return 0;
}

/* @ds's ftrace_events @f, kept (for pft2dat-instances.c) */
static int ds_event(struct pft_ds *ds, const struct pb_field *f)
{
	char **ev;

	if (ds->nr_events == PFT_DS_MAX_EVENTS)
		return 0;
	ev = realloc(ds->events, (ds->nr_events + 1) * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ds->events = ev;
	ev[ds->nr_events] = strndup((const char *)f->p, f->len);
	if (!ev[ds->nr_events])
		return -ENOMEM;
	ds->nr_events++;
	return 0;
}

/* A DataSourceConfig: if linux.ftrace's, its buffer, instance, events. */
static int ds_config(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r, fr;
	struct pb_field f, g, inst = { 0 }, conf = { 0 };
	struct pft_ds *ds;
	uint32_t target = 0;
	bool ftrace = false;

	pb_reader_init(&r, m->p, m->len);
	while (pb_next(&r, &f) > 0) {
		if (f.id == PFT_DSC_NAME && f.wt == PB_LEN)
			ftrace = f.len == strlen("linux.ftrace") &&
				 !memcmp(f.p, "linux.ftrace", f.len);
		else if (f.id == PFT_DSC_TARGET_BUFFER && f.wt == PB_VARINT)
			target = (uint32_t)f.v;
		else if (f.id == PFT_DSC_FTRACE_CONFIG && f.wt == PB_LEN)
			conf = f;
	}
	if (!ftrace)
		return 0;
	ds = realloc(c->dss, (c->nr_dss + 1) * sizeof(*ds));
	if (!ds)
		return -ENOMEM;
	c->dss = ds;
	ds += c->nr_dss;
	memset(ds, 0, sizeof(*ds));
	ds->target = target;
	c->nr_dss++;
	pb_reader_init(&fr, conf.p, conf.len);
	while (conf.id && pb_next(&fr, &g) > 0) {
		if (g.id == PFT_FTRACE_CONFIG_INSTANCE && g.wt == PB_LEN)
			inst = g;
		else if (g.id == PFT_FTRACE_CONFIG_EVENTS && g.wt == PB_LEN &&
			 ds_event(ds, &g))
			return -ENOMEM;
	}
	ds->instance = inst.id ? strndup((const char *)inst.p, inst.len) :
				 strdup("");
	return ds->instance ? 0 : -ENOMEM;
}

/* TraceConfig: its ftrace data sources' buffers and instances. */
static int trace_config(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r, dr;
	struct pb_field f, g;
	unsigned int d;

	pb_reader_init(&r, m->p, m->len);
	while (pb_next(&r, &f) > 0) {
		if (f.id != PFT_CONFIG_DATA_SOURCE || f.wt != PB_LEN)
			continue;
		pb_reader_init(&dr, f.p, f.len);
		while (pb_next(&dr, &g) > 0)
			if (g.id == PFT_DS_CONFIG && g.wt == PB_LEN &&
			    ds_config(c, &g))
				return -ENOMEM;
	}
	for (d = 1; d < c->nr_dss && !c->dss_several; d++)
		c->dss_several = strcmp(c->dss[d].instance,
					c->dss[0].instance) != 0;
	return 0;
}

/* Sequence @seq writes trace buffer @buf. */
static int seq_writes(struct pft_ctx *c, uint64_t seq, uint64_t buf)
{
	return seq && buf < UINT32_MAX ?
	       u64_map_set(&c->seq_tbuf, seq, buf + 1) : 0;
}

/* TraceProvenance: the sequences of each buffer, in the config's order. */
static int trace_provenance(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r, br, sr;
	struct pb_field f, g, h;
	uint64_t buf = 0;

	pb_reader_init(&r, m->p, m->len);
	while (pb_next(&r, &f) > 0) {
		if (f.id != PFT_PROV_BUFFER || f.wt != PB_LEN)
			continue;
		pb_reader_init(&br, f.p, f.len);
		while (pb_next(&br, &g) > 0) {
			if (g.id != PFT_PROV_SEQUENCE || g.wt != PB_LEN)
				continue;
			pb_reader_init(&sr, g.p, g.len);
			while (pb_next(&sr, &h) > 0)
				if (h.id == PFT_PROV_SEQ_ID &&
				    h.wt == PB_VARINT &&
				    seq_writes(c, h.v, buf))
					return -ENOMEM;
		}
		buf++;
	}
	return 0;
}

/* TraceStats: each writer's sequence and buffer. */
static int trace_stats(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r, wr;
	struct pb_field f, g;
	uint64_t seq, buf;
	bool have_buf;

	pb_reader_init(&r, m->p, m->len);
	while (pb_next(&r, &f) > 0) {
		if (f.id != PFT_TSTATS_WRITER || f.wt != PB_LEN)
			continue;
		seq = 0;
		buf = 0;
		have_buf = false;
		pb_reader_init(&wr, f.p, f.len);
		while (pb_next(&wr, &g) > 0) {
			if (g.id == PFT_WSTATS_SEQUENCE && g.wt == PB_VARINT)
				seq = g.v;
			else if (g.id == PFT_WSTATS_BUFFER &&
				 g.wt == PB_VARINT) {
				buf = g.v;
				have_buf = true;
			}
		}
		if (have_buf && seq_writes(c, seq, buf))
			return -ENOMEM;
	}
	return 0;
}

/* FtraceStats at the trace's end: trace-cmd's CPUSTAT text per CPU. */
static int ftrace_stats(struct pft_ctx *c, const struct pb_field *m)
{
	struct pb_reader r, cr;
	struct pb_field f, g;
	uint64_t phase = 0, v[10];
	double d[10];
	char buf[512];
	int n;

	pb_reader_init(&r, m->p, m->len);
	while (pb_next(&r, &f) > 0)
		if (f.id == PFT_STATS_PHASE && f.wt == PB_VARINT)
			phase = f.v;
	if (phase != PFT_PHASE_END_OF_TRACE)
		return 0;
	c->f2d.cpustats.len = 0;
	pb_reader_init(&r, m->p, m->len);
	while (pb_next(&r, &f) > 0) {
		if (f.id != PFT_STATS_CPU_STATS || f.wt != PB_LEN)
			continue;
		memset(v, 0, sizeof(v));
		memset(d, 0, sizeof(d));
		pb_reader_init(&cr, f.p, f.len);
		while (pb_next(&cr, &g) > 0) {
			if (g.id >= 10)
				continue;
			if (g.wt == PB_VARINT)
				v[g.id] = g.v;
			else if (g.wt == PB_FIXED64)
				memcpy(&d[g.id], &g.v, sizeof(double));
		}
		n = snprintf(buf, sizeof(buf), "CPU: %" PRIu64 "\n"
			     "entries: %" PRIu64 "\noverrun: %" PRIu64 "\n"
			     "commit overrun: %" PRIu64 "\nbytes: %" PRIu64
			     "\noldest event ts: %12.6f\nnow ts: %12.6f\n"
			     "dropped events: %" PRIu64 "\nread events: %"
			     PRIu64 "\n", v[PFT_CPUSTATS_CPU],
			     v[PFT_CPUSTATS_ENTRIES], v[PFT_CPUSTATS_OVERRUN],
			     v[PFT_CPUSTATS_COMMIT_OVERRUN],
			     v[PFT_CPUSTATS_BYTES_READ],
			     d[PFT_CPUSTATS_OLDEST_EVENT_TS],
			     d[PFT_CPUSTATS_NOW_TS],
			     v[PFT_CPUSTATS_DROPPED_EVENTS],
			     v[PFT_CPUSTATS_READ_EVENTS]);
		if (f2d_text_add(&c->f2d.cpustats, buf, (size_t)n))
			return -ENOMEM;
	}
	return 0;
}

/* The packets' other content, named in the summary. */
static void left_out(struct pft_ctx *c, uint32_t field)
{
	/*
	 * TracePacket's content fields (trace_packet.proto) a recording of
	 * the linux.* data sources holds; the packets' attributes
	 * (sequence, trusted uid and pid, flags) are no content.  The
	 * config, its provenance and the service's stats tell which
	 * buffer an instance's events are in (pft_meta_packet()), but the
	 * .dat keeps none of them.
	 */
	static const struct { uint32_t id; const char *what; } names[] = {
		{ 9, "process_stats" }, { 11, "track_event" },
		{ PFT_PACKET_TRACE_CONFIG, "trace_config" },
		{ PFT_PACKET_TRACE_STATS, "trace_stats" },
		{ 6, "clock_snapshot" }, { 60, "track_descriptor" },
		{ 89, "trace_uuid" }, { 67, "cpu_info" },
		{ 69, "service_event" },
		{ PFT_PACKET_TRACE_PROVENANCE, "trace_provenance" },
	};
	unsigned int i;
	size_t len = strlen(c->st->left_out);

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].id == field)
			break;
	if (i == sizeof(names) / sizeof(names[0]) || i >= 16 ||
	    c->left_packets[i]++)
		return;
	snprintf(c->st->left_out + len, sizeof(c->st->left_out) - len, "%s%s",
		 len ? ", " : "", names[i].what);
}

int pft_meta_packet(struct pft_ctx *c, uint32_t field,
		    const struct pb_field *f)
{
	if (c->pass == 2) {
		if (field == PFT_PACKET_PROCESS_TREE && f->wt == PB_LEN)
			return process_tree(c, f);
		if (field == PFT_PACKET_GENERIC_KERNEL_TREE && f->wt == PB_LEN)
			return kernel_tree(c, f);
		if (field == PFT_PACKET_INTERNED_DATA && f->wt == PB_LEN)
			return kernel_symbols(c, f);
		left_out(c, field);
		return 0;
	}
	if (f->wt != PB_LEN)
		return 0;
	switch (field) {
	case PFT_PACKET_SYSTEM_INFO:
		return system_info(c, f);
	case PFT_PACKET_TRACE_CONFIG:
		return trace_config(c, f);
	case PFT_PACKET_TRACE_PROVENANCE:
		return trace_provenance(c, f);
	case PFT_PACKET_TRACE_STATS:
		return trace_stats(c, f);
	case PFT_PACKET_FTRACE_STATS:
		return ftrace_stats(c, f);
	}
	return 0;
}

int pft_meta_finish(struct pft_ctx *c)
{
	char line[600];
	size_t i;
	int n;

	/* a converted trace.dat's own lines, then those this file makes */
	if (pft_fxt_lines(c, &c->f2d.kallsyms, &c->f2d.printk))
		return -ENOMEM;
	/* in address order, as /proc/kallsyms */
	for (i = 0; i < c->nr_sym_names; i++) {
		if (pft_fxt_sym_addr(c, c->sym_names[i],
				     strlen(c->sym_names[i])))
			continue;
		n = snprintf(line, sizeof(line), "%016llx t %.500s\n",
			     (unsigned long long)
			     (PFT_SYM_BASE + ((i + 1) << 4)),
			     c->sym_names[i]);
		if (f2d_text_add(&c->f2d.kallsyms, line, (size_t)n))
			return -ENOMEM;
	}
	for (i = 0; i < c->nr_strs; i++) {
		n = snprintf(line, sizeof(line), "0x%llx : \"%.500s\"\n",
			     (unsigned long long)
			     (PFT_STR_BASE + ((i + 1) << 10)),
			     c->strs[i]);
		if (f2d_text_add(&c->f2d.printk, line, (size_t)n))
			return -ENOMEM;
	}
	return tgids_text(c);
}

void pft_meta_free(struct pft_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nr_sym_names; i++)
		free(c->sym_names[i]);
	free(c->sym_names);
	for (i = 0; i < c->nr_strs; i++)
		free(c->strs[i]);
	free(c->strs);
	u64_map_free(&c->syms);
	u64_map_free(&c->seq_gen);
	u64_map_free(&c->name_ts);
	u64_map_free(&c->tgids);
	for (i = 0; i < c->nr_dss; i++) {
		free(c->dss[i].instance);
		while (c->dss[i].nr_events)
			free(c->dss[i].events[--c->dss[i].nr_events]);
		free(c->dss[i].events);
	}
	free(c->dss);
	u64_map_free(&c->seq_tbuf);
	u64_map_free(&c->seq_dat);
	free(c->renames);
}
