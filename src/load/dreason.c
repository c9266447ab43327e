#include "load/dreason.h"

#include <stdio.h>
#include <string.h>
#include "util/inplace.h"

/*
 * Rules in order of precedence: the first rule with a matching frame
 * anywhere in the stack decides. Context beats mechanism: a mutex taken
 * inside NFS is an NFS wait, a rwsem taken in a page fault is a lock wait,
 * but reclaim that sleeps on a lock is reclaim.
 */
/*
 * The patterns are held in place, each list ended by "": pointers to the
 * strings would be relocations the loader of the position-independent
 * binary writes at every start (issue 24); a pattern too long for its field
 * is an error (util/inplace.h).
 */
typedef char d_pattern[32]; /* "foo*" = prefix, "*foo*" = substring */

struct d_rule {
	enum d_reason reason;
	const d_pattern *patterns;
};

STRINGS_IN_PLACE
static const d_pattern freezer_pat[] = { "__refrigerator", "refrigerator", "do_freezer_trap",
					 "try_to_freeze*", "freezer_*",	   "" };
static const d_pattern vfork_pat[] = { "wait_for_vfork_done", "*vfork*", "" };
static const d_pattern netfs_pat[] = { "nfs_*",	 "nfs4_*", "__nfs*", "rpc_*",	   "__rpc_*",
				       "xprt_*", "cifs_*", "smb2_*", "fuse_*",	   "ceph_*",
				       "v9fs_*", "p9_*",   "afs_*",  "orangefs_*", "" };
static const d_pattern reclaim_pat[] = { "shrink_*",
					 "try_to_free_pages",
					 "try_to_free_mem_cgroup_pages",
					 "__alloc_pages_slowpath*",
					 "__alloc_pages_direct_*",
					 "__perform_reclaim",
					 "balance_pgdat",
					 "throttle_direct_reclaim",
					 "reclaim_throttle",
					 "mem_cgroup_handle_over_high",
					 "*compact_zone*",
					 "try_to_compact_pages",
					 "wait_on_page_writeback*",
					 "folio_wait_writeback*",
					 "swap_readpage*",
					 "swap_read_folio*",
					 "" };
static const d_pattern lock_pat[] = { "*mutex_lock*",  "__mutex_*",	 "mutex_*",
				      "rwsem_down_*",  "down_read*",	 "down_write*",
				      "rt_mutex_*",    "__rt_mutex_*",	 "rtlock_*",
				      "percpu_down_*", "percpu_rwsem_*", "" };
static const d_pattern fault_pat[] = {
	"handle_mm_fault",	 "__handle_mm_fault",  "do_user_addr_fault", "exc_page_fault",
	"do_page_fault",	 "filemap_fault",      "__do_fault",	     "do_swap_page",
	"__lock_folio_or_retry", "lock_page_or_retry", "__get_user_pages",   ""
};
static const d_pattern disk_pat[] = { "io_schedule*",
				      "blk_*",
				      "__blk_*",
				      "bio_*",
				      "submit_bio*",
				      "folio_wait_bit*",
				      "wait_on_page_bit*",
				      "__folio_lock*",
				      "__lock_page*",
				      "jbd2_*",
				      "ext4_*",
				      "xfs_*",
				      "btrfs_*",
				      "f2fs_*",
				      "__filemap_fdatawait*",
				      "filemap_fdatawait*",
				      "file_write_and_wait*",
				      "*sync_*",
				      "wait_on_buffer",
				      "__wait_on_buffer",
				      "__bread*",
				      "sg_*",
				      "scsi_*",
				      "nvme_*",
				      "dm_*",
				      "" };

static const struct d_rule rules[] = {
	{ D_FREEZER, freezer_pat },    { D_VFORK, vfork_pat }, { D_NETFS, netfs_pat },
	{ D_PAGE_FAULT, reclaim_pat }, { D_LOCK, lock_pat },   { D_PAGE_FAULT, fault_pat },
	{ D_DISK_IO, disk_pat },
};
STRINGS_IN_PLACE_END

static bool pattern_match(const char *pat, const char *name)
{
	size_t n = strlen(pat);

	if (n >= 2 && pat[0] == '*' && pat[n - 1] == '*') {
		char mid[KSYM_MAX];

		if (n - 2 >= sizeof(mid))
			return false;
		memcpy(mid, pat + 1, n - 2);
		mid[n - 2] = '\0';
		return strstr(name, mid) != NULL;
	}
	if (n >= 1 && pat[n - 1] == '*')
		return !strncmp(pat, name, n - 1);
	return !strcmp(pat, name);
}

static bool rule_match(const struct d_rule *r, const char *name)
{
	if (!name || !*name)
		return false;
	for (const d_pattern *p = r->patterns; (*p)[0]; p++)
		if (pattern_match(*p, name))
			return true;
	return false;
}

static void set_verdict(struct d_verdict *out, enum d_reason r, const char *frame)
{
	out->reason = r;
	snprintf(out->frame, sizeof(out->frame), "%s", frame ? frame : "");
}

/*
 * The vfork wait is inlined into kernel_clone on current kernels, so the
 * stack's top frame (and wchan) is kernel_clone with __do_sys_vfork or a
 * CLONE_VFORK clone below it.
 */
static bool is_vfork_wait(const char *wchan, const struct kstack *st)
{
	if (st && st->nframes)
		return !strcmp(st->frame[0], "kernel_clone");
	return wchan && !strcmp(wchan, "kernel_clone");
}

void load_dreason_classify(const char *wchan, const struct kstack *stack, struct d_verdict *out)
{
	const struct kstack *st = stack && stack->nframes ? stack : NULL;

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (rule_match(&rules[i], wchan)) {
			set_verdict(out, rules[i].reason, wchan);
			return;
		}
		for (int f = 0; st && f < st->nframes; f++) {
			if (rule_match(&rules[i], st->frame[f])) {
				set_verdict(out, rules[i].reason, st->frame[f]);
				return;
			}
		}
		if (rules[i].reason == D_VFORK && is_vfork_wait(wchan, st)) {
			set_verdict(out, D_VFORK, "kernel_clone");
			return;
		}
	}
	set_verdict(out, D_OTHER, wchan && *wchan ? wchan : st ? st->frame[0] : "");
}

const char *load_dreason_key(enum d_reason r)
{
	static const char keys[D_REASON_COUNT][12] = {
		"none", "disk_io", "page_fault", "lock", "vfork", "netfs", "freezer", "other",
	};

	return (unsigned)r < D_REASON_COUNT ? keys[r] : "other";
}

const char *load_dreason_words(enum d_reason r, bool plural)
{
	static const char words[D_REASON_COUNT][2][44] = {
		{ "not in D", "not in D" },
		{ "disk I/O", "disk I/O" },
		{ "page fault or memory reclaim", "page faults or memory reclaim" },
		{ "mutex/rwsem lock wait", "mutex/rwsem lock waits" },
		{ "vfork parent waiting for its child",
		  "vfork parents waiting for their children" },
		{ "network or FUSE file system", "network or FUSE file systems" },
		{ "frozen by the cgroup freezer", "frozen by the cgroup freezer" },
		{ "other kernel wait", "other kernel waits" },
	};

	return words[(unsigned)r < D_REASON_COUNT ? r : D_OTHER][plural];
}
