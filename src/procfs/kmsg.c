/* What a kernel log record is about: the report's kernel-log rules read this. */
#include <stdlib.h>
#include <string.h>

#include "procfs/hoststats.h"

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
	const char *p;

	if (!strncmp(t, "oom-kill:", 9)) {
		c->event = KMSG_OOM_KILL;
		oom_kill_line(t, c);
	} else if ((p = strstr(t, "Killed process "))) {
		c->event = KMSG_OOM_KILL;
		killed_process(p + 15, c);
	} else if ((p = strstr(t, "INFO: task ")) && strstr(p, " blocked for more than")) {
		c->event = KMSG_HUNG_TASK;
		hung_task(p + 11, c);
	} else if ((p = strstr(t, ": segfault at ")) || (p = strstr(t, " general protection"))) {
		c->event = KMSG_SEGFAULT;
		bracket_pid(t, p, c);
	} else {
		return false;
	}
	return true;
}

void kmsg_classify(const struct kmsg_record *r, struct kmsg_class *c)
{
	const char *t = r->text, *p;

	memset(c, 0, sizeof(*c));
	if (classify_task_events(t, c))
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
