/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pft2dat-intern.h - the internals of pft2dat_convert(), shared by its
 * files: pft2dat-convert.c reads the input and walks its packets;
 * pft2dat-meta.c keeps what the packets say of the trace (threads,
 * system, stats, kernel symbols); pft2dat-event.c reads an FtraceEvent
 * into values, pft2dat-sched.c a bundle's compact sched; pft2dat-record.c
 * writes values as a .dat event, by the kernel's format or one it makes,
 * through libfxt-tep.a's record builder (fxt2dat.h).
 */
#ifndef _PFT2DAT_INTERN_H
#define _PFT2DAT_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fxt2dat.h"
#include "pb.h"
#include "pft2dat.h"
#include "tcfxt-residue.h"
#include "u64-map.h"

/* How a field of the table is written in its message. */
enum pft_type {
	PFT_T_INT32,
	PFT_T_INT64,
	PFT_T_UINT32,
	PFT_T_UINT64,
	PFT_T_UINT64S,		/* repeated uint64 */
	PFT_T_STRING,
	PFT_T_SYM,		/* a kernel address, or its symbol's iid */
	PFT_T_KSTR,		/* a kernel string's text */
};

struct pft_field_def {
	const char	*name;
	uint32_t	nlen;
	uint32_t	num;
	enum pft_type	type;
};

/* A row of map-ftrace.table, inverted (the lengths: its names'). */
struct pft_event_def {
	uint32_t			num;
	const char			*system;
	uint32_t			slen;
	const char			*name;
	uint32_t			nlen;
	const struct pft_field_def	*fields;
	unsigned int			nr_fields;
};

/* The most fields one event gives, and of an array. */
/*
 * (a legacy generic event's: Perfetto describes events of fewer than 32
 * fields; a --once writer keeps the fields past these in the residue)
 */
#define PFT_MAX_VALS	TCFXT_RES_MAX_FIELDS
#define PFT_MAX_ARR	8

enum pft_val_kind {
	PFT_V_INT,		/* signed */
	PFT_V_UINT,
	PFT_V_STR,
	PFT_V_ARR,		/* of uint64 */
};

struct pft_val {
	const char		*name;
	size_t			nlen;
	/* @name is map-ftrace.table's (a place that keeps its text) */
	bool			named_by_table;
	enum pft_val_kind	kind;
	unsigned int		bits;	/* 32, 64: for a made format */
	uint64_t		v;
	const uint8_t		*p;	/* PFT_V_STR */
	size_t			len;
	unsigned int		narr;
	/* last: a value is cleared up to it (val_add()) */
	uint64_t		arr[PFT_MAX_ARR];
};

/* One ftrace event, read. */
struct pft_ev {
	const char	*system;	/* NULL: to be found by name */
	size_t		slen;
	const char	*name;
	size_t		nlen;
	uint64_t	ts;
	int32_t		pid;		/* common_pid */
	unsigned int	cpu;
	int		flags;		/* common_flags, -1 unknown */
	unsigned int	n;
	/* a cache slot for its format (see pft_record_write()) */
	struct pft_fmt	**slot;
	/* last: what pft_ev_clear() leaves, each value set as it is added */
	struct pft_val	vals[PFT_MAX_VALS];
};

/*
 * The first value of @ev named @name, a string literal: its length and
 * the comparison are known when compiled, a word or two on the hot path
 * of every event that names one.  NULL if none is.
 */
#define pft_val_named(ev, name)	pft_val_named_n(ev, name, sizeof(name) - 1)

static inline __attribute__((always_inline)) const struct pft_val *
pft_val_named_n(const struct pft_ev *ev, const char *name, size_t n)
{
	unsigned int i;

	for (i = 0; i < ev->n; i++)
		if (ev->vals[i].nlen == n && !memcmp(ev->vals[i].name, name, n))
			return &ev->vals[i];
	return NULL;
}

/* @ev read afresh: no values, all else zero (the values are 8 KB). */
static inline void pft_ev_clear(struct pft_ev *ev)
{
	memset(ev, 0, offsetof(struct pft_ev, vals));
}

/* An event's format as chosen, by system and name. */
struct pft_fmt {
	struct pft_fmt		*next;
	char			*system;
	char			*name;
	struct f2d_format	*f;	/* NULL: no .dat form */
	bool			kernel;
	uint64_t		count;
	/* kernel fields some event gave (a bit each, of f->fields) */
	uint64_t		given;
	/* void * fields the recorder kept as an index, not the address */
	uint64_t		indexed;
	/* void * fields the recorder kept as a symbol, not the address */
	uint64_t		symbolized;
	/*
	 * The field the value at each place of the last event was, and
	 * its bit: events of one name mostly give the same fields in the
	 * same order (see pft_record_write())
	 */
	struct tep_format_field	*at[PFT_MAX_VALS];
	uint64_t		at_bit[PFT_MAX_VALS];
	/*
	 * and, for that field: the table's name that found it (NULL for
	 * a name the packets carry), and what its value becomes
	 * (enum pft_conv)
	 */
	const char		*at_name[PFT_MAX_VALS];
	uint8_t			at_conv[PFT_MAX_VALS];
};

/*
 * A kernel format's integer field that the recorder wrote other than
 * the kernel holds it: a dev_t (its own encoding), a void * (a symbol's
 * index or name).
 */
enum pft_conv {
	PFT_CONV_NONE,
	PFT_CONV_DEV,
	PFT_CONV_SYM,
};

/*
 * What the bundle being read says of the tasks, for compact sched's
 * implicit fields: a task_rename (@runs false: @pid's comm is now @comm),
 * or a full sched_switch (@runs: @pid, @prio and @comm run on the
 * bundle's CPU from @ts on, as Perfetto's importer takes it:
 * ftrace_sched_event_tracker.cc, PushSchedSwitch sets the CPU's last pid
 * and prio that PushSchedSwitchCompact's prev fields are).
 */
struct pft_rename {
	uint64_t	ts;
	size_t		seq;	/* in the bundle: its order at equal times */
	int32_t		pid;
	int32_t		prio;
	bool		runs;
	char		comm[16];
};

/* Per CPU: who runs there, for compact sched's implicit fields. */
struct pft_cpu {
	int32_t		pid;
	int32_t		prio;
	char		comm[16];
	bool		known;
};

/*
 * The bits of a sequence id this reader keys its state by (the service
 * numbers sequences from 1 up, one per writer).
 */
#define PFT_SEQ_MASK	0xffffffULL

/* The most ftrace_events of a data source kept (a kernel has ~2000). */
#define PFT_DS_MAX_EVENTS	4096

/* An ftrace data source of the trace config. */
struct pft_ds {
	uint32_t	target;		/* its trace buffer */
	char		*instance;	/* its tracefs instance, "" the top */
	/*
	 * its FtraceConfig.ftrace_events, as the config spells them, the
	 * first PFT_DS_MAX_EVENTS
	 */
	char		**events;
	unsigned int	nr_events;
};

/* A generic event described by its bundle (v50+). */
struct pft_desc {
	uint32_t		id;
	char			*system;
	char			*name;
	size_t			slen, nlen;	/* their lengths */
	unsigned int		nr;
	struct {
		char		*name;
		size_t		nlen;
		uint32_t	num;
		uint32_t	type;	/* FieldDescriptorProto.Type */
	}			*fields;
	struct pft_fmt		*fmt;
};

/*
 * What a converted trace.dat's FXT says of its recording (pft2dat-fxt.c):
 * its event formats as "SYSTEM\0TEXT\0" runs, its kallsyms and printk
 * lines.  Empty for a Perfetto trace.
 */
struct pft_fxt_addr {
	const char	*name;	/* in its line, not NUL-terminated */
	size_t		len;
	uint64_t	addr;
};

/* Lines by name, sorted; made when first asked (@made). */
struct pft_fxt_index {
	struct pft_fxt_addr	*a;
	size_t			n;
	bool			made;
};

/* A thread object of the FXT: its group, the saved cmdline it names. */
struct pft_fxt_thread {
	uint64_t	pid;
	uint64_t	tgid;		/* its process's koid; 0: its own */
	size_t		off, len;	/* its name in pft_fxt_meta.names, or 0 */
};

/*
 * And, when it has the converter's file_info (@converted), what the
 * .dat's headers held: they are the .dat's again (pft_fxt_apply()), in
 * place of what the packets would make of them.  @once: its events are
 * in the packets alone (tcfxt.h, TCFXT_INFO_EVENTS).  @big: the .dat
 * was big endian (TCFXT_INFO_BIG_ENDIAN): the bytes the residue keeps
 * of its records are, and so is the .dat made again.
 */
struct pft_fxt_meta {
	struct f2d_text		formats;
	struct f2d_text		kallsyms;
	struct f2d_text		printk;
	struct pft_fxt_index	syms, strs;
	bool			converted;
	bool			once;
	bool			big;
	unsigned int		cpus;
	struct f2d_text		clock, uname, version, cpustats;
	struct pft_fxt_thread	*threads;
	size_t			nr_threads, cap_threads;
	struct f2d_text		names;
};

/* The .dat buffers the instances may take, the top one included. */
#define PFT_MAX_BUFFERS	64

/*
 * A bundle's residue (tcfxt-residue.h), from a `convert --once` FXT: its
 * decls, read from the bundle (@msg: the Decl message) and, the first
 * time an entry names one, resolved to a format and fields
 * (pft_res_take()); the place of each kind's next entry; the entry of
 * the event being read.
 */
struct pft_res_decl {
	const uint8_t		*msg;
	size_t			len;
	bool			resolved;
	struct pft_fmt		*pf;		/* NULL: no .dat form */
	int			buffer;		/* the .dat buffer */
	unsigned int		nr;
	struct tep_format_field	*f[TCFXT_RES_MAX_FIELDS];
	/* each one's place among pf->f->fields (for a dynamic one), or -1 */
	int			idx[TCFXT_RES_MAX_FIELDS];
	/* the fields a viewer draws scheduling by, of a copy (or NULL) */
	struct tep_format_field	*drawn[3];
};

struct pft_res {
	bool			on;
	struct pft_res_decl	*decls;
	unsigned int		nr_decls, cap_decls;
	/* by enum tcfxt_res_kind */
	const uint8_t		*p[TCFXT_RES_NR_KINDS];
	const uint8_t		*end[TCFXT_RES_NR_KINDS];
	/*
	 * the event's entry: its decl, NULL for none; a skip; the events
	 * its CPU lost before and after it (0: none, -1 unknown)
	 */
	struct pft_res_decl	*cur;
	bool			skip;
	/* the task the bundle's CPU ran as it began; -1: not said */
	int32_t			running;
	int64_t			lost[2];
	const uint8_t		*val[TCFXT_RES_MAX_FIELDS];
	uint32_t		val_len[TCFXT_RES_MAX_FIELDS];
	/*
	 * The first pass: the formats the decls name, each once, in the
	 * order first named ("system\0name\0" each; their hashes), for
	 * pft_res_foresee()
	 */
	struct f2d_text		named;
	struct u64_map		named_seen;
	/*
	 * Decls resolved before, by their bytes (each bundle repeats its
	 * own): @msg a copy they own; their bytes' hash -> index + 1
	 */
	struct pft_res_decl	*known;
	size_t			nr_known, cap_known;
	struct u64_map		known_at;
};

struct pft_ctx {
	struct f2d_ctx		f2d;
	struct pft_res		res;
	struct pft_fxt_meta	fxt;
	const struct pft2dat_opts *o;
	struct pft2dat_stats	*st;
	/* 1: what the trace is; 2: its events */
	int			pass;
	unsigned int		max_cpu;
	unsigned int		sys_cpus;	/* SystemInfo.num_cpus */
	uint64_t		ftrace_clock;	/* a bundle's, 0: boot */
	struct pft_cpu		*cpus;
	unsigned int		nr_cpus;
	/*
	 * The kernel symbols interned: (sequence, its generation, iid) ->
	 * index + 1 into sym_names, each name once; a sequence's
	 * generation moves on when its incremental state is cleared (the
	 * recorder numbers symbols afresh then).
	 */
	struct u64_map		syms;
	struct u64_map		seq_gen;
	uint64_t		cur_seq;	/* & PFT_SEQ_MASK */
	char			**sym_names;
	size_t			nr_sym_names, cap_sym_names;
	/* kernel strings, for printk formats (pft_meta_str_addr()) */
	char			**strs;
	size_t			nr_strs, cap_strs;
	struct pft_fmt		*fmts;
	struct pft_fmt		**typed;	/* by table row */
	/* table row + 1 by FtraceEvent field (0: none), row_at_len of them */
	uint16_t		*row_at;
	uint32_t		row_at_len;
	/* the event being read (pft_event_bundle() makes it, once) */
	struct pft_ev		*ev;
	/* compact sched's formats */
	struct pft_fmt		*fmts_switch, *fmts_waking;
	struct pft_desc		*descs;
	unsigned int		nr_descs;
	struct f2d_text		stats_text;
	/* packets named as left out, by left_out()'s names */
	uint64_t		left_packets[16];
	struct pb_buf		unzip;
	bool			in_zip;
	/* in_zip, in a field the input ends within (pft2dat-convert.c) */
	bool			in_cut;
	/*
	 * The compressed fields the first pass inflated, in the order met,
	 * kept for the second pass while they total at most
	 * PFT_UNZIP_KEEP bytes (an empty buffer: not kept); how many
	 * compressed fields this pass has met
	 */
	struct pb_buf		*zips;
	size_t			nr_zips, cap_zips, zips_bytes;
	size_t			zip_seen;
	/*
	 * the input stopped by damage before its packets are walked (a
	 * gzip or zstd stream cut short, pft2dat-convert.c; an FXT's
	 * damage, pft2dat-fxt.c): said first
	 */
	unsigned int		fxt_damaged;
	/* FtraceEvent field -> events of it that no row names */
	struct u64_map		unknown;
	/* pid -> the time its name was seen + 1 (the latest name wins) */
	struct u64_map		name_ts;
	/*
	 * pid -> its thread group, for the saved tgids: src << 33 | link
	 * << 32 | tgid, link: the group of task tgid (pft_meta_tgid())
	 */
	struct u64_map		tgids;
	/*
	 * ftrace instances: the config's ftrace data sources, the trace
	 * buffer each sequence writes (seq -> buffer + 1), the .dat buffer
	 * of each sequence's bundles (seq -> index + 1; none: the top one),
	 * the current packet's
	 */
	struct pft_ds		*dss;
	unsigned int		nr_dss;
	bool			dss_several;	/* of more than one instance */
	struct u64_map		seq_tbuf;
	struct u64_map		seq_dat;
	/*
	 * several instances (pft2dat-instances.c): (seq << 32 | event) ->
	 * the data sources naming it, a bit each, + 1; seq -> the data
	 * sources naming all its events named, | bit 63; names looked up
	 */
	struct u64_map		inst_named;
	struct u64_map		inst_seq;
	unsigned int		inst_lookups;
	int			buffer;
	/*
	 * the bundle's task renames and full switches, for compact sched's
	 * prev fields; those applied so far
	 */
	struct pft_rename	*renames;
	size_t			nr_renames, cap_renames, renames_done;
	bool			renames_sorted;
	/* pft2dat-sched.c writes a compact event: no task change to keep */
	bool			in_compact;
	/*
	 * A viewer's reading (pft2dat_view_open()): what it does in the
	 * conversion's place, NULL for a conversion; whether it lists the
	 * events (else it builds a bundle's records again); and, while
	 * c->in_zip, the compressed packets field being walked (where a
	 * viewer finds its bundles again).
	 */
	const struct pft_viewer	*viewer;
	bool			listing;
	const uint8_t		*zip_p;
	size_t			zip_len;
};

/*
 * A viewer's part in the reading (pft2dat-view.c), called by the files it
 * calls (through c->viewer, so that no call goes back up): each bundle
 * read (@bundle: its state kept while listing); while listing, lost
 * events (@count, -1 unknown) on @cpu of .dat buffer @buffer before
 * the next event there (@lost, a row instead of a mark in the .dat), each event of @buffer
 * (@row, whose record is built only when building it changes
 * what the trace's metadata will hold: a printk string,
 * pft2dat-record.c), and a typed event of table row @idx (@ev: its time,
 * pid and CPU read) that may be listed without reading its values
 * (@listed: 1 when it was, 0 when they must be read, -EBADMSG for a
 * message that does not parse, -ENOMEM).  While rebuilding, @row counts
 * the events as listing did and the records are built.
 */
struct pft_viewer {
	int	(*bundle)(struct pft_ctx *c, const uint8_t *p, size_t len,
			  unsigned int cpu);
	int	(*lost)(struct pft_ctx *c, int buffer, unsigned int cpu,
			uint64_t ts, int64_t count);
	int	(*row)(struct pft_ctx *c, const struct pft_ev *ev,
		       const struct f2d_format *f, int buffer);
	int	(*listed)(struct pft_ctx *c, struct pft_ev *ev,
			  unsigned int idx, const struct pb_field *msg);
};

/*
 * pft2dat-convert.c: the input in memory (mapped, or inflated: @mapped;
 * of an FXT, the packets it carries, pft_fxt_packets()) and out of it;
 * both passes over its packets, the metadata finished
 * (the caller has set c->f2d up, its tep included); the context freed.
 */
int pft_input_load(struct pft_ctx *c, const char *in, const void **p,
		   size_t *len, bool *mapped, char *err, size_t errlen);
void pft_input_free(const void *p, size_t len, bool mapped);
int pft_read(struct pft_ctx *c, const void *data, size_t len);
void pft_ctx_free(struct pft_ctx *c);

/*
 * pft2dat-fxt.c: when @fxt is an FXT file, the Perfetto packets it
 * carries (its blob records of type 3) in anonymous memory, for
 * pft_input_free() to unmap; the damage that stopped the reading in
 * c->st->damage.  Return: 1 with them, 0 when @fxt is no FXT, a negative
 * errno (-EINVAL: no packets, @err said).
 */
int pft_fxt_packets(struct pft_ctx *c, const char *in, const void *fxt,
		    size_t fxt_len, const void **p, size_t *len, char *err,
		    size_t errlen);

/*
 * The format the FXT holds for @name (of @system, any when NULL): its
 * text, its system in @sys; NULL when it holds none.
 */
const char *pft_fxt_format(struct pft_ctx *c, const char *system,
			   size_t slen, const char *name, size_t nlen,
			   const char **sys);
/*
 * The address the FXT's kallsyms gives symbol @name, or its printk
 * strings @text; 0 when none.
 */
uint64_t pft_fxt_sym_addr(struct pft_ctx *c, const char *name, size_t len);
uint64_t pft_fxt_str_addr(struct pft_ctx *c, const char *text, size_t len);
/*
 * The FXT's kallsyms and printk lines that have the kernel's form
 * (those that do not are input libtraceevent may misread), added to
 * @kallsyms and @printk.
 */
int pft_fxt_lines(struct pft_ctx *c, struct f2d_text *kallsyms,
		  struct f2d_text *printk);
/*
 * After the first pass, of a converted trace.dat's FXT: its file_info,
 * CPUSTAT and saved cmdlines the .dat's, thread groups its saved tgids
 * (as fxt2dat makes them of the same FXT), in place of what the packets
 * say.  Return: 0, or -ENOMEM.
 */
int pft_fxt_apply(struct pft_ctx *c);
void pft_fxt_free(struct pft_ctx *c);

/* The table, inverted (pft2dat-event.c). */
extern const struct pft_event_def pft_events[];
extern const unsigned int pft_nr_events;

/* pft2dat-meta.c: the packets that say what the trace is. */
int pft_meta_packet(struct pft_ctx *c, uint32_t field,
		    const struct pb_field *f);
/*
 * A name seen for @pid at @ts (the cmdlines): the latest wins; @ts 0 (a
 * process tree's) only names a pid no event names.
 */
void pft_meta_name(struct pft_ctx *c, int32_t pid, const uint8_t *s,
		   size_t len, uint64_t ts);
/* Who says what thread group a task is in, the more trusted later. */
enum pft_tgid_src {
	PFT_TGID_TREE = 1,	/* a process tree (/proc, when scanned) */
	PFT_TGID_KERNEL,	/* task_newtask, sched_process_exec */
};
/*
 * @pid is in thread group @tgid, or (@tgid negative) in the group of
 * task -@tgid, whatever that turns out to be (a thread made with
 * CLONE_THREAD): the saved tgids.  What the more trusted source said
 * stays; of one source the latest wins.
 */
void pft_meta_tgid(struct pft_ctx *c, int32_t pid, int32_t tgid,
		   enum pft_tgid_src src);
/* Where a packet starts: its sequence, its flags. */
void pft_meta_sequence(struct pft_ctx *c, uint64_t seq, uint64_t flags);
/*
 * The address in this .dat's kallsyms of the symbol interned as @iid on
 * the current sequence, or 0 when none is.
 */
uint64_t pft_meta_sym_addr(struct pft_ctx *c, uint64_t iid);
/*
 * The address in this .dat's printk formats of a kernel string the
 * recorder wrote as its text; 0 when out of memory.
 */
uint64_t pft_meta_str_addr(struct pft_ctx *c, const uint8_t *s, size_t len);
/*
 * Before the .dat is closed: kallsyms, printk formats, saved tgids into
 * f2d.
 */
int pft_meta_finish(struct pft_ctx *c);
void pft_meta_free(struct pft_ctx *c);

/* pft2dat-event.c: one bundle's FtraceEvents. */
int pft_event_bundle(struct pft_ctx *c, const uint8_t *p, size_t len);
/*
 * FtraceEvent field @id's event, @body its message, in the bundle @bundle
 * of @len bytes (whose descriptors name described events): its group
 * (@sys NULL when unsaid: a legacy generic event, a descriptor of no
 * group) and name, pointing into the table or the bundle.  0, -ENOENT
 * when none says, -ENOMEM.
 */
int pft_event_name(struct pft_ctx *c, uint32_t id, const uint8_t *bundle,
		   size_t len, const struct pb_field *body, const char **sys,
		   size_t *slen, const char **name, size_t *nlen);

/* pft2dat-instances.c: each sequence's instance, its .dat buffer. */
/* First pass, a bundle of the current sequence: its events noted. */
int pft_inst_bundle(struct pft_ctx *c, const uint8_t *p, size_t len);
/*
 * After the first pass: each ftrace instance's sequences to the .dat
 * buffer of its name (st->instances says what became what).
 */
int pft_inst_assign(struct pft_ctx *c);
void pft_inst_free(struct pft_ctx *c);
void pft_event_free(struct pft_ctx *c);

/* pft2dat-sched.c: a bundle's compact sched. */
int pft_sched_compact(struct pft_ctx *c, unsigned int cpu,
		      const uint8_t *p, size_t len);
/* Who runs on @cpu of the current .dat buffer; NULL: out of memory. */
struct pft_cpu *pft_sched_cpu(struct pft_ctx *c, unsigned int cpu);
/*
 * @cpu ran task @pid as its bundle began (its residue's running): -ENOMEM
 * or 0.
 */
int pft_sched_running(struct pft_ctx *c, unsigned int cpu, int32_t pid);
/* The bundle's renames and full switches up to @ts applied to @cpu's. */
void pft_sched_renames(struct pft_ctx *c, unsigned int cpu, uint64_t ts);

/*
 * A C identifier of 1 to @max characters: what names from the input must
 * be before they go into a format.
 */
static inline bool pft_ident_max(const char *s, size_t n, size_t max)
{
	size_t i;

	if (!n || n > max)
		return false;
	for (i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (i && s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* A field's name: at most 63 characters, as a made format's lines hold. */
static inline bool pft_ident(const char *s, size_t n)
{
	return pft_ident_max(s, n, 63);
}

/*
 * A system's or event's name: a tracefs directory's, up to NAME_MAX (a
 * user_events event of EventHeader, its provider's name in it, may pass
 * a hundred).
 */
static inline bool pft_event_ident(const char *s, size_t n)
{
	return pft_ident_max(s, n, 255);
}

/* pft2dat-record.c: an event read, written to the .dat. */
int pft_record_write(struct pft_ctx *c, struct pft_ev *ev);
/*
 * The format of event @system:@name (lengths @slen, @nlen) as events of
 * that name get it; NULL when it has none.
 */
struct pft_fmt *pft_record_fmt(struct pft_ctx *c, const char *system,
			       size_t slen, const char *name, size_t nlen);
/*
 * The events @cpu of @buffer lost around the record at @ts, as its
 * residue entry says (c->res.lost), into the .dat before the record: a
 * .dat says a loss with the record after it, and a loss after a CPU's
 * last record has none but that one (where the default FXT's way back,
 * fxt2dat, puts it too).
 */
int pft_record_lost(struct pft_ctx *c, int buffer, unsigned int cpu,
		    uint64_t ts);

/*
 * pft2dat-residue.c: the bundle's residue (a TCFXT_BUNDLE_RESIDUE field,
 * or none: @f NULL) read; then, before each event of @kind (enum
 * tcfxt_res_kind), its entry taken into c->res, which pft_record_write()
 * applies.  -EBADMSG: a residue that does not parse (the bundle's events
 * are read without it, c->st->damage says so).
 */
int pft_res_bundle(struct pft_ctx *c, const struct pb_field *f);
/*
 * The first pass: the .dat buffers a residue's decls name, added; the
 * formats they name, noted.
 */
int pft_res_buffers(struct pft_ctx *c, const struct pb_field *f);
/*
 * Between the passes: the parse of each format noted is tried ahead
 * (f2d_format_foresee()), the FXT's own text of it, as the second pass
 * will add it.
 */
int pft_res_foresee(struct pft_ctx *c);
int pft_res_take(struct pft_ctx *c, unsigned int kind);
/*
 * After the bundle's events: the records its residue keeps whole (the
 * copies of records another buffer held), written to the .dat.
 */
int pft_res_copies(struct pft_ctx *c, unsigned int cpu);
void pft_res_free(struct pft_ctx *c);
/* What the formats left unsaid, for the summary. */
void pft_record_free(struct pft_ctx *c);

#endif /* _PFT2DAT_INTERN_H */
