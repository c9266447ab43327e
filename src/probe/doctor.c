/* triage doctor: host checks that need no BPF, and the renderers. */
#define _GNU_SOURCE
#include "probe/doctor.h"
#include "probe/doctor_tasks.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "probe/session.h"
#include "probe/doctor_bpf.h"
#include "probe/elf_fp.h"
#include "util/caps.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif
#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif

#define SETCAP_HINT                                                                              \
	"sudo make install-caps, or setcap cap_bpf,cap_perfmon,cap_sys_ptrace,cap_syslog+ep on " \
	"the binary (docs/install.md)"

/* "CAP_X, CAP_Y" of the capabilities in want that c has (has) or lacks (!has). */
static void caps_list(const struct caps *c, const enum caps_id *want, size_t n, bool has, char *buf,
		      size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && o < len; i++)
		if (caps_has(c, want[i]) == has)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "",
					      caps_name(want[i]));
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* One integer sysctl from /proc/sys (path below it); 0 or -errno. */
static int read_sysctl(const char *name, int *v)
{
	char path[128];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	rc = fscanf(f, "%d", v) == 1 ? 0 : -EINVAL;
	fclose(f);
	return rc;
}

/*
 * Names every capability triage uses that this process lacks, and what
 * each one costs (docs/install.md): the probes need CAP_BPF and
 * CAP_PERFMON (or CAP_SYS_ADMIN); other users' /proc/PID/io, wchan and
 * user stacks need CAP_SYS_PTRACE; the kernel log under
 * kernel.dmesg_restrict=1 needs CAP_SYSLOG; /proc/PID/stack needs
 * CAP_SYS_ADMIN (the kernel's rule, whatever else is given).
 */
static void check_privileges(struct doc_report *r)
{
	static const enum caps_id used[] = { CAPS_BPF, CAPS_PERFMON, CAPS_SYS_PTRACE, CAPS_SYSLOG,
					     CAPS_SYS_ADMIN };
	char has[128], lacks[128];
	struct caps c;
	int err = caps_read(&c), v;
	bool trace;

	if (err) {
		doctor_check_add(r, "privileges", DOC_MISSING, NULL, "capget: %s", strerror(-err));
		return;
	}
	trace = caps_can_trace(&c);
	caps_list(&c, used, sizeof(used) / sizeof(used[0]), true, has, sizeof(has));
	caps_list(&c, used, sizeof(used) / sizeof(used[0]), false, lacks, sizeof(lacks));
	doctor_check_add(r, "privileges", trace ? DOC_OK : DOC_MISSING,
			 "the probes and the report's eBPF part need CAP_BPF and CAP_PERFMON (or "
			 "CAP_SYS_ADMIN): " SETCAP_HINT,
			 "uid %u; has %s; lacks %s%s", (unsigned)geteuid(), has, lacks,
			 trace			  ? ""
			 : caps_has(&c, CAPS_BPF) ? " (tracing: CAP_PERFMON missing)"
			 : caps_has(&c, CAPS_PERFMON)
			     ? " (tracing: CAP_BPF missing)"
			     : " (tracing: CAP_BPF and CAP_PERFMON missing)");
	if (!caps_has(&c, CAPS_SYS_PTRACE))
		doctor_check_add(
		    r, "cap_sys_ptrace", DOC_WARN,
		    "give triage CAP_SYS_PTRACE to see every process: " SETCAP_HINT,
		    "missing: other users' /proc/PID/io and wchan, and the user stacks of "
		    "their processes, are hidden; your own processes are fine");
	if (!caps_has(&c, CAPS_SYSLOG) && !caps_has(&c, CAPS_SYS_ADMIN) &&
	    read_sysctl("kernel/dmesg_restrict", &v) == 0 && v)
		doctor_check_add(
		    r, "kernel_log", DOC_WARN,
		    "give triage CAP_SYSLOG (" SETCAP_HINT "), or sysctl kernel.dmesg_restrict=0",
		    "kernel.dmesg_restrict=1 and CAP_SYSLOG missing: the report skips the "
		    "kernel log (OOM kills, hung tasks, I/O errors)");
	if (!caps_has(&c, CAPS_SYS_ADMIN))
		doctor_check_add(
		    r, "kernel_stacks", DOC_WARN,
		    "only CAP_SYS_ADMIN (or root) lets the kernel show /proc/PID/stack; "
		    "triage load falls back to wchan",
		    "CAP_SYS_ADMIN missing: 'triage load' cannot read kernel stacks of D tasks");
	if (!trace && read_sysctl("kernel/unprivileged_bpf_disabled", &v) == 0)
		doctor_check_add(
		    r, "unprivileged_bpf", DOC_WARN,
		    "no sysctl can replace CAP_BPF and CAP_PERFMON for tracing programs",
		    "kernel.unprivileged_bpf_disabled=%d%s", v,
		    v ? ": bpf() refuses unprivileged users altogether"
		      : ": unprivileged bpf() allowed, but not for tracing programs");
}

static void check_btf(struct doc_report *r)
{
	struct stat st;

	if (stat("/sys/kernel/btf/vmlinux", &st))
		doctor_check_add(
		    r, "btf", DOC_MISSING,
		    "use a kernel built with CONFIG_DEBUG_INFO_BTF=y (most distribution "
		    "kernels since 2020); no debug symbols are needed beyond that",
		    "/sys/kernel/btf/vmlinux: %s", strerror(errno));
	else
		doctor_check_add(r, "btf", DOC_OK, NULL, "/sys/kernel/btf/vmlinux, %lld bytes",
				 (long long)st.st_size);
}

static bool is_fs(const char *path, long magic)
{
	struct statfs s;

	return !statfs(path, &s) && s.f_type == magic;
}

static void check_tracefs(struct doc_report *r)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char events[64];

		if (!is_fs(dirs[i], TRACEFS_MAGIC))
			continue;
		snprintf(events, sizeof(events), "%s/events/raw_syscalls", dirs[i]);
		doctor_check_add(
		    r, "tracefs", access(events, F_OK) ? DOC_WARN : DOC_OK,
		    "the kernel lacks CONFIG_FTRACE_SYSCALLS: syscall tracepoints are missing",
		    "mounted at %s%s", dirs[i],
		    access(events, F_OK) ? ", but events/raw_syscalls is missing" : "");
		return;
	}
	doctor_check_add(r, "tracefs", DOC_WARN,
			 "mount -t tracefs nodev /sys/kernel/tracing (only classic tracepoints and "
			 "perf/bpftrace need it; triage's probes use BTF tracepoints)",
			 "not mounted at /sys/kernel/tracing or /sys/kernel/debug/tracing");
}

static void check_bpffs(struct doc_report *r)
{
	bool ok = is_fs("/sys/fs/bpf", BPF_FS_MAGIC);

	doctor_check_add(
	    r, "bpffs", ok ? DOC_OK : DOC_WARN,
	    "mount -t bpf bpf /sys/fs/bpf (only needed to pin programs; triage pins nothing)",
	    ok ? "mounted at /sys/fs/bpf" : "/sys/fs/bpf is not a bpf filesystem");
}

static void check_kallsyms(struct doc_report *r)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long addr = 0, first = 0;
	unsigned n = 0, nonzero = 0;
	char type, name[256], first_name[256] = "";

	if (!f) {
		doctor_check_add(r, "kallsyms", DOC_MISSING, "the kernel needs CONFIG_KALLSYMS=y",
				 "/proc/kallsyms: %s", strerror(errno));
		return;
	}
	while (n < 1000 && fscanf(f, "%llx %c %255s%*[^\n]", &addr, &type, name) == 3) {
		n++;
		if (addr && !nonzero++) {
			first = addr;
			snprintf(first_name, sizeof(first_name), "%s", name);
		}
	}
	fclose(f);
	doctor_check_add(
	    r, "kallsyms", nonzero ? DOC_OK : DOC_MISSING,
	    "give triage CAP_SYSLOG (sudo make install-caps), or run as root; with "
	    "kernel.kptr_restrict=0, kernel.perf_event_paranoid=1 also does (kernel stacks "
	    "stay unsymbolized without real addresses)",
	    nonzero ? "real addresses (e.g. %s at 0x%llx)"
		    : "addresses are hidden (all zero; kernel.kptr_restrict)",
	    first_name, first);
}

static void check_paranoid(struct doc_report *r)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 0;

	if (!f || fscanf(f, "%d", &v) != 1) {
		doctor_check_add(r, "perf_event_paranoid", DOC_MISSING,
				 "the kernel needs CONFIG_PERF_EVENTS=y",
				 "/proc/sys/kernel/perf_event_paranoid unreadable");
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	struct caps c;
	bool perfmon =
	    caps_read(&c) == 0 && (caps_has(&c, CAPS_PERFMON) || caps_has(&c, CAPS_SYS_ADMIN));

	doctor_check_add(
	    r, "perf_event_paranoid", perfmon || v <= 1 ? DOC_OK : DOC_WARN,
	    "only matters without root/CAP_PERFMON: sysctl kernel.perf_event_paranoid=1", "%d (%s)",
	    v,
	    v <= -1  ? "no restrictions"
	    : v <= 1 ? "unprivileged users may profile their own processes"
	    : v == 2 ? "unprivileged users: user-space only"
		     : "unprivileged perf disabled");
}

static void check_pmus(struct doc_report *r)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE,
				     .size = sizeof(a),
				     .config = PERF_COUNT_HW_CPU_CYCLES,
				     .disabled = 1,
				     .exclude_kernel = 1 };
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	bool kprobe_pmu = !access("/sys/bus/event_source/devices/kprobe", F_OK);
	bool uprobe_pmu = !access("/sys/bus/event_source/devices/uprobe", F_OK);

	doctor_check_add(
	    r, "hw_events", fd >= 0 ? DOC_OK : DOC_WARN,
	    "hardware counters are absent in most VMs; 'probe profile' uses the software "
	    "cpu-clock instead",
	    fd >= 0 ? "cpu-cycles counter opens" : "cpu-cycles: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	doctor_check_add(r, "pmus", DOC_OK, NULL, "kprobe PMU %s, uprobe PMU %s",
			 kprobe_pmu ? "present" : "absent", uprobe_pmu ? "present" : "absent");
}

static int find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
	char *out = data;

	if (info->dlpi_name && strstr(info->dlpi_name, "/libc.so")) {
		snprintf(out, 256, "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

static int read_whole(const char *path, uint8_t **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size <= 0 || st.st_size > (1 << 28)) {
		close(fd);
		return -EINVAL;
	}
	*buf = malloc((size_t)st.st_size);
	n = *buf ? read(fd, *buf, (size_t)st.st_size) : -1;
	if (n != st.st_size) {
		err = -EIO;
		free(*buf);
		*buf = NULL;
	}
	*len = (size_t)st.st_size;
	close(fd);
	return err;
}

static void check_libc_fp(struct doc_report *r)
{
	char path[256] = "";
	struct elf_fp_survey s;
	uint8_t *buf = NULL;
	size_t len = 0;
	int err;

	dl_iterate_phdr(find_libc, path);
	if (!path[0]) {
		doctor_check_add(r, "libc_frame_pointers", DOC_WARN, NULL,
				 "libc not found in this process");
		return;
	}
	err = read_whole(path, &buf, &len);
	if (!err)
		err = elf_fp_survey(buf, len, &s);
	free(buf);
	if (err) {
		doctor_check_add(r, "libc_frame_pointers", DOC_WARN, NULL, "%s: cannot survey: %s",
				 path, strerror(-err));
		return;
	}
	/* With -fno-omit-frame-pointer most functions set up %rbp; without, few do. */
	doctor_check_add(
	    r, "libc_frame_pointers", s.with_fp * 2 > s.functions ? DOC_OK : DOC_WARN,
	    "user stacks through libc stop or skip frames: build programs with "
	    "-fno-omit-frame-pointer, and use a libc built with frame pointers (Ubuntu 24.04, "
	    "Fedora 38 and later) for complete stacks",
	    "%s: %u of %u exported functions set up a frame pointer%s", path, s.with_fp,
	    s.functions, s.has_eh_frame ? "; .eh_frame present (DWARF CFI only)" : "");
}

void doctor_run(struct doc_report *r)
{
	struct utsname u;

	memset(r, 0, sizeof(*r));
	if (!uname(&u))
		snprintf(r->kernel, sizeof(r->kernel), "%s %s %s", u.sysname, u.release, u.machine);
	r->bpf_built = TRIAGE_HAVE_BPF;
	check_privileges(r);
	check_btf(r);
	check_tracefs(r);
	check_bpffs(r);
	check_kallsyms(r);
	check_paranoid(r);
	check_pmus(r);
	check_libc_fp(r);
	doctor_bpf_checks(r);
	doctor_bpf_probes(r);
	doctor_task_source_check(r);
	doctor_task_door_check(r);
}

static const char *status_name(enum doc_status s)
{
	return s == DOC_OK ? "ok" : s == DOC_WARN ? "warn" : "missing";
}

void doctor_print(FILE *out, const struct doc_report *r)
{
	fprintf(out, "kernel: %s; triage built %s BPF\n\nChecks:\n", r->kernel,
		r->bpf_built ? "with" : "without");
	for (size_t i = 0; i < r->nchecks; i++) {
		const struct doc_check *c = &r->checks[i];

		fprintf(out, "  %-7s %-20s %s\n", status_name(c->status), c->name, c->detail);
		if (c->fix)
			fprintf(out, "  %-7s %-20s -> %s\n", "", "", c->fix);
	}
	fprintf(out, "\nProbes:\n");
	for (size_t i = 0; i < r->nprobes; i++)
		fprintf(out, "  %-7s %-20s %s\n", r->probes[i].works ? "works" : "NO",
			r->probes[i].name, r->probes[i].detail);
}

void doctor_json(struct json_writer *w, const struct doc_report *r)
{
	json_object_begin(w);
	json_kv_string(w, "kernel", r->kernel);
	json_kv_bool(w, "bpf_built", r->bpf_built);
	json_key(w, "checks");
	json_array_begin(w);
	for (size_t i = 0; i < r->nchecks; i++) {
		const struct doc_check *c = &r->checks[i];

		json_object_begin(w);
		json_kv_string(w, "name", c->name);
		json_kv_string(w, "status", status_name(c->status));
		json_kv_string(w, "detail", c->detail);
		json_key(w, "fix");
		if (c->fix)
			json_string(w, c->fix);
		else
			json_null(w);
		json_end(w);
	}
	json_end(w);
	json_key(w, "probes");
	json_array_begin(w);
	for (size_t i = 0; i < r->nprobes; i++) {
		json_object_begin(w);
		json_kv_string(w, "name", r->probes[i].name);
		json_kv_bool(w, "works", r->probes[i].works);
		json_kv_string(w, "detail", r->probes[i].detail);
		json_end(w);
	}
	json_end(w);
	json_end(w);
}
