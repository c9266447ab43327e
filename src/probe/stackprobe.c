/* The session shared by offcpu, runq and profile; see stackprobe.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h> /* for bpf/stackprobes.h, also without libbpf */

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#endif

#include "common.h"
#include "bpf/stackprobes.h"
#include "probe/stackprobe.h"
#include "runloop/clock.h"
#include "util/grow.h"
#include "util/text.h"

void sp_opts_init(struct sp_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kernel_stacks = o->user_stacks = true;
	o->freq = 99;
	o->top = 10;
}

void sp_symbolizer_init(struct sp_symbolizer *z, const struct procfs *pf)
{
	memset(z, 0, sizeof(*z));
	z->pf = pf;
	symtab_init(&z->ksyms);
	z->ksyms_err = syms_load_kernel(pf, &z->ksyms);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void sp_symbolizer_init_for(struct sp_symbolizer *z, const struct procfs *pf, uint64_t *addrs,
			    size_t n)
{
	size_t m = 0;

	memset(z, 0, sizeof(*z));
	z->pf = pf;
	if (n)
		qsort(addrs, n, sizeof(*addrs), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (addrs[i] && (!m || addrs[m - 1] != addrs[i]))
			addrs[m++] = addrs[i];
	z->ksyms_err = syms_load_kernel_for(pf, addrs, m, &z->ksyms);
}

struct proc_syms *sp_symbolizer_proc(struct sp_symbolizer *z, int pid, int *err)
{
	struct sp_proc_syms *p;

	for (size_t i = 0; i < z->nprocs; i++)
		if (z->procs[i].pid == pid) {
			*err = z->procs[i].err;
			return z->procs[i].ps;
		}
	if (z->nprocs == z->cap) {
		size_t cap = z->cap ? 2 * z->cap : 16;
		void *n = realloc(z->procs, cap * sizeof(*z->procs));

		if (!n) {
			*err = -ENOMEM;
			return NULL;
		}
		z->procs = n;
		z->cap = cap;
	}
	p = &z->procs[z->nprocs++];
	p->pid = pid;
	p->ps = NULL;
	p->err = pid > 0 ? syms_proc_open(z->pf, pid, "/usr/lib/debug", &p->ps) : -ESRCH;
	*err = p->err;
	return p->ps;
}

void sp_symbolizer_refresh(struct sp_symbolizer *z)
{
	/* Fails once a process is gone: its last maps stay. */
	for (size_t i = 0; i < z->nprocs; i++)
		if (z->procs[i].ps)
			syms_proc_refresh(z->procs[i].ps);
}

void sp_symbolizer_release(struct sp_symbolizer *z)
{
	for (size_t i = 0; i < z->nprocs; i++)
		syms_proc_close(z->procs[i].ps);
	free(z->procs);
	z->procs = NULL;
	z->nprocs = z->cap = 0;
	symtab_release(&z->ksyms);
}

static void read_comm(struct sp_session *s, int pid)
{
	char rel[32];
	ssize_t n;

	snprintf(rel, sizeof(rel), "%d/comm", pid);
	n = procfs_read(s->pf, rel, s->comm, sizeof(s->comm));
	if (n <= 0) {
		s->comm[0] = '\0';
		return;
	}
	if (s->comm[n - 1] == '\n') /* the file's own newline; a name may hold others */
		s->comm[n - 1] = '\0';
}

static void load_symbolizers(struct sp_session *s, int pid)
{
	int err = 0;

	sp_symbolizer_init(s->syms, s->pf);
	if (s->syms->ksyms_err)
		fprintf(s->diag,
			"triage probe %s: kernel frames stay addresses: /proc/kallsyms: %s "
			"(needs root or kernel.kptr_restrict=0)\n",
			s->probe->name, strerror(-s->syms->ksyms_err));
	if (pid <= 0)
		return; /* every task: processes are opened when their stacks are read */
	/* While the target still runs, so its maps are read even if it exits early. */
	sp_symbolizer_proc(s->syms, pid, &err);
	if (err && err != -ESRCH) /* -ESRCH: no maps, a kernel thread */
		fprintf(s->diag, "triage probe %s: user frames stay addresses: /proc/%d/maps: %s\n",
			s->probe->name, pid, strerror(-err));
}

/*
 * Starts the event loop (signals first), checks privileges and loads the
 * symbolizers while the target still runs. Returns 0 or -errno with
 * *stage naming the step that failed.
 */
static int sp_session_begin(struct sp_session *s, const struct sp_probe *p, const struct sp_opts *o,
			    const char **stage)
{
	struct probe_opts lo = o->base;
	int err;

	s->probe = p;
	s->pf = NULL; /* so sp_session_end() closes nothing it did not open */
	*stage = "checking privileges";
	err = probe_check_privileges();
	if (err)
		return err;
	*stage = "opening /proc";
	err = procfs_open(&s->pf, NULL);
	if (err)
		return err;
	lo.interval_s = 1.0; /* ticks to refresh the maps; nothing is printed */
	lo.count = 0;
	*stage = "watching the target";
	err = probe_loop_init(&s->loop, &lo);
	if (err)
		return err;
	s->loop_ready = true;
	if (lo.target.pid > 0)
		read_comm(s, lo.target.pid);
	if (!p->symbolize)
		return 0;
	*stage = "loading symbols";
	s->syms = malloc(sizeof(*s->syms));
	if (!s->syms)
		return -ENOMEM;
	load_symbolizers(s, lo.target.pid);
	return 0;
}

/* Why a session ended, for the report; NULL for an error. */
static const char *end_reason(int ev)
{
	switch (ev) {
	case PROBE_EV_SIGNAL:
		return "interrupted";
	case PROBE_EV_TARGET_EXIT:
		return "target exited";
	case PROBE_EV_DEADLINE:
		return "duration elapsed";
	default:
		return NULL;
	}
}

void sp_session_describe(const struct sp_session *s, const struct sp_opts *o, char *buf, size_t len)
{
	char safe[4 * PROBE_COMM_LEN];

	if (o->base.target.pid <= 0) {
		probe_target_describe(&o->base.target, buf, len);
		return;
	}
	text_sanitize(safe, sizeof(safe), s->comm);
	snprintf(buf, len, "pid %d (%s)", o->base.target.pid, safe);
}

bool sp_session_one_pid(const struct sp_session *s, const struct sp_opts *o)
{
	(void)s;
	return o->base.target.pid > 0;
}

/* Announces the probe and waits for its end, refreshing the maps each second. */
static int sp_session_wait(struct sp_session *s, const struct sp_opts *o, const char **stage)
{
	char who[128];

	sp_session_describe(s, o, who, sizeof(who));
	fprintf(s->diag, "Tracing %s of %s... Ctrl-C to stop.\n", s->probe->traced, who);
	*stage = "starting the timers";
	s->start_ns = probe_loop_start(&s->loop);
	if (s->start_ns < 0)
		return (int)s->start_ns;
	*stage = "waiting for events";
	for (;;) {
		int ev = probe_loop_wait(&s->loop, -1);

		if (ev == PROBE_EV_TICK || ev == PROBE_EV_LAST_TICK) {
			if (s->syms)
				sp_symbolizer_refresh(s->syms);
			continue;
		}
		s->end_ns = runloop_mono_ns();
		s->end_reason = end_reason(ev);
		if (s->end_reason)
			return 0;
		return ev < 0 ? ev : -EIO;
	}
}

static void sp_session_end(struct sp_session *s)
{
	if (s->loop_ready)
		probe_loop_release(&s->loop);
	s->loop_ready = false;
	if (s->syms)
		sp_symbolizer_release(s->syms);
	free(s->syms);
	s->syms = NULL;
	procfs_close(s->pf);
	s->pf = NULL;
}

double sp_session_seconds(const struct sp_session *s)
{
	return (double)(s->end_ns - s->start_ns) / 1e9;
}

#if TRIAGE_HAVE_BPF /* only the BPF readers call these */
int sp_size_stacks(struct bpf_map *stacks, struct bpf_map *counts, unsigned max_stacks)
{
	int err;

	if (!max_stacks || max_stacks >= SP_MAX_STACKS)
		return 0;
	err = bpf_map__set_max_entries(stacks, max_stacks);
	return err ? err : bpf_map__set_max_entries(counts, max_stacks);
}

int sp_read_stack(int map_fd, int id, uint64_t *ips)
{
	__u32 key = (__u32)id;

	memset(ips, 0, SP_MAX_FRAMES * sizeof(*ips));
	return bpf_map_lookup_elem(map_fd, &key, ips) ? -errno : 0;
}

int sp_stack_addrs(int map_fd, uint64_t **addrs, size_t *n, size_t *cap)
{
	uint64_t ips[SP_MAX_FRAMES];
	__u32 key, next;
	bool first = true;

	while (!bpf_map_get_next_key(map_fd, first ? NULL : &key, &next)) {
		first = false;
		key = next;
		if (sp_read_stack(map_fd, (int)key, ips))
			continue; /* gone (a stack map can drop ids): nothing to name */
		for (size_t i = 0; i < SP_MAX_FRAMES && ips[i]; i++) {
			if (util_grow(addrs, cap, *n + 1, sizeof(**addrs)))
				return -ENOMEM;
			(*addrs)[(*n)++] = ips[i];
		}
	}
	return errno == ENOENT ? 0 : -errno;
}

int sp_fill_entry(struct sp_symbolizer *z, int map_fd, int kid, int uid, struct stack_entry *e)
{
	uint64_t ips[SP_MAX_FRAMES];
	struct proc_syms *ps = NULL;
	int err;

	e->kstack_err = kid < 0 ? kid : sp_read_stack(map_fd, kid, ips);
	err = stack_resolve_kernel(e, ips, e->kstack_err ? 0 : SP_MAX_FRAMES,
				   z && !z->ksyms_err ? &z->ksyms : NULL);
	if (err)
		return err;
	e->ustack_err = uid < 0 ? uid : sp_read_stack(map_fd, uid, ips);
	if (z && !e->ustack_err)
		ps = sp_symbolizer_proc(z, (int)e->pid, &err);
	return stack_resolve_user(e, ips, e->ustack_err ? 0 : SP_MAX_FRAMES, ps);
}
#endif

void sp_json_begin(struct json_writer *w, const struct sp_session *s, const struct sp_opts *o)
{
	json_init(w, s->out, o->base.pretty);
	json_object_begin(w);
	json_kv_string(w, "probe", s->probe->name);
	probe_target_json(w, &o->base.target, s->comm);
	json_kv_double(w, "duration_s", sp_session_seconds(s), 3);
	json_kv_string(w, "end", s->end_reason ? s->end_reason : "");
}

void sp_json_stack(struct json_writer *w, const struct stack_entry *e, const char *value_key,
		   const char *count_key)
{
	json_object_begin(w);
	json_kv_uint(w, "pid", e->pid);
	json_kv_uint(w, "tid", e->tid);
	json_kv_string(w, "comm", e->comm);
	if (e->kind)
		json_kv_string(w, "kind", e->kind);
	json_kv_uint(w, value_key, e->value);
	if (count_key)
		json_kv_uint(w, count_key, e->count);
	stack_json_frames(w, e);
	json_end(w);
}

size_t sp_top(size_t top, size_t n)
{
	return top < n ? top : n;
}

int sp_probe_run(const struct sp_probe *p, const struct sp_opts *o, FILE *out, FILE *diag,
		 const char **stage)
{
	struct sp_session s = { .out = out, .diag = diag };
	void *skel = NULL;
	int err;

	*stage = "starting";
	if (!p->ops)
		return -ENOPKG;
	err = sp_session_begin(&s, p, o, stage);
	if (!err) {
		probe_libbpf_quiet(o->base.verbose);
		err = probe_start(p->ops, p->needs, o, &skel, stage);
	}
	if (!err) {
		err = sp_session_wait(&s, o, stage);
		probe_skel_detach(p->ops, skel);
	}
	if (!err) {
		*stage = "reading the results";
		err = p->report(&s, o, skel);
	}
	probe_skel_stop(p->ops, &skel);
	sp_session_end(&s);
	return err;
}

int sp_probe_selftest(const struct sp_probe *p, const char **stage)
{
	struct sp_opts o;
	void *skel = NULL;
	int err;

	if (!p->ops) {
		*stage = "starting";
		return -ENOPKG;
	}
	sp_opts_init(&o);
	o.base.target.pid = getpid();
	err = probe_start(p->ops, p->needs, &o, &skel, stage);
	probe_skel_stop(p->ops, &skel);
	return err;
}
