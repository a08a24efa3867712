// SPDX-License-Identifier: GPL-2.0-only
/*
 * kallsyms.c - libtraceevent's kallsyms parse, moved off the thread that
 * reads the headers.
 *
 * Opening a .dat, libtracecmd parses its kallsyms with libtraceevent's
 * tep_parse_kallsyms(): a sscanf() a line, a third of the time
 * tracecmd_open_head() takes on the bench recordings (callgrind: 450 M
 * of 1.2 G instructions), while the conversion's second core has little
 * to do until the records come.  trace-fxt defines tep_parse_kallsyms()
 * itself: the dynamic linker binds libtracecmd's call to the program's
 * definition before the library's.  After kallsyms_defer(), it hands a
 * copy of the text to a thread that calls
 * libtraceevent's own parser (the same functions registered, in the same
 * order) while libtracecmd goes on with the event formats; otherwise it
 * calls libtraceevent's at once.
 *
 * Why that is safe: the parse only adds to the handle's function list
 * (tep_register_function(): funclist, func_count), which nothing else
 * touches until a function is looked up; libtracecmd ignores its return;
 * and the first look-up waits for the parse.  trace-fxt defines the
 * three look-ups the conversion and libtracecmd make (tep_find_function,
 * tep_find_function_address, tep_find_function_info) the same way, to
 * wait for a running parse before they call libtraceevent's: the records
 * are read and mapped while the parse goes on, up to the first record
 * that names a function (on the bench recordings, a fifth of the time
 * to the first record).  The thread makes the first look-up itself, so
 * that libtraceevent's one-time sort of the symbols (~110 M
 * instructions) is done there too, not on the mapping's thread: kallsyms
 * is the last section libtracecmd registers functions from.
 *
 * And the parse itself is faster than libtraceevent's sscanf() a line
 * (450 M instructions on the bench recordings): every line of the shape
 * the kernel writes - "ADDR T NAME" or "ADDR T NAME\t[MODULE]", ADDR 1 to
 * 16 hex digits, single spaces - is split by hand and registered with
 * tep_register_function() as libtraceevent's parser registers it (the
 * same lines skipped: '$' names, 'A'/'a' symbols; the module's last
 * character dropped; in the same order).  A text with any other line is
 * handed to libtraceevent's parser whole.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "kallsyms.h"

#define KALLSYMS_EXPORT __attribute__((visibility("default")))

KALLSYMS_EXPORT int tep_parse_kallsyms(struct tep_handle *tep,
				       const char *kallsyms);
KALLSYMS_EXPORT const char *tep_find_function(struct tep_handle *tep,
					      unsigned long long addr);
KALLSYMS_EXPORT unsigned long long
tep_find_function_address(struct tep_handle *tep, unsigned long long addr);
KALLSYMS_EXPORT int tep_find_function_info(struct tep_handle *tep,
					   unsigned long long addr,
					   const char **name,
					   unsigned long long *start,
					   unsigned long *size);

/* libtraceevent's own definitions of the functions above */
static struct {
	int			(*parse)(struct tep_handle *, const char *);
	const char		*(*find)(struct tep_handle *,
					 unsigned long long);
	unsigned long long	(*find_address)(struct tep_handle *,
						unsigned long long);
	int			(*find_info)(struct tep_handle *,
					     unsigned long long, const char **,
					     unsigned long long *,
					     unsigned long *);
} real;

static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static void real_resolve(void)
{
	*(void **)&real.parse = dlsym(RTLD_NEXT, "tep_parse_kallsyms");
	*(void **)&real.find = dlsym(RTLD_NEXT, "tep_find_function");
	*(void **)&real.find_address = dlsym(RTLD_NEXT,
					     "tep_find_function_address");
	*(void **)&real.find_info = dlsym(RTLD_NEXT, "tep_find_function_info");
}

static struct {
	bool			armed;		/* kallsyms_defer() said so */
	bool			running;	/* a parse is on the thread */
	pthread_mutex_t		lock;		/* whoever waits for it */
	pthread_t		thread;
	struct tep_handle	*tep;
	char			*text;		/* our copy: the caller frees its */
} kallsyms = { .lock = PTHREAD_MUTEX_INITIALIZER };

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

/* libtraceevent's parse of @text, by hand when its lines allow. */
static int kallsyms_parse(struct tep_handle *tep, const char *text,
			  char *copy)
{
	if (copy && kallsyms_fast(tep, copy))
		return 0;
	return real.parse(tep, text);
}

static void *kallsyms_thread(void *arg)
{
	/*
	 * The text is our copy already: the hand split checks every line
	 * before it cuts any, so a text it gives up on is still whole for
	 * libtraceevent's parser
	 */
	kallsyms_parse(kallsyms.tep, kallsyms.text, kallsyms.text);
	/* libtraceevent sorts the symbols at the first look-up: here */
	if (real.find)
		real.find(kallsyms.tep, 0);
	return NULL;
}

/*
 * The parse on the thread, if one runs, finished.  Any thread may ask:
 * the mapping's looks a function up while the main one may join.
 */
static void kallsyms_wait(void)
{
	if (!__atomic_load_n(&kallsyms.running, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&kallsyms.lock);
	if (kallsyms.running) {
		pthread_join(kallsyms.thread, NULL);
		free(kallsyms.text);
		kallsyms.text = NULL;
		__atomic_store_n(&kallsyms.running, false, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&kallsyms.lock);
}

/* Before any of libtraceevent's functions above: its symbols all there. */
static void kallsyms_ready(void)
{
	kallsyms_wait();
	pthread_once(&real_once, real_resolve);
}

const char *tep_find_function(struct tep_handle *tep, unsigned long long addr)
{
	kallsyms_ready();
	return real.find ? real.find(tep, addr) : NULL;
}

unsigned long long
tep_find_function_address(struct tep_handle *tep, unsigned long long addr)
{
	kallsyms_ready();
	return real.find_address ? real.find_address(tep, addr) : 0;
}

int tep_find_function_info(struct tep_handle *tep, unsigned long long addr,
			   const char **name, unsigned long long *start,
			   unsigned long *size)
{
	kallsyms_ready();
	return real.find_info ? real.find_info(tep, addr, name, start, size)
			      : 0;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *text)
{
	/* a second section: after the first, never beside it */
	kallsyms_ready();
	if (!real.parse)
		return -1;
	if (!kallsyms.armed) {
		char *copy = strdup(text);
		int ret = kallsyms_parse(tep, text, copy);

		free(copy);
		return ret;
	}
	kallsyms.text = strdup(text);
	if (!kallsyms.text)
		return real.parse(tep, text);
	kallsyms.tep = tep;
	if (pthread_create(&kallsyms.thread, NULL, kallsyms_thread, NULL)) {
		free(kallsyms.text);
		kallsyms.text = NULL;
		return real.parse(tep, text);
	}
	__atomic_store_n(&kallsyms.running, true, __ATOMIC_RELEASE);
	return 0;
}

void kallsyms_defer(void)
{
	kallsyms.armed = true;
}
