/* triage probe trace: event rendering and the BPF run loop. */
#include "probe/trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/syscall_names.h"
#include "probe/syscalls.h"
#include "probe/trace_decode.h"
#include "runloop/clock.h"
#include "util/text.h"

int tr_parse_syscalls(const char *list, int *nrs, int max, char *bad, size_t badlen)
{
	const char *p = list;
	int n = 0;

	while (*p) {
		size_t len = strcspn(p, ",");
		char name[64];
		int nr;

		if (len == 0 || len >= sizeof(name)) {
			snprintf(bad, badlen, "%.*s", (int)len, p);
			return -ENOENT;
		}
		memcpy(name, p, len);
		name[len] = 0;
		nr = syscall_nr(name);
		if (nr < 0 || nr >= TR_NR_SLOTS) {
			snprintf(bad, badlen, "%s", name);
			return -ENOENT;
		}
		if (n == max)
			return -E2BIG;
		nrs[n++] = nr;
		p += len;
		if (*p == ',' && !*++p) {
			snprintf(bad, badlen, "%s", "");
			return -ENOENT;
		}
	}
	if (!n)
		snprintf(bad, badlen, "%s", "");
	return n ? n : -ENOENT;
}

static const char *event_str(const struct tr_event *e, unsigned idx)
{
	if (idx >= TR_NSTR || (e->flags & (TR_F_STR0_FAULT << idx)))
		return NULL;
	return e->str[idx];
}

void tr_event_format(char *buf, size_t len, const struct tr_event *e)
{
	char arg[4 * TR_STR_LEN + 8], ret[96], nrbuf[32];
	const char *name = sc_row_name((unsigned)e->nr, nrbuf, sizeof(nrbuf));
	struct tr_sig sig;
	unsigned nstr = 0;
	size_t pos;

	tr_sig_lookup(name, &sig);
	pos = (size_t)snprintf(buf, len, "%s(", name);
	for (unsigned a = 0; a < tr_sig_shown_args(&sig, e->args) && pos < len; a++) {
		const char *s = sig.kind[a] == TK_PATH ? event_str(e, nstr++) : NULL;

		tr_format_arg(arg, sizeof(arg), sig.kind[a], e->args[a], s, TR_STR_LEN);
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%s", a ? ", " : "", arg);
	}
	if (pos >= len)
		return;
	if (e->flags & TR_F_NORETURN) {
		snprintf(buf + pos, len - pos, ") = ?");
		return;
	}
	tr_format_ret(ret, sizeof(ret), e->ret, sig.ret_hex);
	snprintf(buf + pos, len - pos, ") = %s", ret);
}

void tr_event_print(FILE *out, const struct tr_event *e, int64_t start_ns)
{
	char call[TR_NSTR * (4 * TR_STR_LEN + 8) + 512], comm[sizeof(e->comm) + 1];

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	tr_event_format(call, sizeof(call), e);
	fprintf(out, "%12.6f %7u/%-7u ", (double)((int64_t)e->ts_ns - start_ns) / 1e9, e->tgid,
		e->tid);
	text_put_safe(out, comm);
	fprintf(out, ": %s", call);
	if (!(e->flags & TR_F_NORETURN))
		fprintf(out, " <%.3f us>", (double)e->dur_ns / 1e3);
	fputc('\n', out);
}

static void event_args_json(struct json_writer *w, const struct tr_event *e,
			    const struct tr_sig *sig)
{
	char arg[4 * TR_STR_LEN + 8];
	unsigned nstr = 0;

	json_key(w, "args");
	json_array_begin(w);
	for (unsigned a = 0; a < tr_sig_shown_args(sig, e->args); a++) {
		const char *s = sig->kind[a] == TK_PATH ? event_str(e, nstr++) : NULL;

		tr_format_arg(arg, sizeof(arg), sig->kind[a], e->args[a], s, TR_STR_LEN);
		json_string(w, arg);
	}
	json_end(w);
	json_key(w, "paths");
	json_array_begin(w);
	for (unsigned i = 0; i < nstr; i++) {
		const char *s = event_str(e, i);

		if (s)
			json_string_len(w, s, strnlen(s, TR_STR_LEN));
		else
			json_null(w);
	}
	json_end(w);
}

void tr_event_json(struct json_writer *w, const struct tr_event *e, int64_t start_ns)
{
	char nrbuf[32], errbuf[24];
	const char *name = sc_row_name((unsigned)e->nr, nrbuf, sizeof(nrbuf));
	struct tr_sig sig;

	tr_sig_lookup(name, &sig);
	json_object_begin(w);
	json_kv_double(w, "time_s", (double)((int64_t)e->ts_ns - start_ns) / 1e9, 6);
	json_kv_uint(w, "pid", e->tgid);
	json_kv_uint(w, "tid", e->tid);
	json_key(w, "comm");
	json_string_len(w, e->comm, strnlen(e->comm, sizeof(e->comm)));
	json_kv_string(w, "syscall", name);
	json_kv_int(w, "nr", e->nr);
	event_args_json(w, e, &sig);
	if (e->flags & TR_F_NORETURN) {
		json_key(w, "ret");
		json_null(w);
	} else {
		json_kv_int(w, "ret", e->ret);
		json_kv_uint(w, "duration_ns", e->dur_ns);
	}
	if (!(e->flags & TR_F_NORETURN) && e->ret < 0 && e->ret >= -4095)
		json_kv_string(w, "errno",
			       sc_errno_name((uint32_t)-e->ret, errbuf, sizeof(errbuf)));
	json_end(w);
}

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "trace.skel.h"
/* bpftool's generated light skeletons do arithmetic on void * */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpointer-arith"
#include "trace.lskel.h"
#pragma GCC diagnostic pop

struct tr_config {
	const struct probe_target *target;
	const int *nrs;
	int n;
};

/* The selected syscalls into either skeleton's rodata (same layout, two types). */
#define TR_FILL_RODATA(rodata, c)                                                             \
	do {                                                                                  \
		int exit_nr_ = syscall_nr("exit"), exit_group_nr_ = syscall_nr("exit_group"); \
		PROBE_RODATA_SET_TARGET(rodata, (c)->target);                                 \
		for (int i_ = 0; i_ < (c)->n; i_++) {                                         \
			int nr_ = (c)->nrs[i_];                                               \
			struct tr_sig sig_;                                                   \
			char buf_[32];                                                        \
			(rodata)->sel[nr_ / 64] |= 1ull << (nr_ % 64);                        \
			tr_sig_lookup(sc_row_name((unsigned)nr_, buf_, sizeof(buf_)), &sig_); \
			(rodata)->str_args[nr_] = tr_sig_str_spec(&sig_);                     \
			if (nr_ == exit_nr_ || nr_ == exit_group_nr_)                         \
				(rodata)->noreturn[nr_ / 64] |= 1ull << (nr_ % 64);           \
		}                                                                             \
	} while (0)

static int tr_configure(void *s, const void *cfg)
{
	struct trace_bpf *skel = s;

	TR_FILL_RODATA(skel->rodata, (const struct tr_config *)cfg);
	return 0;
}

PROBE_SKEL_OPS(trace, tr_configure);

/*
 * The same object as a light skeleton: the kernel's loader resolves its
 * CO-RE relocations and tp_btf targets against the BTF it holds, so no
 * process parses /sys/kernel/btf/vmlinux (0.4-0.8 s of the time to the
 * first event on this machine). Its detach leaves the link descriptors
 * set and destroy would close them again: cleared after the first close.
 */
static void *trace_light_open(void)
{
	return trace_lbpf__open();
}

static int trace_light_configure(void *s, const void *cfg)
{
	struct trace_lbpf *k = s;

	TR_FILL_RODATA(k->rodata, (const struct tr_config *)cfg);
	return 0;
}

static int trace_light_load(void *s)
{
	return trace_lbpf__load(s);
}

static int trace_light_attach(void *s)
{
	return trace_lbpf__attach(s);
}

static void trace_light_detach(void *s)
{
	struct trace_lbpf *k = s;

	trace_lbpf__detach(k);
	memset(&k->links, 0, sizeof(k->links));
}

static void trace_light_destroy(void *s)
{
	trace_lbpf__destroy(s);
}

static const struct probe_skel_ops trace_light_ops = {
	.name = "trace",
	.open = trace_light_open,
	.configure = trace_light_configure,
	.load = trace_light_load,
	.attach = trace_light_attach,
	.detach = trace_light_detach,
	.destroy = trace_light_destroy,
};

/* A started probe: which skeleton, and the two maps user space reads. */
struct tr_probe {
	const struct probe_skel_ops *ops;
	void *skel;
	int events_fd, lost_fd;
};

struct tr_state {
	const struct tr_sink *sink;
	struct tr_summary *sum;
	int sink_err;
};

static int on_ring_event(void *ctx, void *data, size_t size)
{
	struct tr_state *st = ctx;
	int err;

	if (size < sizeof(struct tr_event))
		return 0;
	err = st->sink->event(st->sink->ctx, data);
	st->sum->events++;
	if (err) {
		st->sink_err = err;
		return err; /* stops ring_buffer__consume */
	}
	return 0;
}

static uint64_t read_lost(int lost_fd)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 *v = ncpu > 0 ? calloc((size_t)ncpu, sizeof(*v)) : NULL;
	__u32 zero = 0;
	uint64_t sum = 0;

	if (v && !bpf_map_lookup_elem(lost_fd, &zero, v))
		for (int i = 0; i < ncpu; i++)
			sum += v[i];
	free(v);
	return sum;
}

static int consume_loop(struct probe_loop *loop, struct ring_buffer *rb, struct tr_state *st,
			const char **stage)
{
	for (;;) {
		int ev = probe_loop_wait(loop, ring_buffer__epoll_fd(rb)), err;

		if (ev < 0) {
			*stage = "waiting for events";
			return ev;
		}
		*stage = "reading the ring buffer";
		err = ring_buffer__consume(rb);
		if (st->sink_err)
			return st->sink_err;
		if (err < 0)
			return err;
		if (ev == PROBE_EV_TARGET_EXIT)
			st->sum->target_exited = true;
		if (ev != PROBE_EV_INPUT && ev != PROBE_EV_TICK)
			return 0;
	}
}

/*
 * The light skeleton first; libbpf's when the kernel refuses its loader
 * (before Linux 5.17) or TRIAGE_BPF_LOADER=libbpf asks for it, not when a
 * check both would fail (privileges, BTF, a feature) refused it.
 */
static int start_probe(const struct tr_config *cfg, struct tr_probe *p, const char **stage)
{
	const char *loader = getenv("TRIAGE_BPF_LOADER");
	unsigned needs = PROBE_NEED_TASK_STORAGE | PROBE_NEED_RINGBUF;
	int err = -ENOEXEC;

	*p = (struct tr_probe){ .ops = &trace_light_ops, .events_fd = -1, .lost_fd = -1 };
	if (!loader || strcmp(loader, "libbpf")) {
		err = probe_start(p->ops, needs, cfg, &p->skel, stage);
		if (!err) {
			struct trace_lbpf *k = p->skel;

			p->events_fd = k->maps.tr_events.map_fd;
			p->lost_fd = k->maps.tr_lost.map_fd;
			return 0;
		}
		if (*stage && strncmp(*stage, "loading", 7) && strncmp(*stage, "opening", 7))
			return err;
	}
	p->ops = &trace_skel_ops;
	err = probe_start(p->ops, needs, cfg, &p->skel, stage);
	if (!err) {
		struct trace_bpf *k = p->skel;

		p->events_fd = bpf_map__fd(k->maps.tr_events);
		p->lost_fd = bpf_map__fd(k->maps.tr_lost);
	}
	return err;
}

static void stop_probe(struct tr_probe *p)
{
	probe_skel_stop(p->ops, &p->skel);
}

/* From attach to the end: announces, consumes the events, fills the summary. */
static int run_attached(struct probe_loop *loop, const struct tr_probe *p, struct tr_state *st,
			const struct probe_opts *opts, const char **stage)
{
	struct ring_buffer *rb;
	int64_t start;
	int err;

	*stage = "opening the ring buffer";
	rb = ring_buffer__new(p->events_fd, on_ring_event, st, NULL);
	if (!rb)
		return -errno;
	*stage = "starting the timers";
	start = probe_loop_start(loop);
	err = start < 0 ? (int)start : 0;
	if (!err) {
		if (st->sink->attached)
			st->sink->attached(st->sink->ctx, &opts->target);
		err = consume_loop(loop, rb, st, stage);
		st->sum->lost = read_lost(p->lost_fd);
		st->sum->elapsed_s = (double)(runloop_mono_ns() - start) / 1e9;
	}
	ring_buffer__free(rb);
	return err;
}

int tr_run(const struct probe_opts *opts, const int *nrs, int n, const struct tr_sink *sink,
	   struct tr_summary *sum, const char **stage)
{
	struct tr_config cfg = { .target = &opts->target, .nrs = nrs, .n = n };
	struct tr_state st = { .sink = sink, .sum = sum };
	struct probe_loop loop;
	struct tr_probe p;
	int err;

	probe_libbpf_quiet(opts->verbose);
	*sum = (struct tr_summary){ 0 };
	*stage = "watching the target";
	err = probe_loop_init(&loop, opts);
	if (err)
		return err;
	err = start_probe(&cfg, &p, stage);
	if (!err)
		err = run_attached(&loop, &p, &st, opts, stage);
	stop_probe(&p);
	probe_loop_release(&loop);
	return err;
}

int tr_selftest(const char **stage)
{
	struct probe_target t = { .pid = getpid() };
	int nr = syscall_nr("openat");
	struct tr_config cfg = { .target = &t, .nrs = &nr, .n = nr >= 0 };
	struct tr_probe p;
	int err = start_probe(&cfg, &p, stage);

	stop_probe(&p);
	return err;
}

#else /* !TRIAGE_HAVE_BPF */

int tr_selftest(const char **stage)
{
	*stage = "starting";
	return -ENOPKG;
}

int tr_run(const struct probe_opts *opts, const int *nrs, int n, const struct tr_sink *sink,
	   struct tr_summary *sum, const char **stage)
{
	*stage = "starting";
	return -ENOPKG;
}

#endif
