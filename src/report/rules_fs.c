/*
 * filesystem-full and inodes-full: a filesystem that stores data, full or
 * nearly (df's Use% of what non-root can use, or of its inodes), critical
 * when full or when the window's rate fills it within the hour. A burst on
 * a half-empty filesystem is no finding: the rate only makes a nearly full
 * one critical.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

/*
 * The severity of a filesystem pct full with left (bytes or inodes) to go
 * at rate per second (> 0 filling); *eta_s: seconds until full at that
 * rate, -1 when not filling. SEV_DEFAULT: no finding.
 */
static enum report_sev fill_severity(double pct, double left, double rate, double *eta_s)
{
	*eta_s = rate > 0 ? left / rate : -1;
	if (pct >= FS_FULL_CRIT_PCT)
		return SEV_CRITICAL;
	if (pct >= FS_FILLING_PCT && *eta_s >= 0 && *eta_s <= FS_FULL_SOON_S)
		return SEV_CRITICAL;
	if (pct >= FS_FULL_WARN_PCT)
		return SEV_WARNING;
	return SEV_DEFAULT;
}

/* "1.5 GiB", "40.0 MiB", "512 B" */
static const char *bytes_words(double b, char *buf, size_t size)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int u = 0;

	while (b >= 1024 && u < 5) {
		b /= 1024;
		u++;
	}
	snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
	return buf;
}

/* "6 min", "45 s", "2.5 h" */
static const char *eta_words(double s, char *buf, size_t size)
{
	if (s < 120)
		snprintf(buf, size, "%.0f s", s);
	else if (s < 7200)
		snprintf(buf, size, "%.0f min", s / 60);
	else
		snprintf(buf, size, "%.1f h", s / 3600);
	return buf;
}

/* path in single quotes for a shell, its own quotes escaped. */
static const char *shell_quoted(const char *path, char *buf, size_t size)
{
	size_t n = 0;

	if (size < 3)
		return "''";
	buf[n++] = '\'';
	for (const char *p = path; *p && n + 6 < size; p++) {
		if (*p == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *p;
		}
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

static void fs_subject(struct rp_finding *x, const struct rp_fs *fs)
{
	report_set_str(x->subject.mount, sizeof(x->subject.mount), fs->mount);
	report_set_str(x->subject.device, sizeof(x->subject.device), fs->device);
	report_set_str(x->subject.fstype, sizeof(x->subject.fstype), fs->fstype);
	for (size_t i = 0; i < fs->nwriters && x->subject.npids < RP_MAX_PIDS; i++)
		x->subject.pids[x->subject.npids++] = fs->writers[i];
}

/* " Open for writing by PID 812 (app), PID 9 (log)." or "" */
static void writers_words(const struct report_data *d, const struct rp_fs *fs, char *buf,
			  size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < fs->nwriters && i < 3 && n + 1 < size; i++) {
		const struct rp_proc *p = report_proc_by_pid(d, fs->writers[i]);

		n += (size_t)snprintf(buf + n, size - n, "%s PID %d%s%s%s",
				      i ? "," : " Open for writing by", (int)fs->writers[i],
				      p ? " (" : "", p ? p->comm : "", p ? ")" : "");
	}
	if (fs->nwriters > 3 && n + 1 < size)
		n += (size_t)snprintf(buf + n, size - n, " and %zu more", fs->nwriters - 3);
	if (n && n + 1 < size)
		snprintf(buf + n, size - n, ".");
}

/* "triage pidstat -d -p 1,2 1 5; " when the filesystem has writers, else "". */
static const char *pidstat_words(const struct rp_fs *fs, char *buf, size_t size)
{
	char pids[128];

	if (!fs->nwriters)
		return "";
	report_pid_list(fs->writers, fs->nwriters, pids, sizeof(pids));
	snprintf(buf, size, "triage pidstat -d -p %s 1 5; ", pids);
	return buf;
}

static int space_finding(const struct report_data *d, const struct rp_fs *fs,
			 struct report_findings *f)
{
	char left[32], size[32], rate[32], eta[32], who[200], q[300], ps[160];
	double eta_s;
	enum report_sev sev =
	    fill_severity(fs->used_pct, (double)fs->avail_bytes, fs->fill_bytes_s, &eta_s);
	struct rp_finding *x;

	if (sev == SEV_DEFAULT)
		return 0;
	if (!(x = report_finding_add(f, RK_FILESYSTEM_FULL, sev)))
		return -ENOMEM;
	fs_subject(x, fs);
	x->weight = fs->used_pct;
	writers_words(d, fs, who, sizeof(who));
	bytes_words((double)fs->avail_bytes, left, sizeof(left));
	bytes_words((double)fs->size_bytes, size, sizeof(size));
	if (eta_s >= 0 && fs->avail_bytes)
		report_finding_brief(x, "%s (%s) is %.0f%% full, full in %s", fs->mount, fs->fstype,
				     fs->used_pct, eta_words(eta_s, eta, sizeof(eta)));
	else
		report_finding_brief(x, "%s (%s) is %.0f%% full", fs->mount, fs->fstype,
				     fs->used_pct);
	if (!fs->avail_bytes)
		report_finding_say(
		    x,
		    "%s (%s) is %.0f%% full: nothing left of %s for non-root users, so "
		    "writes fail with ENOSPC.%s",
		    fs->mount, fs->fstype, fs->used_pct, size, who);
	else if (eta_s >= 0)
		report_finding_say(
		    x, "%s (%s) is %.0f%% full (%s left of %s), filling %s/s: full in %s.%s",
		    fs->mount, fs->fstype, fs->used_pct, left, size,
		    bytes_words(fs->fill_bytes_s, rate, sizeof(rate)),
		    eta_words(eta_s, eta, sizeof(eta)), who);
	else
		report_finding_say(x, "%s (%s) is %.0f%% full (%s left of %s).%s", fs->mount,
				   fs->fstype, fs->used_pct, left, size, who);
	report_finding_next(x, "See what fills it", "%sdu -xh --max-depth=2 %s | sort -h | tail",
			    pidstat_words(fs, ps, sizeof(ps)),
			    shell_quoted(fs->mount, q, sizeof(q)));
	report_finding_ev(x, "used", fs->used_pct, "%");
	report_finding_ev(x, "avail", (double)fs->avail_bytes, "bytes");
	report_finding_ev(x, "fill_rate", fs->fill_bytes_s, "bytes/s");
	if (eta_s >= 0)
		report_finding_ev(x, "full_in", eta_s, "s");
	return 0;
}

static int inode_finding(const struct report_data *d, const struct rp_fs *fs,
			 struct report_findings *f)
{
	char eta[32], who[200], q[300], ps[160];
	double eta_s;
	enum report_sev sev =
	    fill_severity(fs->inodes_pct, (double)fs->files_free, fs->fill_inodes_s, &eta_s);
	struct rp_finding *x;

	if (sev == SEV_DEFAULT || !fs->files)
		return 0;
	if (!(x = report_finding_add(f, RK_INODES_FULL, sev)))
		return -ENOMEM;
	fs_subject(x, fs);
	x->weight = fs->inodes_pct;
	writers_words(d, fs, who, sizeof(who));
	report_finding_brief(x, "%s (%s) has used %.0f%% of its inodes", fs->mount, fs->fstype,
			     fs->inodes_pct);
	if (!fs->files_free)
		report_finding_say(
		    x,
		    "%s (%s) has used all its %llu inodes (space %.0f%% used): creating a "
		    "file fails with ENOSPC.%s",
		    fs->mount, fs->fstype, (unsigned long long)fs->files, fs->used_pct, who);
	else if (eta_s >= 0)
		report_finding_say(
		    x,
		    "%s (%s) has used %.0f%% of its inodes (%llu of %llu free), %.0f more "
		    "a second: none left in %s.%s",
		    fs->mount, fs->fstype, fs->inodes_pct, (unsigned long long)fs->files_free,
		    (unsigned long long)fs->files, fs->fill_inodes_s,
		    eta_words(eta_s, eta, sizeof(eta)), who);
	else
		report_finding_say(
		    x, "%s (%s) has used %.0f%% of its inodes (%llu of %llu free).%s", fs->mount,
		    fs->fstype, fs->inodes_pct, (unsigned long long)fs->files_free,
		    (unsigned long long)fs->files, who);
	report_finding_next(
	    x, "See where the inodes went", "%sdu -x --inodes --max-depth=2 %s | sort -n | tail",
	    pidstat_words(fs, ps, sizeof(ps)), shell_quoted(fs->mount, q, sizeof(q)));
	report_finding_ev(x, "inodes_used", fs->inodes_pct, "%");
	report_finding_ev(x, "inodes_free", (double)fs->files_free, "inodes");
	report_finding_ev(x, "inode_fill_rate", fs->fill_inodes_s, "inodes/s");
	if (eta_s >= 0)
		report_finding_ev(x, "full_in", eta_s, "s");
	return 0;
}

int report_rule_filesystem_full(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nfs; i++)
		if (space_finding(d, &d->fs[i], f))
			return -ENOMEM;
	return 0;
}

int report_rule_inodes_full(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nfs; i++)
		if (inode_finding(d, &d->fs[i], f))
			return -ENOMEM;
	return 0;
}
