// SPDX-License-Identifier: GPL-2.0-only
/*
 * usage.c - what trace-fxt says of itself on a terminal: the list of
 * commands (trace-fxt help), a command's help (trace-fxt help COMMAND,
 * trace-fxt COMMAND -h) printed from its table in trace-fxt.h's terms,
 * the short reminder after a usage error, and --version with the
 * libraries it runs with.
 */
#include <link.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "trace-fxt.h"

#ifndef TRACE_FXT_VERSION
#define TRACE_FXT_VERSION "unknown"
#endif
#ifndef TRACE_FXT_TC_VERSION
#define TRACE_FXT_TC_VERSION "unknown"
#endif
#ifndef TRACE_FXT_TEP_VERSION
#define TRACE_FXT_TEP_VERSION "unknown"
#endif

/* The help's width, and where an option's text starts. */
#define HELP_WIDTH	79
#define HELP_TEXT_COL	26

const struct trace_fxt_opt trace_fxt_help_opt[] = {
	{ .key = 'h', .letter = true, .name = "help",
	  .help = "print this help and exit" },
	{ 0 }
};

const char *trace_fxt_dir_name(unsigned int dirs)
{
	switch (dirs) {
	case TRACE_FXT_TO_FXT:
		return ".dat -> FXT";
	case TRACE_FXT_TO_DAT:
		return "FXT -> .dat";
	}
	return NULL;
}

/*
 * @text from column @col (the cursor is at @at), words wrapped at
 * HELP_WIDTH, continued at column @col.
 */
static void help_wrap(FILE *out, const char *text, int at, int col)
{
	const char *w = text;
	int len;

	if (at && at >= col) {
		fputc('\n', out);
		at = 0;
	}
	for (;;) {
		while (*w == ' ')
			w++;
		if (!*w)
			break;
		len = (int)strcspn(w, " ");
		if (at > col && at + 1 + len > HELP_WIDTH) {
			fputc('\n', out);
			at = 0;
		}
		if (at < col) {
			fprintf(out, "%*s", col - at, "");
			at = col;
		} else if (at > col) {
			fputc(' ', out);
			at++;
		}
		fwrite(w, 1, len, out);
		at += len;
		w += len;
	}
	fputc('\n', out);
}

static const char *name_sep(const struct trace_fxt_cmd *cmd)
{
	return cmd->name ? " " : "";
}

static const char *name_of(const struct trace_fxt_cmd *cmd)
{
	return cmd->name ? cmd->name : "";
}

static void help_synopsis(FILE *out, const struct trace_fxt_cmd *cmd)
{
	int i;

	for (i = 0; i < 3 && cmd->synopsis[i]; i++)
		fprintf(out, "%s trace-fxt%s%s %s\n", i ? "      " : "usage:",
			name_sep(cmd), name_of(cmd), cmd->synopsis[i]);
}

/* How the help shows @o's argument: its placeholder, or the choices. */
const char *trace_fxt_opt_value(const struct trace_fxt_opt *o, char *buf,
				size_t len)
{
	size_t i;

	if (o->arg != TRACE_FXT_ARG_CHOICE || o->value)
		return o->value ? o->value : "";
	snprintf(buf, len, "%s", o->words);
	for (i = 0; buf[i]; i++)
		if (buf[i] == ' ')
			buf[i] = '|';
	return buf;
}

/* -o, --output FILE */
static int opt_forms(const struct trace_fxt_opt *o, char *buf, size_t len)
{
	char value[64];

	if (o->letter)
		return snprintf(buf, len, "-%c, --%s%s%s", o->key, o->name,
				o->arg ? " " : "",
				trace_fxt_opt_value(o, value, sizeof(value)));
	return snprintf(buf, len, "--%s%s%s", o->name, o->arg ? " " : "",
			trace_fxt_opt_value(o, value, sizeof(value)));
}

/* What @o does, then its direction and its default in parentheses. */
void trace_fxt_opt_text(const struct trace_fxt_opt *o, char *buf, size_t len)
{
	const char *dir = trace_fxt_dir_name(o->dirs);
	const char *def = o->def;
	bool paren = dir || def || o->required;

	snprintf(buf, len, "%s%s%s%s%s%s%s%s", o->help, paren ? " (" : "",
		 dir ? dir : "", dir && (def || o->required) ? "; " : "",
		 def ? "default: " : "", def ? def : "",
		 o->required ? "required" : "", paren ? ")" : "");
}

static void help_opt(FILE *out, const struct trace_fxt_opt *o)
{
	char forms[128], text[1024];
	int n;

	n = opt_forms(o, forms, sizeof(forms));
	trace_fxt_opt_text(o, text, sizeof(text));
	fprintf(out, "  %s%s", o->letter ? "" : "    ", forms);
	help_wrap(out, text, n + (o->letter ? 2 : 6), HELP_TEXT_COL);
}

/* trace-fxt's own help: its commands, one line each */
static void help_commands(FILE *out, const struct trace_fxt_cmd *cmd)
{
	unsigned int i;

	fprintf(out, "\ncommands:\n");
	for (i = 0; i < cmd->nr_subs; i++) {
		fprintf(out, "  %-9s", cmd->subs[i]->name);
		help_wrap(out, cmd->subs[i]->summary, 11, 12);
	}
}

void trace_fxt_help_cmd(FILE *out, const struct trace_fxt_cmd *cmd)
{
	const struct trace_fxt_example *e;
	const struct trace_fxt_exit *x;
	const struct trace_fxt_opt *o;

	help_synopsis(out, cmd);
	fputc('\n', out);
	help_wrap(out, cmd->about, 0, 0);
	if (cmd->nr_subs)
		help_commands(out, cmd);
	fprintf(out, "\noptions:\n");
	for (o = cmd->opts; o && o->name; o++)
		help_opt(out, o);
	help_opt(out, trace_fxt_help_opt);
	if (cmd->examples && cmd->examples->line) {
		fprintf(out, "\nexamples:\n");
		for (e = cmd->examples; e->line; e++) {
			fprintf(out, "  trace-fxt %s\n", e->line);
			help_wrap(out, e->what, 0, 6);
		}
	}
	fprintf(out, "\nexit status:\n");
	for (x = cmd->exits; x && x->what; x++) {
		fprintf(out, "  %d", x->code);
		help_wrap(out, x->what, 3, 6);
	}
	if (cmd->nr_subs)
		fprintf(out, "\nSee 'trace-fxt help COMMAND', man trace-fxt-"
			"COMMAND and man trace-fxt-plugins.\n");
	else
		fprintf(out, "\nSee man trace-fxt-%s.\n", cmd->name);
}

int trace_fxt_usage(const struct trace_fxt_cmd *cmd, const char *what)
{
	fprintf(stderr, "trace-fxt%s%s: %s\n", name_sep(cmd), name_of(cmd),
		what);
	help_synopsis(stderr, cmd);
	fprintf(stderr, "'trace-fxt%s%s -h' says more\n", name_sep(cmd),
		name_of(cmd));
	return 2;
}

struct lib_seen {
	const char	*soname;	/* "libtracecmd.so" */
	char		path[PATH_MAX];
};

static int lib_find(struct dl_phdr_info *info, size_t size, void *priv)
{
	struct lib_seen *l = priv;
	const char *base = strrchr(info->dlpi_name, '/');

	base = base ? base + 1 : info->dlpi_name;
	if (strncmp(base, l->soname, strlen(l->soname)) ||
	    base[strlen(l->soname)] != '.')
		return 0;
	/* the file behind the soname's link names the full version */
	if (!realpath(info->dlpi_name, l->path))
		snprintf(l->path, sizeof(l->path), "%s", info->dlpi_name);
	return 1;
}

/* "libtracecmd 1.3.1 (/usr/lib/.../libtracecmd.so.1.3.1; built with 1.3.1)" */
static void version_lib(FILE *out, const char *name, const char *built)
{
	struct lib_seen l = { 0 };
	char soname[64];
	const char *v;

	snprintf(soname, sizeof(soname), "%s.so", name);
	l.soname = soname;
	if (!dl_iterate_phdr(lib_find, &l)) {
		fprintf(out, "%s: not loaded (built with %s)\n", name, built);
		return;
	}
	v = strstr(l.path, ".so.");
	fprintf(out, "%s %s (%s; built with %s)\n", name, v ? v + 4 : "?",
		l.path, built);
}

void trace_fxt_version(FILE *out)
{
	fprintf(out, "trace-fxt %s\n", TRACE_FXT_VERSION);
	version_lib(out, "libtracecmd", TRACE_FXT_TC_VERSION);
	version_lib(out, "libtraceevent", TRACE_FXT_TEP_VERSION);
}
