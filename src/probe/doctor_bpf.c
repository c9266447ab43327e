/*
 * triage doctor: the BPF checks, each one a real load and attach, and the
 * verdict for each probe from loading and attaching its own programs.
 */
#define _GNU_SOURCE
#include "probe/doctor_bpf.h"
#include "common.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe/enrich.h"
#include "probe/session.h"
#include "probe/stackprobe.h"
#include "probe/syscalls.h"
#include "probe/trace.h"
#include "util/caps.h"

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>

#include "doctor.skel.h"

/* How a tried program is attached when libbpf's auto-attach cannot do it. */
typedef struct bpf_link *(*attach_fn)(struct bpf_program *prog, int *perf_fd);

static struct bpf_link *attach_auto(struct bpf_program *prog, int *perf_fd)
{
	return bpf_program__attach(prog);
}

static struct bpf_link *attach_uprobe_getpid(struct bpf_program *prog, int *perf_fd)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = "getpid");
	struct bpf_link *link = bpf_program__attach_uprobe_opts(prog, 0, "libc.so.6", 0, &opts);

	if (link)
		getpid(); /* one hit, checked by the caller */
	return link;
}

static struct bpf_link *attach_cpu_clock(struct bpf_program *prog, int *perf_fd)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.freq = 1,
		.sample_freq = 99,
	};

	*perf_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (*perf_fd < 0)
		return NULL;
	return bpf_program__attach_perf_event(prog, *perf_fd);
}

struct try_result {
	int err;
	const char *stage;
	unsigned long long hits;
};

static void set_only(struct doctor_bpf *skel, const char *prog_name)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, skel->obj)
	    bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), prog_name));
}

/* Opens the doctor object with only prog_name enabled, loads and attaches it. */
static struct try_result try_program(const char *prog_name, attach_fn attach)
{
	struct try_result res = { .stage = "open" };
	struct doctor_bpf *skel = doctor_bpf__open();
	struct bpf_link *link = NULL;
	int perf_fd = -1;

	if (!skel) {
		res.err = -errno;
		return res;
	}
	set_only(skel, prog_name);
	res.stage = "load";
	res.err = doctor_bpf__load(skel);
	if (!res.err) {
		res.stage = "attach";
		errno = 0;
		link = attach(bpf_object__find_program_by_name(skel->obj, prog_name), &perf_fd);
		res.err = link ? 0 : (errno ? -errno : -EINVAL);
		res.hits = skel->bss->hits;
	}
	bpf_link__destroy(link);
	if (perf_fd >= 0)
		close(perf_fd);
	doctor_bpf__destroy(skel);
	return res;
}

struct prog_check {
	const char *check, *prog;
	attach_fn attach;
	const char *what, *fix;
};

static const struct prog_check prog_checks[] = {
	{ "tp_btf", "doc_tp_btf", attach_auto, "tp_btf/sys_enter (BTF tracepoint)",
	  "needs kernel BTF and BPF tracing (CONFIG_BPF_EVENTS); every triage probe uses it" },
	{ "raw_tracepoint", "doc_raw_tp", attach_auto, "raw_tracepoint/sys_enter",
	  "needs CONFIG_BPF_EVENTS" },
	{ "tracepoint", "doc_tracepoint", attach_auto,
	  "tracepoint/raw_syscalls/sys_enter (classic, via tracefs)",
	  "mount tracefs (mount -t tracefs nodev /sys/kernel/tracing); triage does not need it" },
	{ "kprobe", "doc_kprobe", attach_auto, "kprobe/do_nanosleep",
	  "needs CONFIG_KPROBES=y; triage's probes do not use kprobes" },
	{ "fentry", "doc_fentry", attach_auto, "fentry/do_nanosleep (BPF trampoline)",
	  "needs BPF trampolines (CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) and no lockdown "
	  "or policy forbidding them; triage's probes do not need fentry" },
	{ "uprobe", "doc_uprobe", attach_uprobe_getpid, "uprobe on libc getpid()",
	  "needs CONFIG_UPROBES=y" },
	{ "perf_event", "doc_perf_event", attach_cpu_clock,
	  "BPF on a software cpu-clock perf event",
	  "needs CONFIG_PERF_EVENTS and BPF_PROG_TYPE_PERF_EVENT; 'probe profile' depends on it" },
	{ "sched_switch_stacks", "doc_sched_switch", attach_auto,
	  "tp_btf/sched_switch with a stack-trace map",
	  "needs BTF tracepoints and BPF_MAP_TYPE_STACK_TRACE; offcpu and runq depend on it" },
};

static void run_prog_check(struct doc_report *r, const struct prog_check *pc)
{
	struct try_result res = try_program(pc->prog, pc->attach);

	struct caps c;

	/*
	 * Refused for want of privilege: without CAP_BPF and CAP_PERFMON those
	 * are missing; with them (root works), the kernel wants CAP_SYS_ADMIN.
	 */
	if ((res.err == -EPERM || res.err == -EACCES) && caps_read(&c) == 0 &&
	    !caps_has(&c, CAPS_SYS_ADMIN))
		doctor_check_add(
		    r, pc->check, DOC_MISSING,
		    caps_can_trace(&c) ? "the kernel wants CAP_SYS_ADMIN for this (or root)"
				       : "give triage CAP_BPF and CAP_PERFMON (sudo make "
					 "install-caps; docs/install.md), or run as root",
		    "%s: %s failed: %s (%s missing)", pc->what, res.stage, strerror(-res.err),
		    caps_can_trace(&c) ? "CAP_SYS_ADMIN" : "CAP_BPF and CAP_PERFMON");
	else if (res.err)
		doctor_check_add(r, pc->check, DOC_MISSING, pc->fix, "%s: %s failed: %s", pc->what,
				 res.stage, strerror(-res.err));
	else if (!strcmp(pc->check, "uprobe"))
		doctor_check_add(r, pc->check, res.hits ? DOC_OK : DOC_WARN, pc->fix,
				 "%s: loaded and attached, %llu hit(s) for 1 call", pc->what,
				 res.hits);
	else
		doctor_check_add(r, pc->check, DOC_OK, NULL, "%s: loaded and attached", pc->what);
}

static void check_bpf_syscall(struct doc_report *r)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "triage_doc", 4, 8, 1, NULL);
	int rb;

	if (fd < 0) {
		doctor_check_add(r, "bpf", DOC_MISSING,
				 fd == -ENOSYS ? "the kernel needs CONFIG_BPF_SYSCALL=y"
					       : "run as root, or with CAP_BPF and CAP_PERFMON",
				 "bpf(BPF_MAP_CREATE): %s", strerror(-fd));
		return;
	}
	close(fd);
	doctor_check_add(r, "bpf", DOC_OK, NULL, "bpf() works (map created)");
	rb = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "triage_doc_rb", 0, 0, 4096, NULL);
	doctor_check_add(r, "ringbuf", rb >= 0 ? DOC_OK : DOC_MISSING,
			 "BPF ring buffers need Linux 5.8; 'probe trace' depends on them",
			 rb >= 0 ? "BPF_MAP_TYPE_RINGBUF created" : "BPF_MAP_TYPE_RINGBUF: %s",
			 strerror(rb < 0 ? -rb : 0));
	if (rb >= 0)
		close(rb);
}

void doctor_bpf_checks(struct doc_report *r)
{
	probe_libbpf_quiet(false);
	check_bpf_syscall(r);
	for (size_t i = 0; i < sizeof(prog_checks) / sizeof(prog_checks[0]); i++)
		run_prog_check(r, &prog_checks[i]);
}

#else /* !TRIAGE_HAVE_BPF */

void doctor_bpf_checks(struct doc_report *r)
{
	doctor_check_add(
	    r, "bpf", DOC_MISSING,
	    "install clang, llvm, bpftool, libbpf-dev and libelf-dev, then rebuild triage",
	    "triage was built without BPF support");
}

#endif

static void add_probe(struct doc_report *r, const char *name, int err, const char *stage,
		      const char *tried)
{
	struct doc_probe *p;

	if (r->nprobes == DOC_MAX_PROBES)
		return;
	p = &r->probes[r->nprobes++];
	p->name = name;
	p->works = !err;
	if (err == -ENOPKG)
		snprintf(p->detail, sizeof(p->detail), "triage was built without BPF support");
	else if (err)
		snprintf(p->detail, sizeof(p->detail), "%s: %s failed: %s", tried, stage,
			 strerror(-err));
	else
		snprintf(p->detail, sizeof(p->detail), "%s: ok", tried);
}

/*
 * How triage report loads its eBPF parts here, found by loading them as it
 * does: light skeletons (the kernel's loader) or libbpf's (the fallback,
 * which parses the kernel's whole BTF in user space once per part).
 */
static void check_report_loader(struct doc_report *r)
{
	static const struct {
		enum probe_enrich_part part;
		char name[12];
	} parts[] = {
		{ PROBE_ENRICH_RUNQ, "runq" },	       { PROBE_ENRICH_PROFILE, "profile" },
		{ PROBE_ENRICH_SYSCALLS, "syscalls" }, { PROBE_ENRICH_DSTATE, "offcpu" },
		{ PROBE_ENRICH_FORKS, "forks" },
	};
	struct probe_enrich *e;
	char line[400];
	size_t used = 0;
	bool all_light = true;
	int err = probe_enrich_start(NULL, &e);

	if (err) {
		doctor_check_add(r, "report_loader", DOC_MISSING, probe_err_hint(err),
				 "triage report's eBPF parts do not start: %s", strerror(-err));
		return;
	}
	line[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(parts) && used < sizeof(line); i++) {
		double ms = 0;
		const char *how = probe_enrich_part_loader(e, parts[i].part, &ms);

		all_light = all_light && how && !strcmp(how, "light skeleton");
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s %s (%.1f ms CPU)",
					 used ? ", " : "", parts[i].name, how ? how : "not started",
					 ms);
	}
	probe_enrich_free(e);
	doctor_check_add(r, "report_loader", all_light ? DOC_OK : DOC_WARN,
			 all_light ? NULL
				   : "Linux 6.1 or later loads them as light skeletons: no "
				     "user-space parse of the kernel's BTF, about 40 ms each",
			 "triage report's eBPF parts load as: %s", line);
}

void doctor_bpf_probes(struct doc_report *r)
{
	static const char tried[] = "loading and attaching its BPF programs";
	static const struct sp_probe *const stack_probes[] = { &offcpu_probe, &runq_probe,
							       &profile_probe };
	const char *stage = NULL;
	int err;

	err = sc_selftest(&stage);
	add_probe(r, "syscalls", err, stage, tried);
	err = tr_selftest(&stage);
	add_probe(r, "trace", err, stage, tried);
	for (size_t i = 0; i < ARRAY_SIZE(stack_probes); i++) {
		err = sp_probe_selftest(stack_probes[i], &stage);
		add_probe(r, stack_probes[i]->name, err, stage, tried);
	}
	check_report_loader(r);
}
