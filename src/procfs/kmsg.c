/* What a kernel log record is about: the report's kernel-log rules read this. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs/hoststats.h"
#include "util/inplace.h"

/* Copies the text from s up to the first byte in stops (or the end), cut to size - 1. */
static void copy_until(char *dst, size_t size, const char *s, const char *stops)
{
	size_t n = strcspn(s, stops);

	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static int number_after(const char *s)
{
	long v = strtol(s, NULL, 10);

	return v > 0 && v < 1L << 30 ? (int)v : 0;
}

/* "oom-kill:...,task_memcg=/x,task=comm,pid=N,uid=U" */
static void oom_kill_line(const char *t, struct kmsg_class *c)
{
	const char *p;

	if ((p = strstr(t, "task_memcg=")))
		copy_until(c->cgroup, sizeof(c->cgroup), p + 11, ",");
	if ((p = strstr(t, ",task=")))
		copy_until(c->comm, sizeof(c->comm), p + 6, ",");
	if ((p = strstr(t, ",pid=")))
		c->pid = number_after(p + 5);
}

/* "... Killed process PID (comm) total-vm:..." */
static void killed_process(const char *p, struct kmsg_class *c)
{
	const char *open;

	c->pid = number_after(p);
	if ((open = strchr(p, '(')))
		copy_until(c->comm, sizeof(c->comm), open + 1, ")");
}

/* "task comm:PID blocked for more than N seconds": comm may hold ':' itself. */
static void hung_task(const char *p, struct kmsg_class *c)
{
	const char *end = strstr(p, " blocked for more than");
	const char *colon = NULL;
	size_t n;

	for (const char *q = p; q < end; q++)
		if (*q == ':')
			colon = q;
	if (!end || !colon)
		return;
	n = (size_t)(colon - p);
	if (n >= sizeof(c->comm))
		n = sizeof(c->comm) - 1;
	memcpy(c->comm, p, n);
	c->comm[n] = '\0';
	c->pid = number_after(colon + 1);
	c->blocked_s = (unsigned)number_after(end + 22);
}

/* "comm:PID" in [p, end): comm may hold ':' itself, so the last one splits them. */
static void task_token(const char *p, const char *end, char *comm, size_t size, int *pid)
{
	const char *colon = NULL;
	size_t n;

	for (const char *q = p; q < end; q++)
		if (*q == ':')
			colon = q;
	if (!colon)
		return;
	n = (size_t)(colon - p);
	if (n >= size)
		n = size - 1;
	memcpy(comm, p, n);
	comm[n] = '\0';
	*pid = number_after(colon + 1);
}

/* Drops a trailing suffix from [p, *end) when it is there. */
static void drop_suffix(const char *p, const char **end, const char *suffix)
{
	size_t n = strlen(suffix);

	if (*end - p >= (ptrdiff_t)n && !memcmp(*end - n, suffix, n))
		*end -= n;
}

/*
 * What a hung task waits for, logged after its dump (CONFIG_DETECT_HUNG_TASK_BLOCKER):
 * "INFO: task A:1 is blocked on a mutex likely owned by task B:2.",
 * "INFO: task A:1 blocked on a semaphore likely last held by task B:2",
 * "INFO: task A:1 <writer> blocked on an rw-semaphore likely owned by task B:2 <reader>",
 * or "..., but the owner is not found."
 */
static void hung_blocker(const char *p, const char *on, struct kmsg_class *c)
{
	const char *end = on, *lock = on + 13, *by = strstr(on, " by task ");

	drop_suffix(p, &end, " <reader>");
	drop_suffix(p, &end, " <writer>");
	drop_suffix(p, &end, " is");
	task_token(p, end, c->comm, sizeof(c->comm), &c->pid);
	snprintf(c->lock, sizeof(c->lock), "%s",
		 !strncmp(lock, "n rw-semaphore", 14) ? "rw-semaphore"
		 : !strncmp(lock, " semaphore", 10)   ? "semaphore"
						      : "mutex");
	if (!by)
		return;
	by += 9;
	end = by + strlen(by);
	drop_suffix(by, &end, ".");
	drop_suffix(by, &end, " <reader>");
	drop_suffix(by, &end, " <writer>");
	task_token(by, end, c->owner_comm, sizeof(c->owner_comm), &c->owner_pid);
}

/* "comm[PID]: segfault at ..." (also "traps: comm[PID] general protection ...") */
static void bracket_pid(const char *t, const char *at, struct kmsg_class *c)
{
	const char *open = NULL;

	if (!strncmp(t, "traps: ", 7))
		t += 7;
	for (const char *q = t; q < at; q++)
		if (*q == '[')
			open = q;
	if (!open)
		return;
	if ((size_t)(open - t) < sizeof(c->comm)) {
		memcpy(c->comm, t, (size_t)(open - t));
		c->comm[open - t] = '\0';
	}
	c->pid = number_after(open + 1);
}

/* "... stuck for 22s! [comm:PID]": the task that held the CPU. */
static void lockup_task(const char *p, struct kmsg_class *c)
{
	const char *colon = strrchr(p, ':');
	size_t n = (size_t)(colon - p);

	if (n < sizeof(c->comm)) {
		memcpy(c->comm, p, n);
		c->comm[n] = '\0';
	}
	c->pid = number_after(colon + 1);
}

static bool is_lockup(const char *t)
{
	return strstr(t, "soft lockup") || strstr(t, "hard LOCKUP") ||
	       strstr(t, "self-detected stall") || strstr(t, "detected stalls on CPU");
}

static bool classify_task_events(const char *t, struct kmsg_class *c)
{
	const char *p, *on;

	if (!strncmp(t, "oom-kill:", 9)) {
		c->event = KMSG_OOM_KILL;
		oom_kill_line(t, c);
	} else if ((p = strstr(t, "Killed process "))) {
		c->event = KMSG_OOM_KILL;
		killed_process(p + 15, c);
	} else if ((p = strstr(t, "INFO: task ")) && strstr(p, " blocked for more than")) {
		c->event = KMSG_HUNG_TASK;
		hung_task(p + 11, c);
	} else if ((p = strstr(t, "INFO: task ")) && (on = strstr(p, " blocked on a"))) {
		c->event = KMSG_HUNG_BLOCKER;
		hung_blocker(p + 11, on, c);
	} else if ((p = strstr(t, ": segfault at ")) || (p = strstr(t, " general protection"))) {
		c->event = KMSG_SEGFAULT;
		bracket_pid(t, p, c);
	} else {
		return false;
	}
	return true;
}

/* "? __schedule+0x7c7/0x1930" or "down_write+0x41/0xb0 [mod]": a call trace's frame. */
static bool is_stack_frame(const char *s)
{
	size_t n;

	if (!strncmp(s, "? ", 2))
		s += 2;
	n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$");
	if (!n || strncmp(s + n, "+0x", 3))
		return false;
	s += n + 3;
	s += strspn(s, "0123456789abcdef");
	return !strncmp(s, "/0x", 3);
}

/*
 * A line of the dump that follows a report: the task's or CPU's state,
 * the taint line, the hung-task hint, call traces, registers. Some come
 * at level err (a hung task's "Not tainted 6.1.0 #1", "\"echo 0 > ...\"
 * disables this message"), none says what happened.
 */
static bool is_dump_line(const char *t)
{
	STRINGS_IN_PLACE
	static const char starts[][24] = {
		"Not tainted ",
		"Tainted: ",
		"Blocked by coredump",
		"Call Trace:",
		"<TASK>",
		"</TASK>",
		"<IRQ>",
		"</IRQ>",
		"Code: ",
		"Modules linked in:",
		"Hardware name:",
		"task:",
		"Workqueue: ",
		"Showing all locks held",
		"RIP: ",
		"RSP: ",
		"RAX: ",
		"RDX: ",
		"RBP: ",
		"R10: ",
		"R13: ",
		"FS: ",
		"CS: ",
		"CR2: ",
		"DR0: ",
		"DR3: ",
		"PKRU: ",
		"pc : ",
		"lr : ",
		"sp : ",
	};
	STRINGS_IN_PLACE_END
	const char *s = t + strspn(t, " \t");

	if (strstr(s, "hung_task_timeout_secs\" disables this message"))
		return true;
	if (!strncmp(s, "CPU: ", 5) && strstr(s, " PID: ") && strstr(s, " Comm: "))
		return true;
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (!strncmp(s, starts[i], strlen(starts[i])))
			return true;
	return is_stack_frame(s);
}

/*
 * "nf_conntrack: table full, dropping packet" (init_net only, before 6.x),
 * or "nf_conntrack: nf_conntrack: table full in netns N, dropping packet".
 */
static void conntrack_full(const char *t, struct kmsg_class *c)
{
	const char *p = strstr(t, " in netns ");

	c->event = KMSG_CONNTRACK_FULL;
	if (p)
		c->netns = strtoull(p + 10, NULL, 10);
}

/*
 * Lines below level err that still name a fault other kinds explain:
 * the system out of file handles (fd-exhaustion), the conntrack table
 * full (conntrack-full). Only the kernel's (facility 0): user space
 * cannot log as the kernel.
 */
static bool classify_table_full(const struct kmsg_record *r, struct kmsg_class *c)
{
	const char *t = r->text;

	if (r->facility != 0)
		return false;
	if (!strncmp(t, "VFS: file-max limit ", 20) && strstr(t + 20, " reached"))
		c->event = KMSG_FILE_MAX;
	else if (!strncmp(t, "nf_conntrack: ", 14) && strstr(t, "table full") &&
		 strstr(t, "dropping packet"))
		conntrack_full(t, c);
	return c->event != KMSG_NONE;
}

void procfs_kmsg_classify(const struct kmsg_record *r, struct kmsg_class *c)
{
	const char *t = r->text, *p;

	memset(c, 0, sizeof(*c));
	if (is_dump_line(t) || classify_table_full(r, c) || classify_task_events(t, c))
		return;
	if (is_lockup(t)) {
		c->event = KMSG_SOFT_LOCKUP;
		if ((p = strrchr(t, '[')) && strchr(p, ':'))
			lockup_task(p + 1, c);
		return;
	}
	if ((p = strstr(t, "error, dev ")) || (p = strstr(t, "error on dev "))) {
		c->event = KMSG_IO_ERROR;
		copy_until(c->device, sizeof(c->device), strstr(p, "dev ") + 4, ", ");
		return;
	}
	if (r->facility == 0 && r->level <= 3)
		c->event = KMSG_OTHER_ERROR;
}
