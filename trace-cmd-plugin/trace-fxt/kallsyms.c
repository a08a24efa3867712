// SPDX-License-Identifier: GPL-2.0-only
/*
 * kallsyms.c - a recording's kallsyms parsed on a thread of its own and
 * served through libtraceevent's function resolver (kallsyms.h).
 *
 * The parse registers the functions in a tep_handle of its own, with
 * tep_register_function(), as tep_parse_kallsyms() registers them: the
 * same lines skipped ('$' names, 'A'/'a' symbols), the module's last
 * character dropped, in the same order.  Look-ups then go through
 * libtraceevent's own table of that handle, so they find what a handle
 * that parsed the kallsyms itself would find, byte for byte.  The thread
 * makes the first look-up too: libtraceevent sorts the table then (~110 M
 * instructions on a real recording), off the threads that wait for it.
 *
 * And the parse is faster than libtraceevent's sscanf() a line: every
 * line of the shape the kernel writes - "ADDR T NAME" or "ADDR T
 * NAME\t[MODULE]", ADDR 1 to 16 hex digits, single spaces - is split by
 * hand.  A text with any other line is handed to tep_parse_kallsyms()
 * whole.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "kallsyms.h"

struct kallsyms {
	struct tep_handle	*funcs;		/* the functions, alone */
	char			*text;		/* our copy, cut into names */
	pthread_t		thread;
	bool			running;	/* the thread is to be joined */
	pthread_mutex_t		lock;		/* whoever joins it */
};

static bool kallsyms_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Where the non-space run at @p ends (at @end at most). */
static char *kallsyms_word(char *p, char *end)
{
	while (p < end && !kallsyms_space(*p))
		p++;
	return p;
}

/*
 * The line [@p, @end) in the kernel's shape: its address, type, name and
 * module (NULL if none) set, the name and module NUL-terminated when
 * @cut; false for any other shape.
 */
static bool kallsyms_line(char *p, char *end, bool cut,
			  unsigned long long *addr, char *type, char **name,
			  char **mod)
{
	unsigned long long v = 0;
	char *q;
	int digits = 0, d;

	for (; p < end && digits < 17; p++, digits++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			d = (*p | 0x20) - 'a' + 10;
		else
			break;
		v = v << 4 | (unsigned int)d;
	}
	if (!digits || digits > 16 || end - p < 4 || p[0] != ' ' ||
	    kallsyms_space(p[1]) || p[2] != ' ' || kallsyms_space(p[3]))
		return false;
	*addr = v;
	*type = p[1];
	*name = p + 3;
	q = kallsyms_word(*name, end);
	*mod = NULL;
	if (q < end) {
		/* "\t[" and a module of one word at least, to the end */
		if (end - q < 3 || q[0] != '\t' || q[1] != '[' ||
		    kallsyms_space(q[2]) || kallsyms_word(q + 2, end) != end)
			return false;
		*mod = q + 2;
		if (cut)
			end[-1] = '\0';	/* the ']' */
	}
	if (cut)
		*q = '\0';
	return true;
}

/*
 * @text (our copy: it is cut into names) registered as libtraceevent's
 * parser registers it; false, nothing registered, when a line is not in
 * the kernel's shape.
 */
static bool kallsyms_fast(struct tep_handle *tep, char *text)
{
	unsigned long long addr;
	char *p, *nl, *end = text + strlen(text), *name, *mod, type;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (p = text; p < end; p = nl + 1) {
			nl = memchr(p, '\n', end - p);
			if (!nl)
				nl = end;
			if (nl == p)
				continue;	/* strtok() skips empty lines */
			if (!kallsyms_line(p, nl, pass, &addr, &type, &name,
					   &mod))
				return false;
			if (pass && name[0] != '$' && type != 'A' &&
			    type != 'a')
				tep_register_function(tep, name, addr, mod);
		}
	}
	return true;
}

/* @ks->text registered in @ks->funcs, by hand when its lines allow. */
static void *kallsyms_parse(void *arg)
{
	struct kallsyms *ks = arg;

	/*
	 * The hand split checks every line before it cuts any, so a text
	 * it gives up on is still whole for libtraceevent's parser
	 */
	if (!kallsyms_fast(ks->funcs, ks->text))
		tep_parse_kallsyms(ks->funcs, ks->text);
	/* every name was copied: the text is done with */
	free(ks->text);
	ks->text = NULL;
	/* libtraceevent sorts the symbols at the first look-up: here */
	tep_find_function(ks->funcs, 0);
	return NULL;
}

struct kallsyms *kallsyms_start(const char *text, size_t len)
{
	struct kallsyms *ks = calloc(1, sizeof(*ks));

	if (!ks)
		return NULL;
	ks->funcs = tep_alloc();
	ks->text = malloc(len + 1);
	if (!ks->funcs || !ks->text) {
		tep_free(ks->funcs);
		free(ks->text);
		free(ks);
		return NULL;
	}
	memcpy(ks->text, text, len);
	ks->text[len] = '\0';
	pthread_mutex_init(&ks->lock, NULL);
	if (pthread_create(&ks->thread, NULL, kallsyms_parse, ks))
		kallsyms_parse(ks);
	else
		__atomic_store_n(&ks->running, true, __ATOMIC_RELEASE);
	return ks;
}

struct tep_handle *kallsyms_functions(struct kallsyms *ks)
{
	if (!__atomic_load_n(&ks->running, __ATOMIC_ACQUIRE))
		return ks->funcs;
	pthread_mutex_lock(&ks->lock);
	if (ks->running) {
		pthread_join(ks->thread, NULL);
		__atomic_store_n(&ks->running, false, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&ks->lock);
	return ks->funcs;
}

/*
 * libtraceevent's resolver: the function @addrp is in, *@addrp moved to
 * its start.  The module is left unset: no public call of libtraceevent
 * gives it, and its printing never shows it.
 */
static char *kallsyms_resolve(void *priv, unsigned long long *addrp,
			      char **modp)
{
	struct tep_handle *funcs = kallsyms_functions(priv);
	unsigned long long start;
	const char *name;

	if (!tep_find_function_info(funcs, *addrp, &name, &start, NULL))
		return NULL;
	*addrp = start;
	return (char *)name;
}

int kallsyms_attach(struct kallsyms *ks, struct tep_handle *tep)
{
	return tep_set_function_resolver(tep, kallsyms_resolve, ks) ? -ENOMEM
								     : 0;
}

void kallsyms_free(struct kallsyms *ks)
{
	if (!ks)
		return;
	tep_free(kallsyms_functions(ks));
	pthread_mutex_destroy(&ks->lock);
	free(ks->text);
	free(ks);
}
