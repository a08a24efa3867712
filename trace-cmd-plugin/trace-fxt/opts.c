// SPDX-License-Identifier: GPL-2.0-only
/*
 * opts.c - the subcommands' option parsing: getopt_long() fed from the
 * command's own table (trace-fxt.h), so that what a command accepts is
 * what its help, man page and completion list.  getopt_long()'s own
 * messages are off: an unknown, ambiguous or misplaced option is named
 * here, with the command that takes it when another one does, and the
 * way to the command's help.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "trace-fxt.h"

/* Options a command may have (the given ones are a 64-bit mask). */
#define OPTS_MAX	63

static struct {
	const struct trace_fxt_cmd	*cmd;
	struct option			longs[OPTS_MAX + 2];
	char				shorts[3 * OPTS_MAX + 8];
	const struct trace_fxt_opt	*opt[OPTS_MAX + 1];
	unsigned int			nr;
	uint64_t			given;	/* by index into opt[] */
	char				**argv;	/* the one being parsed */
	const struct trace_fxt_cmd	*main;	/* .subs: every command */
} st;

void trace_fxt_opts_main(const struct trace_fxt_cmd *main_cmd)
{
	st.main = main_cmd;
}

static void opts_add(const struct trace_fxt_opt *o)
{
	size_t len = strlen(st.shorts);

	st.opt[st.nr] = o;
	st.longs[st.nr] = (struct option) {
		.name = o->name,
		.has_arg = o->arg ? required_argument : no_argument,
		.val = o->key,
	};
	if (o->letter) {
		st.shorts[len++] = (char)o->key;
		if (o->arg)
			st.shorts[len++] = ':';
		st.shorts[len] = '\0';
	}
	st.nr++;
}

static int opts_index(int key)
{
	unsigned int i;

	for (i = 0; i < st.nr; i++)
		if (st.opt[i]->key == key)
			return (int)i;
	return -1;
}

/* The tables getopt_long() takes, made once per command. */
static int opts_build(const struct trace_fxt_cmd *cmd)
{
	const struct trace_fxt_opt *o;

	if (st.cmd == cmd)
		return 0;
	memset(st.longs, 0, sizeof(st.longs));
	/* ':' first: a missing argument is told apart from an unknown one */
	strcpy(st.shorts, ":");
	st.nr = 0;
	st.given = 0;
	for (o = cmd->opts; o && o->name; o++) {
		/* a key twice would make one option the other */
		if (st.nr == OPTS_MAX || opts_index(o->key) >= 0 ||
		    o->key == trace_fxt_help_opt->key)
			return -1;
		opts_add(o);
	}
	opts_add(trace_fxt_help_opt);
	st.cmd = cmd;
	return 0;
}

static const char *cmd_name(const struct trace_fxt_cmd *cmd)
{
	return cmd->name ? cmd->name : "";
}

/* "trace-fxt convert: " */
static void opts_say(const struct trace_fxt_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void opts_say(const struct trace_fxt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "trace-fxt%s%s: ", cmd->name ? " " : "", cmd_name(cmd));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; 'trace-fxt%s%s -h' lists its options\n",
		cmd->name ? " " : "", cmd_name(cmd));
}

/* Does @cmd take --@name (or -@letter)? */
static bool cmd_takes(const struct trace_fxt_cmd *cmd, const char *name,
		      int letter)
{
	const struct trace_fxt_opt *o;

	for (o = cmd->opts; o && o->name; o++)
		if (name ? !strcmp(o->name, name) :
			   o->letter && o->key == letter)
			return true;
	return false;
}

/* The other commands that take it: "'trace-fxt dump', 'trace-fxt'". */
static void opts_takers(const char *name, int letter, char *buf, size_t len)
{
	const struct trace_fxt_cmd *c;
	unsigned int i;
	size_t at = 0;

	buf[0] = '\0';
	for (i = 0; st.main && i <= st.main->nr_subs; i++) {
		c = i < st.main->nr_subs ? st.main->subs[i] : st.main;
		if (c == st.cmd || !cmd_takes(c, name, letter))
			continue;
		at += snprintf(buf + at, at < len ? len - at : 0,
			       "%s'trace-fxt%s%s'", at ? ", " : "",
			       c->name ? " " : "", cmd_name(c));
	}
}

/*
 * An unknown option (@shown as given: --@name, or -@letter when @name is
 * NULL), and who takes it (options go after the command).
 */
static void opts_unknown(const char *shown, const char *name, int letter)
{
	char takers[256];

	opts_takers(name, letter, takers, sizeof(takers));
	if (!*takers)
		opts_say(st.cmd, "unknown option '%s'", shown);
	else if (!st.cmd->name)
		opts_say(st.cmd, "unknown option '%s' (%s takes it, after "
			 "the command)", shown, takers);
	else
		opts_say(st.cmd, "unknown option '%s' (%s takes it)", shown,
			 takers);
}

/* getopt_long() returned '?': say what was wrong with @arg. */
static void opts_bad(const char *arg, int letter)
{
	char name[64], amb[256] = "";
	const struct trace_fxt_opt *hit = NULL;
	unsigned int i, nr_hits = 0;
	size_t n, at = 0;

	/*
	 * getopt_long() puts a short option's letter in optopt, a long
	 * flag's key when it was given a value, and 0 for a long option it
	 * does not know; @arg is the element it was at.
	 */
	if (letter > 0 && !(arg && !strncmp(arg, "--", 2) && strchr(arg, '='))) {
		char shown[3] = { '-', (char)letter, '\0' };

		opts_unknown(shown, NULL, letter);
		return;
	}
	n = strcspn(arg + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)n, arg + 2);
	for (i = 0; i < st.nr; i++) {
		if (strncmp(st.opt[i]->name, name, n))
			continue;
		if (!st.opt[i]->name[n]) {
			hit = st.opt[i];
			nr_hits = 1;
			break;
		}
		hit = st.opt[i];
		nr_hits++;
		at += snprintf(amb + at, at < sizeof(amb) ? sizeof(amb) - at : 0,
			       "%s--%s", at ? ", " : "", st.opt[i]->name);
	}
	if (nr_hits > 1) {
		opts_say(st.cmd, "option '--%s' is ambiguous (%s)", name, amb);
	} else if (hit && !hit->arg && arg[2 + n] == '=') {
		opts_say(st.cmd, "option '--%s' takes no argument", hit->name);
	} else {
		char shown[sizeof(name) + 2];

		snprintf(shown, sizeof(shown), "--%s", name);
		opts_unknown(shown, name, 0);
	}
}


static const char *opt_forms(const struct trace_fxt_opt *o, char *buf,
			     size_t len)
{
	if (o->letter)
		snprintf(buf, len, "-%c/--%s", o->key, o->name);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}

void trace_fxt_getopt_reset(void)
{
	st.argv = NULL;
}

int trace_fxt_getopt(const struct trace_fxt_cmd *cmd, int argc, char **argv)
{
	int c, idx = -1, i;
	char forms[80];

	if (opts_build(cmd)) {
		opts_say(cmd, "more than %d options, or a key twice (a bug)",
			 OPTS_MAX);
		return '?';
	}
	if (argv != st.argv) {
		/* a new command line: getopt_long() starts over too */
		st.argv = argv;
		st.given = 0;
		optind = 0;
	}
	opterr = 0;
	c = getopt_long(argc, argv, st.shorts, st.longs, &idx);
	switch (c) {
	case -1:
		return -1;
	case ':':
		i = opts_index(optopt);
		if (i >= 0)
			opts_say(cmd, "option %s needs an argument (%s)",
				 opt_forms(st.opt[i], forms, sizeof(forms)),
				 st.opt[i]->value);
		else
			opts_say(cmd, "option '%s' needs an argument",
				 argv[optind - 1]);
		return '?';
	case '?':
		opts_bad(optind > 1 ? argv[optind - 1] : NULL, optopt);
		return '?';
	}
	i = idx >= 0 ? idx : opts_index(c);
	if (i >= 0)
		st.given |= 1ULL << i;
	if (c == trace_fxt_help_opt->key) {
		trace_fxt_help_cmd(stdout, cmd);
		return 'h';
	}
	return c;
}

int trace_fxt_opt_exit(const struct trace_fxt_cmd *cmd, int key)
{
	int i;
	char forms[80];

	if (key == 'h')
		return 0;
	if (key != '?') {
		/* in the table, not in the command's switch */
		i = opts_index(key);
		trace_fxt_err("%s: option %s is not handled (a bug)",
			      cmd_name(cmd), i < 0 ? "?" :
			      opt_forms(st.opt[i], forms, sizeof(forms)));
	}
	return 2;
}

int trace_fxt_opt_check_dir(const struct trace_fxt_cmd *cmd, unsigned int dir,
			    const char *why)
{
	unsigned int i;
	char forms[80];

	if (st.cmd != cmd)
		return 0;
	for (i = 0; i < st.nr; i++) {
		const struct trace_fxt_opt *o = st.opt[i];

		if (!(st.given & (1ULL << i)) || !o->dirs || (o->dirs & dir))
			continue;
		opts_say(cmd, "%s concerns %s conversions only, and %s",
			 opt_forms(o, forms, sizeof(forms)),
			 trace_fxt_dir_name(o->dirs), why);
		return 2;
	}
	return 0;
}

const struct trace_fxt_cmd *trace_fxt_sub(const struct trace_fxt_cmd *parent,
					  const char *name)
{
	unsigned int i;

	for (i = 0; i < parent->nr_subs; i++)
		if (!strcmp(parent->subs[i]->name, name))
			return parent->subs[i];
	return NULL;
}
