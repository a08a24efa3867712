// SPDX-License-Identifier: GPL-2.0-only
/*
 * pft2dat-record.c - an event read from the packets, written as the .dat
 * event of its system and name.
 *
 * Its format is chosen at the event's first occurrence: the kernel's
 * (opts->formats/SYSTEM/EVENT/format) when each field the event carries
 * is a field of it, of the same kind (text or number); else one made of
 * the fields it carries, numbered by fxt2dat-format.c from F2D_FIRST_ID.
 * The record is laid out by libfxt-tep.a's builder (f2d_rec_begin(),
 * f2d_put_*()) and handed to f2d_emit(), which keeps it to be sorted per
 * CPU.  Two values the recorder changed are turned back, by the kernel
 * field's type, as its recorder turned them (traced_probes'
 * translation): a dev_t, which it writes as userspace's makedev()
 * (perfetto-dev.h), and a void * when it symbolized kernel addresses
 * (the value is then the symbol's interned id: pft2dat-meta.c gives it
 * an address of its own in the .dat's kallsyms).
 */
#include <errno.h>
#include <sched.h>
#include <event-parse.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfetto-dev.h"
#include "pft2dat-intern.h"

/* The most a format file may be. */
#define PFT_FORMAT_MAX	(64 << 10)

static char *read_text(const char *path, size_t *len)
{
	char *buf = NULL;
	ssize_t n;
	size_t have = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return NULL;
	buf = malloc(PFT_FORMAT_MAX + 1);
	while (buf && have < PFT_FORMAT_MAX &&
	       (n = read(fd, buf + have, PFT_FORMAT_MAX - have)) > 0)
		have += (size_t)n;
	close(fd);
	if (!buf || !have) {
		free(buf);
		return NULL;
	}
	buf[have] = '\0';
	*len = have;
	return buf;
}

/*
 * Whether the kernel's format @text has a field @name of @kind: a
 * "\tfield:TYPE NAME;" or "NAME[N];" line, whose type is text (char
 * array, __data_loc) for a string, anything else for a number.
 */
static bool format_has(const char *text, const struct pft_val *v)
{
	const char *line = text, *semi, *start, *end;

	while ((line = strstr(line, "\tfield:"))) {
		line += 7;
		semi = strchr(line, ';');
		if (!semi)
			return false;
		end = semi;
		if (end > line && end[-1] == ']')
			while (end > line && *end != '[')
				end--;
		start = end;
		while (start > line && start[-1] != ' ' && start[-1] != '*')
			start--;
		if ((size_t)(end - start) == v->nlen &&
		    !memcmp(start, v->name, v->nlen)) {
			size_t n = (size_t)(semi - line);
			bool text_field = memmem(line, n, "char", 4) &&
					  (semi[-1] == ']' ||
					   memmem(line, n, "__data_loc", 10));
			bool ptr = !text_field && semi[-1] != ']' &&
				   memmem(line, n, "char *", 6);

			/* a char * the recorder may write as its text (kstr) */
			return (v->kind == PFT_V_STR) == text_field ||
			       (v->kind == PFT_V_STR && ptr);
		}
		line = semi;
	}
	return false;
}

static bool kernel_fits(const char *text, const struct pft_ev *ev)
{
	unsigned int i;

	for (i = 0; i < ev->n; i++)
		if (!format_has(text, &ev->vals[i]))
			return false;
	return true;
}

/* A format of the fields @ev carries, after the common ones. */
static char *made_body(const struct pft_ev *ev)
{
	struct f2d_text t = { 0 }, pf = { 0 }, args = { 0 };
	char line[256];
	unsigned int i, k, off = 8, size, align;
	char *out = NULL;

	if (f2d_text_add(&t, F2D_COMMON_FIELDS, strlen(F2D_COMMON_FIELDS)))
		goto out;
	for (i = 0; i < ev->n; i++) {
		const struct pft_val *v = &ev->vals[i];
		const char *type, *fmt;
		bool comm = false;
		int n;

		if (!pft_ident(v->name, v->nlen))
			continue;
		switch (v->kind) {
		case PFT_V_STR:
			/* a task's comm is char[TASK_COMM_LEN] everywhere */
			comm = v->nlen >= 4 &&
			       !memcmp(v->name + v->nlen - 4, "comm", 4);
			type = comm ? "char" : "__data_loc char[]";
			size = comm ? 16 : 4;
			fmt = "%s";
			break;
		case PFT_V_ARR:
			type = "u64";
			size = 8 * (v->narr ? v->narr : 1);
			fmt = "%llx";
			break;
		case PFT_V_INT:
			type = v->bits == 32 ? "int" : "s64";
			size = v->bits == 32 ? 4 : 8;
			fmt = v->bits == 32 ? "%d" : "%lld";
			break;
		default:
			type = v->bits == 32 ? "unsigned int" : "u64";
			size = v->bits == 32 ? 4 : 8;
			fmt = v->bits == 32 ? "%u" : "%llu";
		}
		align = comm ? 1 : size >= 8 ? 8 : size;
		off = (off + align - 1) / align * align;
		if (v->kind == PFT_V_ARR || comm)
			n = snprintf(line, sizeof(line), "\tfield:%s %.*s[%u];"
				     "\toffset:%u;\tsize:%u;\tsigned:0;\n",
				     type, (int)v->nlen, v->name,
				     comm ? 16 : size / 8, off, size);
		else
			n = snprintf(line, sizeof(line), "\tfield:%s %.*s;"
				     "\toffset:%u;\tsize:%u;\tsigned:%d;\n",
				     type, (int)v->nlen, v->name, off, size,
				     v->kind == PFT_V_INT);
		if (f2d_text_add(&t, line, (size_t)n))
			goto out;
		off += size;
		n = snprintf(line, sizeof(line), "%s%.*s=", pf.len ? " " : "",
			     (int)v->nlen, v->name);
		if (f2d_text_add(&pf, line, (size_t)n))
			goto out;
		for (k = 0; k < (v->kind == PFT_V_ARR ? size / 8 : 1); k++) {
			n = snprintf(line, sizeof(line), "%s%s", k ? "," : "",
				     fmt);
			if (f2d_text_add(&pf, line, (size_t)n))
				goto out;
			if (v->kind == PFT_V_STR && !comm)
				n = snprintf(line, sizeof(line),
					     ", __get_str(%.*s)", (int)v->nlen,
					     v->name);
			else if (v->kind == PFT_V_ARR)
				n = snprintf(line, sizeof(line),
					     ", REC->%.*s[%u]", (int)v->nlen,
					     v->name, k);
			else
				n = snprintf(line, sizeof(line), ", REC->%.*s",
					     (int)v->nlen, v->name);
			if (f2d_text_add(&args, line, (size_t)n))
				goto out;
		}
	}
	if (f2d_text_add(&t, "\nprint fmt: \"", 13) ||
	    (pf.len && f2d_text_add(&t, pf.s, pf.len)) ||
	    f2d_text_add(&t, "\"", 1) ||
	    (args.len && f2d_text_add(&t, args.s, args.len)) ||
	    f2d_text_add(&t, "\n", 1))
		goto out;
	out = t.s;
	t.s = NULL;
out:
	f2d_text_free(&t);
	f2d_text_free(&pf);
	f2d_text_free(&args);
	return out;
}

/*
 * A legacy generic event names no system: the kernel's formats folder
 * may have the event under one.
 */
static char *system_of(struct pft_ctx *c, const struct pft_ev *ev)
{
	static const char *const guess[] = {
		"sched", "task", "irq", "timer", "workqueue", "block", "ext4",
		"writeback", "syscalls", "raw_syscalls", "power", "kmem",
		"signal", "net", "sock", "skb", "ftrace", NULL,
	};
	char path[512];
	unsigned int i;

	for (i = 0; c->o->formats && guess[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s/%.*s/format", c->o->formats,
			 guess[i], (int)ev->nlen, ev->name);
		if (!access(path, R_OK))
			return strdup(guess[i]);
	}
	return strdup("perfetto");
}

/* The format chosen for @name (of @system, any when NULL), or NULL. */
static struct pft_fmt *fmt_find(struct pft_ctx *c, const char *system,
				size_t slen, const char *name, size_t nlen)
{
	struct pft_fmt *pf;

	for (pf = c->fmts; pf; pf = pf->next)
		if (strlen(pf->name) == nlen && !memcmp(pf->name, name, nlen) &&
		    (!system || (strlen(pf->system) == slen &&
				 !memcmp(pf->system, system, slen))))
			return pf;
	return NULL;
}

static struct pft_fmt *fmt_choose(struct pft_ctx *c, struct pft_ev *ev)
{
	struct pft_fmt *pf;
	char path[512], *text = NULL, *body;
	const char *fxt, *fsys = NULL;
	size_t len;
	int ret;

	pf = fmt_find(c, ev->system, ev->slen, ev->name, ev->nlen);
	if (pf)
		return pf;
	if (!pft_event_ident(ev->name, ev->nlen) ||
	    (ev->system && !pft_event_ident(ev->system, ev->slen)))
		return NULL;
	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return NULL;
	/* a converted trace.dat's own formats first */
	fxt = pft_fxt_format(c, ev->system, ev->slen, ev->name, ev->nlen,
			     &fsys);
	pf->name = strndup(ev->name, ev->nlen);
	pf->system = ev->system ? strndup(ev->system, ev->slen) :
		     fxt ? strdup(fsys) : system_of(c, ev);
	if (!pf->name || !pf->system)
		goto fail;
	if (fxt) {
		text = strdup(fxt);
		len = text ? strlen(text) : 0;
	} else if (c->o->formats) {
		snprintf(path, sizeof(path), "%s/%s/%s/format", c->o->formats,
			 pf->system, pf->name);
		text = read_text(path, &len);
	}
	/*
	 * the recording's own format is its events' whatever they carry,
	 * when libtraceevent (in the child that tries it) takes it
	 */
	if (text && (fxt || kernel_fits(text, ev))) {
		/* the kernel's formats are no input; an FXT's are */
		ret = f2d_format_add(&c->f2d, pf->system, text, len,
				     fxt ? 0 : F2D_FORMAT_TRUSTED,
				     &pf->f);
		if (ret == -ENOMEM)
			goto fail;
		/*
		 * an id another format has: that one comes back (an FXT's
		 * formats are input, and may say anything)
		 */
		if (!ret && pf->f && (strcmp(pf->f->name, pf->name) ||
				      strcmp(pf->f->system, pf->system)))
			ret = -EEXIST;
		if (!ret && pf->f) {
			pf->kernel = true;
			if (fxt)
				c->st->fxt_formats++;
			else
				c->st->kernel_formats++;
		} else {
			pf->f = NULL;
		}
	}
	free(text);
	text = NULL;
	if (!pf->f) {
		body = made_body(ev);
		if (!body)
			goto fail;
		pf->f = f2d_format_make(&c->f2d, pf->system, pf->name, body);
		free(body);
		if (pf->f)
			c->st->made_formats++;
	}
	pf->next = c->fmts;
	c->fmts = pf;
	return pf;
fail:
	free(text);
	free(pf->name);
	free(pf->system);
	free(pf);
	return NULL;
}

/*
 * The field of @pf named as @v, the value at place @at of its event, and
 * its bit in @pf's fields (0 past 64); NULL when none is.  The last
 * event's field at that place, when it has that name, else found by it.
 */
static struct tep_format_field *field_of(struct pft_fmt *pf, unsigned int at,
					 const struct pft_val *v,
					 uint64_t *bit)
{
	struct tep_format_field *fl = pf->at[at];
	char name[64];
	unsigned int i;

	/* the table's name that found it last time: no text to compare */
	if (fl && ((v->named_by_table && pf->at_name[at] == v->name) ||
		   (strnlen(fl->name, v->nlen + 1) == v->nlen &&
		    !memcmp(fl->name, v->name, v->nlen)))) {
		pf->at_name[at] = v->named_by_table ? v->name : NULL;
		*bit = pf->at_bit[at];
		return fl;
	}
	if (v->nlen >= sizeof(name))
		return NULL;
	memcpy(name, v->name, v->nlen);
	name[v->nlen] = '\0';
	fl = tep_find_field(pf->f->event, name);
	if (!fl)
		return NULL;
	*bit = 0;
	for (i = 0; i < pf->f->nr_fields && i < 64; i++)
		if (pf->f->fields[i] == fl)
			*bit = 1ULL << i;
	pf->at[at] = fl;
	pf->at_bit[at] = *bit;
	pf->at_name[at] = v->named_by_table ? v->name : NULL;
	pf->at_conv[at] = !pf->kernel ? PFT_CONV_NONE :
			  pft_dev_field(fl->type, fl->size) ? PFT_CONV_DEV :
			  fl->type && !strncmp(fl->type, "void *", 6) ?
			  PFT_CONV_SYM : PFT_CONV_NONE;
	return fl;
}

/* Value @at of @ev into the record; the bit of the field it filled, or 0. */
static uint64_t put_val(struct pft_ctx *c, struct pft_fmt *pf,
			const struct pft_ev *ev, unsigned int at)
{
	const struct pft_val *v = &ev->vals[at];
	struct f2d_rec *r = &c->f2d.rec;
	struct tep_format_field *fl;
	unsigned int k, elem;
	uint64_t x, mask = 0;

	fl = field_of(pf, at, v, &mask);
	if (!fl)
		return 0;
	/* given, but for a string pointer's lost address (below) */
	if (v->kind != PFT_V_STR || fl->flags & (TEP_FIELD_IS_STRING |
						 TEP_FIELD_IS_ARRAY |
						 TEP_FIELD_IS_DYNAMIC))
		pf->given |= mask;
	switch (v->kind) {
	case PFT_V_STR:
		if (fl->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY |
				 TEP_FIELD_IS_DYNAMIC)) {
			f2d_put_field_str(r, fl, (const char *)v->p, v->len);
			return mask;
		}
		/*
		 * A kernel string's address the recorder wrote as the
		 * string it found there (among the trace's printk strings):
		 * an address of this .dat's printk formats that holds it;
		 * none found (a user buffer), the address is not kept.
		 */
		x = v->len ? pft_meta_str_addr(c, v->p, v->len) : 0;
		if (x)
			pf->given |= mask;
		f2d_put_field_int(r, fl, x);
		return mask;
	case PFT_V_ARR:
		if (!(fl->flags & TEP_FIELD_IS_ARRAY) || !fl->arraylen)
			return mask;
		elem = (unsigned int)fl->size / fl->arraylen;
		for (k = 0; k < v->narr && k < fl->arraylen; k++) {
			struct tep_format_field one = *fl;

			one.offset = fl->offset + (int)(k * elem);
			one.size = (int)elem;
			f2d_put_field_int(r, &one, v->arr[k]);
		}
		return mask;
	default:
		x = v->v;
		if (pf->at_conv[at] == PFT_CONV_DEV) {
			x = pft_dev_kernel(x);
		} else if (pf->at_conv[at] == PFT_CONV_SYM && c->nr_sym_names) {
			uint64_t addr = pft_meta_sym_addr(c, x);

			if (addr) {
				x = addr;
				pf->symbolized |= mask;
			} else {
				pf->indexed |= mask;
			}
		}
		f2d_put_field_int(r, fl, x);
	}
	return mask;
}

/*
 * A task renamed in the bundle, or switched in by a full sched_switch
 * (@runs): compact sched's prev fields follow.  Applied in time order, as
 * Perfetto's importer sorts them (pft_sched_renames()): a bundle's events
 * need not be in it (a converted trace.dat's full switch may follow a
 * later rename).
 */
static int rename_add(struct pft_ctx *c, const struct pft_ev *ev,
		      const struct pft_val *pid, const struct pft_val *comm,
		      bool runs)
{
	const struct pft_val *prio = runs ? pft_val_named(ev, "next_prio") :
				     NULL;
	struct pft_rename *r;
	size_t n;

	if (c->nr_renames == c->cap_renames) {
		size_t cap = c->cap_renames ? 2 * c->cap_renames : 16;

		r = realloc(c->renames, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		c->renames = r;
		c->cap_renames = cap;
	}
	r = &c->renames[c->nr_renames];
	r->seq = c->nr_renames++;
	c->renames_sorted = false;
	r->ts = ev->ts;
	r->pid = (int32_t)pid->v;
	r->runs = runs;
	r->prio = prio && prio->kind != PFT_V_STR ? (int32_t)prio->v : 0;
	n = comm->len < sizeof(r->comm) - 1 ? comm->len : sizeof(r->comm) - 1;
	memcpy(r->comm, comm->p, n);
	r->comm[n] = '\0';
	return 0;
}

/*
 * The names of the values that name a task: a comm and, at the same
 * index, its pid (newcomm's is "pid"), in the order they are taken.
 */
enum { NAME_COMM, NAME_NEXT, NAME_PREV, NAME_CHILD, NAME_PARENT, NAME_NEW,
       NR_NAMES };

/* @v's index among the comms (@comm) or the pids, or -1. */
static int name_kind(const struct pft_val *v, bool *comm)
{
#define IS(s)	(v->nlen == sizeof(s) - 1 && \
		 !memcmp(v->name, s, sizeof(s) - 1))
	*comm = true;
	switch (v->nlen) {
	case 3:
		*comm = false;
		return IS("pid") ? NAME_COMM : -1;
	case 4:
		return IS("comm") ? NAME_COMM : -1;
	case 7:
		return IS("newcomm") ? NAME_NEW : -1;
	case 8:
		*comm = false;
		return IS("next_pid") ? NAME_NEXT : IS("prev_pid") ? NAME_PREV :
		       -1;
	case 9:
		if (IS("child_pid")) {
			*comm = false;
			return NAME_CHILD;
		}
		return IS("next_comm") ? NAME_NEXT : IS("prev_comm") ?
		       NAME_PREV : -1;
	case 10:
		if (IS("parent_pid")) {
			*comm = false;
			return NAME_PARENT;
		}
		return IS("child_comm") ? NAME_CHILD : -1;
	case 11:
		return IS("parent_comm") ? NAME_PARENT : -1;
	default:
		return -1;
	}
#undef IS
}

/* The comms an event names its tasks by: the cmdlines. */
static int names_of(struct pft_ctx *c, const struct pft_ev *ev)
{
	const struct pft_val *comm[NR_NAMES] = { 0 }, *pid[NR_NAMES] = { 0 };
	const struct pft_val *p;
	unsigned int i, any = 0;
	bool is_comm;
	int k;

	/* each name's first value, as a search by name finds it */
	for (i = 0; i < ev->n; i++) {
		k = name_kind(&ev->vals[i], &is_comm);
		if (k < 0)
			continue;
		if (is_comm && !comm[k]) {
			comm[k] = &ev->vals[i];
			any++;
		} else if (!is_comm && !pid[k]) {
			pid[k] = &ev->vals[i];
		}
	}
	/* most events name no task */
	if (!any)
		return 0;
	for (k = 0; k < NR_NAMES; k++) {
		p = k == NAME_NEW ? pid[NAME_COMM] : pid[k];
		if (!comm[k] || !p || comm[k]->kind != PFT_V_STR ||
		    p->kind == PFT_V_STR)
			continue;
		pft_meta_name(c, (int32_t)p->v, comm[k]->p, comm[k]->len,
			      ev->ts);
		/* a full switch read, not one compact sched makes */
		if ((k == NAME_NEW || (k == NAME_NEXT && !c->in_compact &&
				       ev->nlen == strlen("sched_switch") &&
				       !memcmp(ev->name, "sched_switch",
					       ev->nlen))) &&
		    rename_add(c, ev, p, comm[k], k == NAME_NEXT))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The thread groups an event tells of: a task made with CLONE_THREAD
 * joins its maker's group, any other leads its own; a task that execs
 * leads its group (a thread exec'ing takes its leader's pid).
 */
static void groups_of(struct pft_ctx *c, const struct pft_ev *ev)
{
	const struct pft_val *pid, *flags;

	if (ev->nlen == strlen("task_newtask") &&
	    !memcmp(ev->name, "task_newtask", ev->nlen)) {
		pid = pft_val_named(ev, "pid");
		flags = pft_val_named(ev, "clone_flags");
		if (!pid || !flags || pid->kind == PFT_V_STR ||
		    flags->kind == PFT_V_STR)
			return;
		pft_meta_tgid(c, (int32_t)pid->v, flags->v & CLONE_THREAD ?
			      -ev->pid : (int32_t)pid->v, PFT_TGID_KERNEL);
	} else if (ev->nlen == strlen("sched_process_exec") &&
		   !memcmp(ev->name, "sched_process_exec", ev->nlen)) {
		pid = pft_val_named(ev, "pid");
		if (pid && pid->kind != PFT_V_STR)
			pft_meta_tgid(c, (int32_t)pid->v, (int32_t)pid->v,
				      PFT_TGID_KERNEL);
	}
}

/*
 * Whether writing @ev's record adds to the printk strings: a text the
 * recorder wrote for a field that holds its address (put_val()).  A
 * viewer listing events builds only those records (pft2dat-view.c).
 */
static bool adds_strings(struct pft_fmt *pf, const struct pft_ev *ev)
{
	struct tep_format_field *fl;
	uint64_t bit;
	unsigned int i;

	for (i = 0; i < ev->n; i++) {
		const struct pft_val *v = &ev->vals[i];

		if (v->kind != PFT_V_STR || !v->len)
			continue;
		fl = field_of(pf, i, v, &bit);
		if (fl && !(fl->flags & (TEP_FIELD_IS_STRING |
					 TEP_FIELD_IS_ARRAY |
					 TEP_FIELD_IS_DYNAMIC)))
			return true;
	}
	return false;
}

struct pft_fmt *pft_record_fmt(struct pft_ctx *c, const char *system,
			       size_t slen, const char *name, size_t nlen)
{
	struct pft_fmt *pf = fmt_find(c, system, slen, name, nlen);
	struct pft_ev *ev;

	/* chosen before (each bundle's decls name it again) */
	if (pf)
		return pf->kernel ? pf : NULL;
	/* no values: a format only an FXT or the kernel gives */
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return NULL;
	ev->system = system;
	ev->slen = slen;
	ev->name = name;
	ev->nlen = nlen;
	pf = fmt_choose(c, ev);
	free(ev);
	return pf && pf->kernel ? pf : NULL;
}

int pft_record_lost(struct pft_ctx *c, int buffer, unsigned int cpu,
		    uint64_t ts)
{
	unsigned int i;
	int ret;

	for (i = 0; i < 2; i++) {
		if (!c->res.lost[i])
			continue;
		if (c->viewer && c->listing)
			ret = c->viewer->lost(c, buffer, cpu, ts,
					      c->res.lost[i]);
		else
			ret = f2d_lost(&c->f2d, buffer, cpu, ts,
				       c->res.lost[i]);
		if (ret < 0 && ret != -EAGAIN)
			return ret;
	}
	return 0;
}

/* The bytes of the event's residue entry (c->res.cur) into its record. */
static uint64_t residue_put(struct pft_ctx *c)
{
	const struct pft_res_decl *d = c->res.cur;
	uint64_t filled = 0;
	unsigned int i;

	for (i = 0; i < d->nr; i++) {
		f2d_put_field_bytes(&c->f2d.rec, d->f[i], c->res.val[i],
				    c->res.val_len[i]);
		if (d->idx[i] >= 0 && d->idx[i] < 64)
			filled |= 1ULL << d->idx[i];
	}
	return filled;
}

int pft_record_write(struct pft_ctx *c, struct pft_ev *ev)
{
	struct pft_fmt *pf = ev->slot ? *ev->slot : NULL;
	const struct pft_res_decl *rd = c->res.cur;
	int buffer = c->buffer;
	uint64_t filled = 0;
	unsigned int i;
	int ret;

	groups_of(c, ev);
	/*
	 * a packet event that is no .dat event, inferred by the converter:
	 * what it says of the tasks stays
	 */
	if (c->res.skip) {
		c->res.skip = false;
		return names_of(c, ev);
	}
	if (rd) {
		/* the .dat's own event, which the packet may name otherwise */
		pf = rd->pf;
		buffer = rd->buffer;
		ret = pft_record_lost(c, buffer, ev->cpu, ev->ts);
		if (ret < 0)
			return ret;
	} else if (!pf) {
		pf = fmt_choose(c, ev);
		if (ev->slot)
			*ev->slot = pf;
	}
	if (!pf || !pf->f) {
		c->st->dropped++;
		return 0;
	}
	if (c->viewer) {
		ret = c->viewer->row(c, ev, pf->f, buffer);
		if (ret < 0)
			return ret;
		if (c->listing && !adds_strings(pf, ev)) {
			pf->count++;
			return names_of(c, ev);
		}
	}
	ret = f2d_rec_begin(&c->f2d, pf->f, ev->pid);
	if (ret < 0)
		return ret;
	if (ev->flags >= 0)
		f2d_put_field_int(&c->f2d.rec, pf->f->c_flags,
				  (uint64_t)ev->flags);
	for (i = 0; i < ev->n; i++)
		filled |= put_val(c, pf, ev, i);
	if (rd) {
		uint64_t kept = residue_put(c);

		/* given: what the packets lack, the residue holds */
		pf->given |= kept;
		filled |= kept;
	}
	/*
	 * A text of dynamic length no value filled: an empty one, where
	 * its place says (zero would point it at the record's head).
	 */
	for (i = 0; i < pf->f->nr_fields; i++) {
		struct tep_format_field *fl = pf->f->fields[i];

		if (fl->flags & TEP_FIELD_IS_DYNAMIC &&
		    (i >= 64 || !(filled >> i & 1)))
			f2d_put_field_bytes(&c->f2d.rec, fl,
					    (const uint8_t *)"", 1);
	}
	ret = f2d_emit(&c->f2d, buffer, ev->cpu, ev->ts, c->f2d.rec.data,
		       c->f2d.rec.len);
	if (ret == -EAGAIN) {
		/* no room for it in the .dat (a CPU past the count) */
		c->f2d.need_rerun = false;
		c->st->dropped++;
		return 0;
	}
	if (ret < 0)
		return ret;
	pf->count++;
	return names_of(c, ev);
}

/* "event: field field" for the bits of @mask, after "; " if not first. */
static int fields_said(struct f2d_text *t, const struct pft_fmt *pf,
		       uint64_t mask)
{
	unsigned int i;
	bool any = false;

	for (i = 0; i < pf->f->nr_fields && i < 64; i++) {
		const char *n = pf->f->fields[i]->name;

		if (!(mask >> i & 1))
			continue;
		if (!any && ((t->len && f2d_text_add(t, "; ", 2)) ||
			     f2d_text_add(t, pf->name, strlen(pf->name)) ||
			     f2d_text_add(t, ":", 1)))
			return -ENOMEM;
		any = true;
		if (f2d_text_add(t, " ", 1) || f2d_text_add(t, n, strlen(n)))
			return -ENOMEM;
	}
	return 0;
}

/* The kernel fields no event gave, into st->unkept; and free. */
void pft_record_free(struct pft_ctx *c)
{
	struct pft2dat_stats *st = c->st;
	struct pft_fmt *pf, *next;
	struct f2d_text t = { 0 }, x = { 0 }, y = { 0 };
	uint64_t all;

	for (pf = c->fmts; pf; pf = next) {
		next = pf->next;
		if (pf->kernel && pf->count) {
			all = pf->f->nr_fields >= 64 ? ~0ULL :
			      (1ULL << pf->f->nr_fields) - 1;
			fields_said(&t, pf, all & ~pf->given);
			fields_said(&x, pf, pf->indexed);
			fields_said(&y, pf, pf->symbolized);
		}
		free(pf->name);
		free(pf->system);
		free(pf);
	}
	c->fmts = NULL;
	snprintf(st->unkept, sizeof(st->unkept), "%s", t.len ? t.s : "");
	snprintf(st->indexed, sizeof(st->indexed), "%s", x.len ? x.s : "");
	snprintf(st->symbolized, sizeof(st->symbolized), "%s",
		 y.len ? y.s : "");
	f2d_text_free(&t);
	f2d_text_free(&x);
	f2d_text_free(&y);
}
