/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fxt-input.h - the contract between the trace-fxt host and the trace-cmd
 * input plugin (trace-fxt-input.so).
 *
 * libtracecmd hands a plugin nothing but its input handle, so the host
 * hangs a request on that handle (tracecmd_set_private) before it loads
 * plugins.  The plugin only acts on a handle whose private pointer carries
 * the magic and ABI below; any other host's handle is left alone.  The
 * plugin reports back through the same structure, so the host can say
 * which plugin ran and why a conversion failed.
 */
#ifndef _FXT_INPUT_H
#define _FXT_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "dat-layout.h"

#define FXT_INPUT_MAGIC		0x46585449U	/* "FXTI" */
#define FXT_INPUT_ABI		9
#define FXT_INPUT_PLUGIN_NAME	"trace-fxt-input.so"

/*
 * The few libtracecmd entry points that the library exports but only
 * declares in trace-cmd's private header.
 */
struct trace_plugin_context;
struct trace_plugin_list;
struct tracecmd_input;
struct tep_handle;

struct trace_plugin_context *
tracecmd_plugin_context_create(int context, void *data);
struct tracecmd_input *
tracecmd_plugin_context_input(struct trace_plugin_context *ctx);
struct trace_plugin_list *
tracecmd_load_plugins(struct trace_plugin_context *ctx);
void tracecmd_unload_plugins(struct trace_plugin_list *list,
			     struct trace_plugin_context *ctx);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_version(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
unsigned long tracecmd_get_flags(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle,
				     const char **name, const char **version);
bool tracecmd_get_use_trace_clock(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
int tracecmd_long_size(struct tracecmd_input *handle);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle,
					  int cpu);
void tracecmd_set_all_cpus_to_timestamp(struct tracecmd_input *handle,
					unsigned long long time);
int tracecmd_set_cpu_to_timestamp(struct tracecmd_input *handle, int cpu,
				  unsigned long long ts);

#define FXT_TRACECMD_INPUT	0	/* enum tracecmd_context */
#define FXT_TRACECMD_IN_USECS	(1 << 2)	/* TRACECMD_FL_IN_USECS */

/* What the host asks for. */
struct fxt_input_opts {
	const char	**events;	/* "system:name", "name" or "system:*" */
	unsigned int	nr_events;
	const char	**buffers;	/* "top" or instance names; none = all */
	unsigned int	nr_buffers;
	uint64_t	cpu_mask[4];	/* CPUs 0..255; all zero = every CPU */
	bool		cpu_any_high;	/* CPUs >= 256 kept when a mask is set */
	uint64_t	start_ts;	/* keep events with start <= ts <= end */
	uint64_t	end_ts;
	bool		progress;	/* percentage on stderr */
	unsigned int	compress;	/* enum fxt_zip of fxt-zio.h */
	/* the .dat itself: its format texts, which libtracecmd drops */
	const char	*path;
	/* "pid tgid" lines, as the kernel's saved_tgids, or NULL */
	const char	*tgids;
	/*
	 * Every record at the top level, scheduling (sched_switch, wakeups)
	 * and the CPU counters (cpu_frequency, cpu_idle) as FXT records,
	 * for FXT readers that skip Perfetto's packets; false: each event
	 * once in the packets, the instants in nested records
	 */
	bool		fxt_records;
	/*
	 * Each event once, in the packets, with what they do not carry of
	 * its record in their bundle's residue (tcfxt-residue.h); no
	 * instants.  Not with fxt_records (the host refuses both).
	 */
	bool		once;
	/*
	 * once was asked for: a recording it cannot hold (map_res_fits())
	 * fails.  Else such a recording's events are instants too, said in
	 * the result's note.
	 */
	bool		once_asked;
	/* who reads the CPU data: enum fxt_input_reader */
	unsigned int	reader;
	/*
	 * The recording's functions in a handle of their own, when the
	 * host parses its kallsyms itself and the reading handle finds
	 * them only through a resolver, which tells no function's size:
	 * functions(functions_priv) gives it, waiting for the parse the
	 * first time (so that records are read meanwhile).  NULL: the
	 * reading handle has them
	 */
	struct tep_handle *(*functions)(void *priv);
	void		*functions_priv;
};

/* Who reads a .dat's CPU data (fxt_input_opts.reader). */
enum fxt_input_reader {
	FXT_INPUT_READ_ANY,		/* the pages, where the host mapped them */
	FXT_INPUT_READ_PAGES,		/* the plugin's page reader, or fail */
	FXT_INPUT_READ_LIBTRACECMD,	/* tracecmd_iterate_events_multi() */
};

/* What the plugin reports. */
struct fxt_input_result {
	bool		done;		/* a plugin took the request */
	int		status;		/* 0 or a negative errno */
	char		plugin[512];	/* path of the plugin that ran */
	char		error[512];	/* why it failed, for the user */
	char		note[512];	/* what the user should know, or "" */
	uint64_t	records_in;	/* ftrace records read */
	uint64_t	events_out;	/* ftrace records written */
	uint64_t	bytes_out;
	unsigned int	providers;
};

/*
 * The events the plugin's thread-group pass (map-tgid.c) reads, in the
 * order of its enum.  It needs them before it writes anything, so it
 * would read every record of the file twice; a host that walks the
 * records anyway (its check of the file) collects these and hands them
 * over (tgid_recs below).
 */
static const struct dat_event_name fxt_input_tgid_events[] = {
	{ "task", "task_newtask" }, { "sched", "sched_process_exec" },
	{ "sched", "sched_process_fork" }, { "ftrace", "print" },
};
#define FXT_INPUT_NR_TGID_EVENTS					\
	(sizeof(fxt_input_tgid_events) / sizeof(fxt_input_tgid_events[0]))

/*
 * The request the host hangs on the handle: what it asks for (opts);
 * what its check of the whole file (datcheck.h) found on the way, in
 * dat-layout.h's terms - the records of fxt_input_tgid_events
 * (tgid_recs) and where each CPU's pages lie, for the plugin's own page
 * reader (map-pages.h; pages.nr 0: libtracecmd reads them), with what
 * was damaged (pages.damage: not read, said as lost events whoever
 * reads); and what the plugin reports (res).
 */
struct fxt_input_req {
	uint32_t		magic;
	uint32_t		abi;
	int			out_fd;	/* stays the host's */
	struct fxt_input_opts	opts;
	struct dat_recs		tgid_recs;
	struct dat_pages	pages;
	struct fxt_input_result	res;
};

#endif /* _FXT_INPUT_H */
