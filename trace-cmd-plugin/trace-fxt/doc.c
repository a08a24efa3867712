// SPDX-License-Identifier: GPL-2.0-only
/*
 * doc.c - the sections of the man pages that the commands' tables hold
 * (trace-fxt __doc PART [COMMAND], run by `make doc`): the SYNOPSIS, and
 * the OPTIONS, EXAMPLES and EXIT STATUS (trace-fxt's own page: COMMANDS
 * first), in AsciiDoc for the page's include:: lines.  The options'
 * texts are the help's (usage.c), so that the page and the help say the
 * same.  Every text goes through as it is: AsciiDoc's markup is kept out
 * of it by passthroughs (+++...+++, DocBook XML inside).
 */
#include <string.h>

#include "trace-fxt.h"

/* @s as the inside of a +++ passthrough: XML, and no "+++" in it. */
static void doc_put(FILE *out, const char *s)
{
	fputs("+++", out);
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '+')
			fputs("&#43;", out);
		else
			fputc(*s, out);
	}
	fputs("+++", out);
}

static void doc_section(FILE *out, const char *title)
{
	size_t n = strlen(title);

	fprintf(out, "%s\n", title);
	while (n--)
		fputc('-', out);
	fputs("\n", out);
}

static void doc_synopsis(FILE *out, const struct trace_fxt_cmd *cmd)
{
	int i;

	doc_section(out, "SYNOPSIS");
	fputs("[verse]\n", out);
	for (i = 0; i < 3 && cmd->synopsis[i]; i++) {
		fprintf(out, "*trace-fxt%s%s* ", cmd->name ? " " : "",
			cmd->name ? cmd->name : "");
		doc_put(out, cmd->synopsis[i]);
		fputc('\n', out);
	}
}

/* *-o*, *--output* 'OUT':: then the help's text */
static void doc_opt(FILE *out, const struct trace_fxt_opt *o)
{
	char value[128], text[1024];

	if (o->letter)
		fprintf(out, "*-%c*, ", o->key);
	fprintf(out, "*--%s*", o->name);
	if (o->arg) {
		fputs(" '", out);
		doc_put(out, trace_fxt_opt_value(o, value, sizeof(value)));
		fputc('\'', out);
	}
	fputs("::\n    ", out);
	trace_fxt_opt_text(o, text, sizeof(text));
	doc_put(out, text);
	fputs("\n\n", out);
}

static void doc_body(FILE *out, const struct trace_fxt_cmd *cmd)
{
	const struct trace_fxt_example *e;
	const struct trace_fxt_exit *x;
	const struct trace_fxt_opt *o;
	unsigned int i;

	if (cmd->nr_subs) {
		doc_section(out, "COMMANDS");
		for (i = 0; i < cmd->nr_subs; i++) {
			fprintf(out, "*%s*::\n    ", cmd->subs[i]->name);
			doc_put(out, cmd->subs[i]->summary);
			fprintf(out, "; see *trace-fxt-%s*(1).\n\n",
				cmd->subs[i]->name);
		}
	}
	doc_section(out, "OPTIONS");
	for (o = cmd->opts; o && o->name; o++)
		doc_opt(out, o);
	doc_opt(out, trace_fxt_help_opt);
	if (cmd->examples && cmd->examples->line) {
		doc_section(out, "EXAMPLES");
		for (e = cmd->examples; e->line; e++) {
			doc_put(out, e->what);
			fprintf(out, ":\n\n----\n$ trace-fxt %s\n----\n\n",
				e->line);
		}
	}
	doc_section(out, "EXIT STATUS");
	for (x = cmd->exits; x && x->what; x++) {
		fprintf(out, "*%d*::\n    ", x->code);
		doc_put(out, x->what);
		fputs("\n\n", out);
	}
}

int trace_fxt_doc(int argc, char **argv, const struct trace_fxt_cmd *main_cmd)
{
	const struct trace_fxt_cmd *cmd = main_cmd;

	if (argc < 2 || argc > 3)
		goto usage;
	if (argc == 3) {
		cmd = trace_fxt_sub(main_cmd, argv[2]);
		if (!cmd)
			goto usage;
	}
	if (!strcmp(argv[1], "synopsis"))
		doc_synopsis(stdout, cmd);
	else if (!strcmp(argv[1], "body"))
		doc_body(stdout, cmd);
	else
		goto usage;
	return fflush(stdout) ? 1 : 0;
usage:
	trace_fxt_err("__doc synopsis|body [COMMAND]: the man pages' "
		      "generated sections");
	return 2;
}
