/*
 * triage probe profile: on-CPU sampling of one process with a BPF program
 * on a software cpu-clock perf event per CPU (hardware events are absent
 * in most VMs), counting samples per thread and pair of stacks in-kernel.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "flame/flame.h"
#include "probe/profile.h"
#include "probe/stackprobe.h"
#include "util/json.h"
#include "util/text.h"

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include "bpf/stackprobes.h"
#include "profile.skel.h"

/* The skeleton plus the perf events it is attached to. */
struct profile_ctx {
	struct profile_bpf *sk;
	unsigned freq;
	struct profile_events ev;
};

static void *pr_open(void)
{
	struct profile_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->sk = profile_bpf__open();
	if (!c->sk) {
		int err = errno;

		free(c);
		errno = err;
		return NULL;
	}
	return c;
}

static int pr_configure(void *ctx, const void *cfg)
{
	struct profile_ctx *c = ctx;
	const struct sp_opts *o = cfg;

	PROBE_RODATA_SET_TARGET(c->sk->rodata, &o->base.target);
	c->sk->rodata->kernel_stacks = o->kernel_stacks;
	c->sk->rodata->user_stacks = o->user_stacks;
	c->freq = o->freq;
	return sp_size_stacks(c->sk->maps.sp_stacks, c->sk->maps.profile_counts, o->max_stacks);
}

static int pr_load(void *ctx)
{
	return profile_bpf__load(((struct profile_ctx *)ctx)->sk);
}

static int open_clock(int cpu, unsigned freq)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.freq = 1,
		.sample_freq = freq,
	};
	long fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

/*
 * Through a BPF link (Linux 5.15), else the event's own ioctl: either way
 * closing the event detaches the program.
 */
static int attach_event(int prog_fd, int event_fd)
{
	int link = bpf_link_create(prog_fd, event_fd, BPF_PERF_EVENT, NULL);

	if (link >= 0)
		return link;
	if (ioctl(event_fd, PERF_EVENT_IOC_SET_BPF, prog_fd))
		return -errno;
	return -1;
}

/* One event per CPU (pid = -1): the BPF side keeps the target's samples. */
int profile_events_attach(struct profile_events *ev, int prog_fd, unsigned freq)
{
	int ncpu = libbpf_num_possible_cpus(), attached = 0;

	*ev = (struct profile_events){ 0 };
	if (ncpu <= 0)
		return ncpu ? ncpu : -ENODEV;
	ev->fds = malloc((size_t)ncpu * sizeof(*ev->fds));
	ev->links = malloc((size_t)ncpu * sizeof(*ev->links));
	if (!ev->fds || !ev->links)
		return -ENOMEM;
	ev->ncpu = ncpu;
	for (int cpu = 0; cpu < ncpu; cpu++)
		ev->fds[cpu] = ev->links[cpu] = -1;
	for (int cpu = 0; cpu < ncpu; cpu++) {
		ev->fds[cpu] = open_clock(cpu, freq);
		if (ev->fds[cpu] == -ENODEV) {
			ev->fds[cpu] = -1;
			continue; /* possible but offline */
		}
		if (ev->fds[cpu] < 0) {
			int err = ev->fds[cpu];

			ev->fds[cpu] = -1;
			return err;
		}
		ev->links[cpu] = attach_event(prog_fd, ev->fds[cpu]);
		if (ev->links[cpu] < -1) {
			int err = ev->links[cpu];

			ev->links[cpu] = -1;
			return err;
		}
		attached++;
	}
	return attached ? 0 : -ENODEV;
}

void profile_events_release(struct profile_events *ev)
{
	for (int i = 0; i < ev->ncpu; i++) {
		if (ev->links[i] >= 0)
			close(ev->links[i]);
		if (ev->fds[i] >= 0)
			close(ev->fds[i]);
		ev->links[i] = ev->fds[i] = -1;
	}
	free(ev->fds);
	free(ev->links);
	*ev = (struct profile_events){ 0 };
}

static int pr_attach(void *ctx)
{
	struct profile_ctx *c = ctx;

	return profile_events_attach(&c->ev, bpf_program__fd(c->sk->progs.profile_sample), c->freq);
}

static void pr_detach(void *ctx)
{
	profile_events_release(&((struct profile_ctx *)ctx)->ev);
}

static void pr_destroy(void *ctx)
{
	struct profile_ctx *c = ctx;

	profile_events_release(&c->ev);
	profile_bpf__destroy(c->sk);
	free(c);
}

static const struct probe_skel_ops profile_skel_ops = {
	"profile", pr_open, pr_configure, pr_load, pr_attach, pr_detach, pr_destroy,
};

void profile_maps(void *skel, struct probe_maps *m)
{
	struct profile_bpf *sk = ((struct profile_ctx *)skel)->sk;

	*m = (struct probe_maps){ 0 };
	m->map[PROFILE_MAP_COUNTS].fd = bpf_map__fd(sk->maps.profile_counts);
	m->map[PROFILE_MAP_COUNTS].cap = bpf_map__max_entries(sk->maps.profile_counts);
	m->map[PROFILE_MAP_STACKS].fd = bpf_map__fd(sk->maps.sp_stacks);
	m->map[PROFILE_MAP_STACKS].cap = bpf_map__max_entries(sk->maps.sp_stacks);
	m->counter[PROFILE_CTR_SAMPLES] = &sk->bss->samples;
	m->counter[PROFILE_CTR_STACK_ERRORS] = &sk->bss->stack_errors;
	m->counter[PROFILE_CTR_MAP_FULL] = &sk->bss->map_full;
}

/* The samples of process pid (0: all) with symbolized stacks. */
static int collect(struct sp_symbolizer *z, const struct probe_maps *m, int pid,
		   struct profile_result *r)
{
	int fd = m->map[PROFILE_MAP_COUNTS].fd;
	int stacks_fd = m->map[PROFILE_MAP_STACKS].fd;
	size_t cap = m->map[PROFILE_MAP_COUNTS].cap;
	struct profile_key key, prev_key, *prev = NULL;

	r->e = calloc(cap, sizeof(*r->e));
	if (!r->e)
		return -ENOMEM;
	while (r->n < cap && !bpf_map_get_next_key(fd, prev, &key)) {
		struct stack_entry *e = &r->e[r->n];
		struct profile_val v;
		int err;

		prev_key = key;
		prev = &prev_key;
		if (bpf_map_lookup_elem(fd, &key, &v) || (pid > 0 && key.tgid != (__u32)pid))
			continue;
		e->pid = key.tgid;
		e->tid = key.tid;
		memcpy(e->comm, v.comm, SP_COMM_LEN);
		e->comm[SP_COMM_LEN - 1] = '\0';
		e->value = e->count = v.count;
		r->n++;
		err = sp_fill_entry(z, stacks_fd, key.kstack, key.ustack, e);
		if (err)
			return err;
	}
	r->samples = probe_maps_counter(m, PROFILE_CTR_SAMPLES);
	r->stack_errors = probe_maps_counter(m, PROFILE_CTR_STACK_ERRORS);
	r->map_full = probe_maps_counter(m, PROFILE_CTR_MAP_FULL);
	return 0;
}

/* The frame a sample was taken in: the kernel's innermost if any, else the user's. */
static const struct stack_frame *leaf_frame(const struct stack_entry *e)
{
	if (e->nk)
		return &e->kframes[0];
	return e->nu ? &e->uframes[0] : NULL;
}

static int func_cmp(const void *a, const void *b)
{
	const struct profile_func *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Self samples per function (the leaf frame), most first. */
static int count_functions(struct profile_result *r)
{
	r->f = calloc(r->n ? r->n : 1, sizeof(*r->f));
	if (!r->f)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++) {
		const struct stack_frame *leaf = leaf_frame(&r->e[i]);
		const char *name = leaf ? leaf->name : NULL, *mod = leaf ? leaf->module : NULL;
		uint8_t gap = leaf ? leaf->gap : STACK_GAP_NONE;
		size_t j = 0;

		while (j < r->nf && !(same_str(r->f[j].name, name) &&
				      same_str(r->f[j].module, mod) && r->f[j].gap == gap))
			j++;
		if (j == r->nf)
			r->f[r->nf++] = (struct profile_func){ name, mod, r->e[i].nk > 0, gap, 0 };
		r->f[j].samples += r->e[i].value;
	}
	if (r->nf)
		qsort(r->f, r->nf, sizeof(*r->f), func_cmp);
	return 0;
}

/* Unknown user frames (a process gone before its maps were read) are not the kernel's. */
static const char *func_module(const struct profile_func *f)
{
	if (f->module)
		return f->module;
	return f->kernel ? "kernel" : "unknown";
}

static void func_label(const struct profile_func *f, char *buf, size_t len)
{
	char name[256], mod[128];

	text_sanitize(name, sizeof(name), f->name ? f->name : "[unknown]");
	text_sanitize(mod, sizeof(mod), func_module(f));
	if (f->name)
		snprintf(buf, len, "%s [%s]", name, mod);
	else
		snprintf(buf, len, "%s [%s] (%s)", name, mod, stack_gap_name(f->gap));
}

static void print_plain(const struct sp_session *s, const struct sp_opts *o,
			const struct profile_result *r, const struct stack_gaps *g)
{
	uint64_t total = 0;
	bool one = sp_session_one_pid(s, o);
	char comm[4 * SP_COMM_LEN], label[512], who[128];
	size_t top;

	for (size_t i = 0; i < r->n; i++)
		total += r->e[i].value;
	sp_session_describe(s, o, who, sizeof(who));
	fprintf(s->out, "On-CPU profile of %s: %" PRIu64 " sample%s at %u Hz over %.2f s (%s)\n",
		who, total, total == 1 ? "" : "s", o->freq, sp_session_seconds(s), s->end_reason);
	if (r->stack_errors || r->map_full)
		fprintf(s->out, "lost: %" PRIu64 " stack%s, %" PRIu64 " sample%s (map full)\n",
			r->stack_errors, r->stack_errors == 1 ? "" : "s", r->map_full,
			r->map_full == 1 ? "" : "s");
	top = o->top < r->nf ? o->top : r->nf;
	fprintf(s->out, "\nTop functions (self samples):\n%8s %6s  %s\n", "SAMPLES", "%",
		"FUNCTION");
	for (size_t i = 0; i < top; i++) {
		func_label(&r->f[i], label, sizeof(label));
		fprintf(s->out, "%8" PRIu64 " %6.1f  %s\n", r->f[i].samples,
			total ? 100.0 * r->f[i].samples / total : 0.0, label);
	}
	top = o->top < r->n ? o->top : r->n;
	if (top)
		fprintf(s->out, "\nTop %zu stack%s (kernel frames, then user frames):\n", top,
			top == 1 ? "" : "s");
	for (size_t i = 0; i < top; i++) {
		text_sanitize(comm, sizeof(comm), r->e[i].comm);
		if (one)
			fprintf(s->out, "#%zu tid", i + 1);
		else
			fprintf(s->out, "#%zu pid %u tid", i + 1, r->e[i].pid);
		fprintf(s->out, " %u (%s): %" PRIu64 " sample%s (%.1f%%)\n", r->e[i].tid, comm,
			r->e[i].value, r->e[i].value == 1 ? "" : "s",
			total ? 100.0 * r->e[i].value / total : 0.0);
		stack_print_frames(s->out, &r->e[i]);
	}
	stack_gaps_print(s->out, g, "samples");
}

static void print_json(const struct sp_session *s, const struct sp_opts *o,
		       const struct profile_result *r, const struct stack_gaps *g)
{
	size_t top = sp_top(o->top, r->n);
	struct json_writer w;

	sp_json_begin(&w, s, o);
	json_kv_uint(&w, "frequency_hz", o->freq);
	json_kv_uint(&w, "samples", r->samples);
	json_key(&w, "functions");
	json_array_begin(&w);
	for (size_t i = 0; i < r->nf && i < o->top; i++) {
		json_object_begin(&w);
		if (r->f[i].name)
			json_kv_string(&w, "function", r->f[i].name);
		else {
			json_key(&w, "function");
			json_null(&w);
		}
		json_kv_string(&w, "module", func_module(&r->f[i]));
		if (!r->f[i].name)
			json_kv_string(&w, "why", stack_gap_name(r->f[i].gap));
		json_kv_uint(&w, "samples", r->f[i].samples);
		json_end(&w);
	}
	json_end(&w);
	json_key(&w, "stacks");
	json_array_begin(&w);
	for (size_t i = 0; i < top; i++)
		sp_json_stack(&w, &r->e[i], "samples", NULL);
	json_end(&w);
	json_key(&w, "lost");
	json_object_begin(&w);
	json_kv_uint(&w, "stacks", r->stack_errors);
	json_kv_uint(&w, "samples", r->map_full);
	json_end(&w);
	stack_gaps_json(&w, g);
	json_finish(&w);
}

static int write_svg(const struct sp_session *s, const struct sp_opts *o,
		     const struct profile_result *r, const struct stack_gaps *g)
{
	char who[128], title[192], sub[160], *note = stack_gaps_note(g, "samples");
	struct flame_style st = { title, sub, "samples", FLAME_HOT, 0, note };
	int err;

	sp_session_describe(s, o, who, sizeof(who));
	snprintf(title, sizeof(title), "On-CPU flame graph of %s", who);
	snprintf(sub, sizeof(sub), "%" PRIu64 " samples at %u Hz over %.2f s (%s)", r->samples,
		 o->freq, sp_session_seconds(s), s->end_reason ? s->end_reason : "ended");
	err = stacks_write_svg(o->svg, r->e, r->n, 1, &st);
	free(note);
	return err;
}

static int report(const struct sp_session *s, const struct sp_opts *o, void *ctx)
{
	struct profile_result r = { 0 };
	struct stack_gaps g;
	struct probe_maps m;
	int err;

	profile_maps(ctx, &m);
	err = collect(s->syms, &m, 0, &r);

	if (!err) {
		/* perf report's habit: stacks by function; -v keeps each address apart */
		if (!o->base.verbose)
			stacks_merge_by_function(r.e, &r.n);
		stacks_sort(r.e, r.n);
		stack_gaps_count(r.e, r.n, &g);
		err = count_functions(&r);
	}
	if (!err) {
		if (o->folded) {
			err = stacks_write_folded(s->out, r.e, r.n, 1);
			stack_gaps_print(s->diag, &g, "samples");
		} else if (o->base.json) {
			print_json(s, o, &r, &g);
		} else {
			print_plain(s, o, &r, &g);
		}
	}
	if (!err && o->svg)
		err = write_svg(s, o, &r, &g);
	profile_result_release(&r);
	return err;
}

void profile_result_release(struct profile_result *r)
{
	if (r->e)
		stack_entries_release(r->e, r->n);
	free(r->e);
	free(r->f);
	memset(r, 0, sizeof(*r));
}

int profile_read_functions(const struct probe_maps *m, struct sp_symbolizer *z, int pid,
			   struct profile_result *r)
{
	int err;

	memset(r, 0, sizeof(*r));
	err = collect(z, m, pid, r);
	if (!err)
		err = count_functions(r);
	if (err)
		profile_result_release(r);
	return err;
}

#else
void profile_maps(void *skel, struct probe_maps *m)
{
	*m = (struct probe_maps){ 0 };
}

int profile_events_attach(struct profile_events *ev, int prog_fd, unsigned freq)
{
	*ev = (struct profile_events){ 0 };
	return -ENOPKG;
}

void profile_events_release(struct profile_events *ev)
{
}

int profile_read_functions(const struct probe_maps *m, struct sp_symbolizer *z, int pid,
			   struct profile_result *r)
{
	memset(r, 0, sizeof(*r));
	return -ENOPKG;
}

void profile_result_release(struct profile_result *r)
{
}
#endif

const struct sp_probe profile_probe = {
	.name = "profile",
	.traced = "on-CPU samples",
	.features = SP_STACKS | SP_FREQ,
	.needs = PROBE_NEED_STACK_TRACE | PROBE_NEED_PERF_EVENT,
	.symbolize = true,
#if TRIAGE_HAVE_BPF
	.ops = &profile_skel_ops,
	.report = report,
#endif
};
