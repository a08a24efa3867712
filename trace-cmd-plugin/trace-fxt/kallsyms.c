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
 * definition before the library's.  Between kallsyms_defer() and
 * kallsyms_join(), it hands a copy of the text to a thread that calls
 * libtraceevent's own parser (the same functions registered, in the same
 * order) while libtracecmd goes on with the event formats; otherwise it
 * calls libtraceevent's at once.
 *
 * Why that is safe: the parse only adds to the handle's function list
 * (tep_register_function(): funclist, func_count), which nothing else
 * touches while the headers are read; libtracecmd ignores its return;
 * and the caller joins before the first look-up.
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

typedef int (*kallsyms_parse_fn)(struct tep_handle *, const char *);

static struct {
	bool			armed;		/* kallsyms_defer() said so */
	bool			running;	/* a parse is on the thread */
	pthread_t		thread;
	struct tep_handle	*tep;
	char			*text;		/* our copy: the caller frees its */
} kallsyms;

/* libtraceevent's tep_parse_kallsyms(), or NULL. */
static kallsyms_parse_fn kallsyms_real(void)
{
	static kallsyms_parse_fn real;

	if (!real)
		real = (kallsyms_parse_fn)dlsym(RTLD_NEXT,
						"tep_parse_kallsyms");
	return real;
}

static void *kallsyms_thread(void *arg)
{
	kallsyms_real()(kallsyms.tep, kallsyms.text);
	return NULL;
}

/* The parse on the thread, if one runs, finished. */
static void kallsyms_wait(void)
{
	if (!kallsyms.running)
		return;
	pthread_join(kallsyms.thread, NULL);
	kallsyms.running = false;
	free(kallsyms.text);
	kallsyms.text = NULL;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *text)
{
	kallsyms_parse_fn real = kallsyms_real();

	if (!real)
		return -1;
	/* a second section: after the first, never beside it */
	kallsyms_wait();
	if (!kallsyms.armed)
		return real(tep, text);
	kallsyms.text = strdup(text);
	if (!kallsyms.text)
		return real(tep, text);
	kallsyms.tep = tep;
	if (pthread_create(&kallsyms.thread, NULL, kallsyms_thread, NULL)) {
		free(kallsyms.text);
		kallsyms.text = NULL;
		return real(tep, text);
	}
	kallsyms.running = true;
	return 0;
}

void kallsyms_defer(void)
{
	kallsyms.armed = true;
}

void kallsyms_join(void)
{
	kallsyms.armed = false;
	kallsyms_wait();
}
