#include "probe/doctor_tasks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "procfs/procfs.h"
#include "procfs/tasksrc.h"
#include "runloop/clock.h"

void doctor_task_source_check(struct doc_report *r)
{
	struct procfs *pf;
	struct task_source *s;
	struct task_set set = { 0 };
	double t0, t1;
	int err = procfs_open(&pf, "/");

	if (!err)
		err = procfs_task_source_open(&s, pf, false, TASK_DOOR_AUTO, TASK_WANT_ALL, 0);
	if (err) {
		doctor_check_add(r, "task_source", DOC_MISSING, NULL, "cannot read tasks: %s",
				 strerror(-err));
		procfs_close(pf);
		return;
	}
	t0 = runloop_mono_s() * 1e3;
	err = procfs_task_source_scan(s, &set, 0);
	t1 = runloop_mono_s() * 1e3;
	if (procfs_task_source_door(s) == TASK_DOOR_BPF)
		doctor_check_add(
		    r, "task_source", DOC_OK, NULL,
		    "bpf: task iterator, %zu threads in %.2f ms (%s; pidstat, load, report, "
		    "collect)",
		    set.len, t1 - t0, procfs_task_source_why(s));
	else
		doctor_check_add(
		    r, "task_source", DOC_WARN,
		    "run as root on a kernel with BTF and BPF iterators (5.8+) for the fast door",
		    "proc: /proc file by file (%s); %zu threads in %.2f ms",
		    procfs_task_source_why(s), err ? 0 : set.len, t1 - t0);
	procfs_task_set_release(&set);
	procfs_task_source_close(s);
	procfs_close(pf);
}

/* One command's work, as its core describes it to procfs_task_source_open_for(). */
struct door_case {
	const char *cmd;
	struct task_work w;
};

/*
 * Which door AUTO takes for the commands people type, on this machine's
 * thread count now (the cost model of src/procfs/tasksrc.h).
 */
void doctor_task_door_check(struct doc_report *r)
{
	struct door_case cases[] = {
		{ "pidstat -p PID 1 1", { .tasks = 1, .files = 2, .scans = 2 } },
		{ "pidstat -p ALL 1 1",
		  { .tasks = 1, .files = 2, .scans = 2 } }, /* every process */
		{ "pidstat -u -w -r -d -t -p ALL 1 60", { .tasks = 0, .files = 4, .scans = 61 } },
		{ "load", { .tasks = 0, .files = 1, .scans = 1 } },
		{ "load --watch, report, record, collect", { .tasks = 0, .files = 4, .scans = 0 } },
	};
	struct id_list pids = { 0 };
	struct procfs *pf;
	char line[512], why[160];
	size_t threads, off = 0;

	if (procfs_open(&pf, "/"))
		return;
	threads = procfs_task_machine_threads(pf);
	if (!procfs_list_pids(pf, &pids) && pids.len)
		cases[1].w.tasks = pids.len;
	procfs_id_list_release(&pids);
	procfs_close(pf);
	line[0] = '\0';
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]) && off < sizeof(line); i++) {
		enum task_door d =
		    procfs_task_door_for_work(&cases[i].w, threads, why, sizeof(why));
		int n = snprintf(line + off, sizeof(line) - off, "%s%s: %s", i ? "; " : "",
				 cases[i].cmd, procfs_task_door_name(d));

		off += n > 0 ? (size_t)n : 0;
	}
	doctor_check_add(r, "task_door", DOC_OK, NULL, "auto at %zu threads: %s", threads, line);
}

/* comm with anything but printable ASCII (and space, '=', '\\') as \xHH */
static void put_comm(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c > ' ' && c < 0x7f && c != '=' && c != '\\')
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
}

static void put_io(FILE *out, const char *p, const struct pid_io *io)
{
	fprintf(out,
		" %srchar=%" PRIu64 " %swchar=%" PRIu64 " %ssyscr=%" PRIu64 " %ssyscw=%" PRIu64
		" %sread_bytes=%" PRIu64 " %swrite_bytes=%" PRIu64 " %scancelled=%" PRIu64,
		p, io->rchar, p, io->wchar, p, io->syscr, p, io->syscw, p, io->read_bytes, p,
		io->write_bytes, p, io->cancelled_write_bytes);
}

static void put_sample(FILE *out, const struct task_sample *t)
{
	fprintf(out, "%d %d comm=", (int)t->tgid, (int)t->tid);
	put_comm(out, t->comm);
	fprintf(out,
		" state=%c ppid=%d nthreads=%u processor=%d rt_priority=%u policy=%u"
		" utime=%" PRIu64 " stime=%" PRIu64 " gtime=%" PRIu64 " cutime=%" PRId64
		" cstime=%" PRId64 " cgtime=%" PRId64 " minflt=%" PRIu64 " majflt=%" PRIu64
		" cminflt=%" PRIu64 " cmajflt=%" PRIu64 " starttime=%" PRIu64 " vsize=%" PRIu64
		" rss=%" PRId64 " blkio=%" PRIu64,
		t->state, (int)t->ppid, t->nthreads, t->processor, t->rt_priority, t->policy,
		t->utime, t->stime, t->gtime, t->cutime, t->cstime, t->cgtime, t->minflt, t->majflt,
		t->cminflt, t->cmajflt, t->starttime, t->vsize, t->rss, t->blkio_ticks);
	if (t->flags & TS_STATUS)
		fprintf(out, " uid=%u nvcsw=%" PRIu64 " nivcsw=%" PRIu64 " cpus=%" PRIx64, t->uid,
			t->nvcsw, t->nivcsw, t->cpus_allowed);
	if (t->flags & TS_SCHED)
		fprintf(out, " run_ns=%" PRIu64 " wait_ns=%" PRIu64 " slices=%" PRIu64, t->run_ns,
			t->wait_ns, t->slices);
	if (t->flags & TS_IO)
		put_io(out, "", &t->io);
	if (t->flags & TS_WHOLE) {
		fprintf(out,
			" w_utime=%" PRIu64 " w_stime=%" PRIu64 " w_gtime=%" PRIu64
			" w_minflt=%" PRIu64 " w_majflt=%" PRIu64,
			t->whole.utime, t->whole.stime, t->whole.gtime, t->whole.minflt,
			t->whole.majflt);
		if (t->flags & TS_IO)
			put_io(out, "w_", &t->whole.io);
	}
	fputc('\n', out);
}

int doctor_dump_tasks(FILE *out, const char *doors)
{
	struct task_source *src[8];
	enum task_door door[8];
	struct task_set set[8];
	char list[64], *save = NULL, *tok;
	struct procfs *pf;
	size_t n = 0;
	int err = 0;

	snprintf(list, sizeof(list), "%s", doors);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == 8 || procfs_task_door_parse(tok, &door[n]) || door[n] == TASK_DOOR_AUTO)
			return -EINVAL;
		n++;
	}
	if (!n)
		return -EINVAL;
	if ((err = procfs_open(&pf, "/")))
		return err;
	memset(set, 0, sizeof(set));
	memset(src, 0, sizeof(src));
	/* open every door first: the scans then follow each other closely */
	for (size_t i = 0; i < n && !err; i++)
		err = procfs_task_source_open(&src[i], pf, false, door[i], TASK_WANT_ALL, 0);
	for (size_t i = 0; i < n && !err; i++)
		err = procfs_task_source_scan(src[i], &set[i], 0);
	for (size_t i = 0; i < n && !err; i++) {
		fprintf(out, "# door %s\n", procfs_task_door_name(door[i]));
		for (size_t k = 0; k < set[i].len; k++)
			put_sample(out, &set[i].v[set[i].order[k]]);
	}
	for (size_t i = 0; i < n; i++) {
		procfs_task_set_release(&set[i]);
		procfs_task_source_close(src[i]);
	}
	procfs_close(pf);
	return err;
}
