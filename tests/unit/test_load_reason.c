/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * Why a D task waits: the classifier, the stack and cgroup parsers.
 * Stacks marked "captured" were read from /proc/TID/stack on this project's
 * test VM (kernel 6.18) with the task in the named situation; the others
 * are call chains of the named kernel paths (function names from the
 * kernel sources: mm/vmscan.c, kernel/locking/, fs/nfs/, kernel/fork.c).
 */
#include <errno.h>
#include <string.h>

#include "load/dreason.h"
#include "load/snapshot.h"
#include "procfs/task_info.h"
#include "unit.h"

/* Captured: a vfork parent while its child sleeps (load_dstate vfork). */
static const char vfork_stack[] = "[<0>] kernel_clone+0x1d3/0x400\n"
				  "[<0>] __do_sys_vfork+0x66/0x90\n"
				  "[<0>] do_syscall_64+0x71/0x290\n"
				  "[<0>] entry_SYSCALL_64_after_hwframe+0x76/0x7e\n";

/* Captured: `sleep 30` frozen in a v1 freezer cgroup (frozen in place). */
static const char frozen_sleep_stack[] = "[<0>] hrtimer_nanosleep+0xb5/0x130\n"
					 "[<0>] common_nsleep+0x30/0x60\n"
					 "[<0>] __x64_sys_clock_nanosleep+0xde/0x150\n"
					 "[<0>] do_syscall_64+0x71/0x290\n"
					 "[<0>] entry_SYSCALL_64_after_hwframe+0x76/0x7e\n";

static enum d_reason classify(const char *wchan, const char *stack_text)
{
	struct kstack st = { 0 };
	struct d_verdict v;

	if (stack_text)
		procfs_kstack_parse(stack_text, strlen(stack_text), &st);
	load_dreason_classify(wchan, stack_text ? &st : NULL, &v);
	return v.reason;
}

TEST(stack_parse_drops_offsets)
{
	struct kstack st;

	ASSERT_EQ(procfs_kstack_parse(vfork_stack, sizeof(vfork_stack) - 1, &st), 0);
	ASSERT_EQ(st.nframes, 4);
	ASSERT_STREQ(st.frame[0], "kernel_clone");
	ASSERT_STREQ(st.frame[1], "__do_sys_vfork");
	ASSERT_EQ(procfs_kstack_parse("", 0, &st), -EINVAL);
	ASSERT_EQ(procfs_kstack_parse("garbage\n", 8, &st), 0); /* a bare name is a frame */
	ASSERT_STREQ(st.frame[0], "garbage");
}

TEST(vfork_from_stack_and_from_wchan_alone)
{
	ASSERT_EQ(classify("kernel_clone", vfork_stack), D_VFORK);
	/* Unprivileged readers see no stack: the wchan of the inlined wait. */
	ASSERT_EQ(classify("kernel_clone", NULL), D_VFORK);
	/* clone(CLONE_VFORK), as posix_spawn does. */
	ASSERT_EQ(classify("", "[<0>] kernel_clone+0x1/0x2\n[<0>] __do_sys_clone3+0x1/0x2\n"),
		  D_VFORK);
}

TEST(disk_reclaim_lock_netfs)
{
	ASSERT_EQ(classify("", "[<0>] io_schedule+0x1/0x2\n[<0>] folio_wait_bit_common+0x1/0x2\n"
			       "[<0>] filemap_read+0x1/0x2\n[<0>] vfs_read+0x1/0x2\n"),
		  D_DISK_IO);
	ASSERT_EQ(classify("submit_bio_wait", NULL), D_DISK_IO);
	ASSERT_EQ(classify("jbd2_log_wait_commit", NULL), D_DISK_IO);
	ASSERT_EQ(classify("", "[<0>] io_schedule+0x1/0x2\n[<0>] folio_wait_bit_common+0x1/0x2\n"
			       "[<0>] filemap_fault+0x1/0x2\n[<0>] __do_fault+0x1/0x2\n"
			       "[<0>] handle_mm_fault+0x1/0x2\n[<0>] exc_page_fault+0x1/0x2\n"),
		  D_PAGE_FAULT);
	ASSERT_EQ(classify("", "[<0>] rwsem_down_write_slowpath+0x1/0x2\n[<0>] down_write+0x1/0x2\n"
			       "[<0>] shrink_slab+0x1/0x2\n[<0>] try_to_free_pages+0x1/0x2\n"),
		  D_PAGE_FAULT);
	ASSERT_EQ(classify("rwsem_down_write_slowpath",
			   "[<0>] rwsem_down_write_slowpath+0x1/0x2\n[<0>] dup_mmap+0x1/0x2\n"
			   "[<0>] copy_process+0x1/0x2\n[<0>] kernel_clone+0x1/0x2\n"
			   "[<0>] __do_sys_clone+0x1/0x2\n"),
		  D_LOCK);
	ASSERT_EQ(
	    classify(
		"", "[<0>] __mutex_lock.constprop.0+0x1/0x2\n[<0>] ext4_file_write_iter+0x1/0x2\n"),
	    D_LOCK);
	ASSERT_EQ(classify("", "[<0>] rpc_wait_bit_killable+0x1/0x2\n[<0>] __rpc_execute+0x1/0x2\n"
			       "[<0>] nfs4_do_call_sync+0x1/0x2\n"),
		  D_NETFS);
	ASSERT_EQ(classify("fuse_request_end", NULL), D_NETFS);
	ASSERT_EQ(classify("__refrigerator", NULL), D_FREEZER);
	ASSERT_EQ(classify("synchronize_rcu_expedited", NULL), D_OTHER);
	ASSERT_EQ(classify("", NULL), D_OTHER);
}

TEST(frozen_in_place_is_judged_by_its_cgroup)
{
	struct load_task t = { .state = 'D' };

	strcpy(t.wchan, "hrtimer_nanosleep");
	procfs_kstack_parse(frozen_sleep_stack, sizeof(frozen_sleep_stack) - 1, &t.stack);
	load_task_judge(&t, 1);
	ASSERT_TRUE(t.frozen);
	ASSERT_TRUE(!t.counts);
	ASSERT_EQ(t.why.reason, D_FREEZER);
	load_task_judge(&t, 0);
	ASSERT_TRUE(!t.frozen);
	ASSERT_TRUE(t.counts);
	ASSERT_EQ(t.why.reason, D_OTHER);
}

TEST(cgroup_membership)
{
	static const char hybrid[] = "9:name=systemd:/\n8:pids:/\n6:freezer:/triage_x\n"
				     "4:memory:/process_api/abc\n1:cpu:/\n0::/\n";
	static const char v2[] = "0::/system.slice/ssh.service\n";
	struct task_cgroups cg;

	ASSERT_EQ(procfs_task_cgroups_parse(hybrid, sizeof(hybrid) - 1, &cg), 0);
	ASSERT_TRUE(cg.has_freezer);
	ASSERT_STREQ(cg.freezer, "/triage_x");
	ASSERT_STREQ(cg.unified, "/");
	ASSERT_STREQ(cg.display, "/process_api/abc");
	ASSERT_EQ(procfs_task_cgroups_parse(v2, sizeof(v2) - 1, &cg), 0);
	ASSERT_TRUE(!cg.has_freezer);
	ASSERT_STREQ(cg.display, "/system.slice/ssh.service");
	ASSERT_EQ(procfs_task_cgroups_parse("junk", 4, &cg), -EINVAL);
}

/* Each controller's group: v1 lines name them apart; else the v2 path. */
TEST(cgroup_per_controller)
{
	static const char v1[] = "9:name=systemd:/user.slice\n7:blkio:/io-limited\n"
				 "4:memory:/process_api/abc\n3:cpuset:/pinned\n"
				 "2:cpu,cpuacct:/batch\n0::/\n";
	static const char v2[] = "0::/system.slice/db.service\n";
	struct task_cgroups cg;

	ASSERT_EQ(procfs_task_cgroups_parse(v1, sizeof(v1) - 1, &cg), 0);
	ASSERT_STREQ(procfs_task_cgroups_path(&cg, CGC_CPU), "/batch");
	ASSERT_STREQ(procfs_task_cgroups_path(&cg, CGC_CPUSET), "/pinned");
	ASSERT_STREQ(procfs_task_cgroups_path(&cg, CGC_MEMORY), "/process_api/abc");
	ASSERT_STREQ(procfs_task_cgroups_path(&cg, CGC_IO), "/io-limited");
	ASSERT_STREQ(cg.display, "/process_api/abc");
	/* a controller v1 does not mount is the v2 one's */
	ASSERT_EQ(procfs_task_cgroups_parse("4:memory:/m\n0::/u\n", 18, &cg), 0);
	ASSERT_STREQ(procfs_task_cgroups_path(&cg, CGC_IO), "/u");
	ASSERT_STREQ(procfs_task_cgroups_path(&cg, CGC_MEMORY), "/m");
	ASSERT_EQ(procfs_task_cgroups_parse(v2, sizeof(v2) - 1, &cg), 0);
	for (int c = 0; c < CGC_COUNT; c++)
		ASSERT_STREQ(procfs_task_cgroups_path(&cg, (enum cg_controller)c),
			     "/system.slice/db.service");
	ASSERT_EQ(procfs_task_cgroups_parse("5:pids:/p\n", 10, &cg), 0);
	ASSERT_STREQ(procfs_task_cgroups_path(&cg, CGC_CPU), "/");
}

TEST(freezer_files)
{
	ASSERT_EQ(procfs_freezer_state_parse("FROZEN\n", 7), 1);
	ASSERT_EQ(procfs_freezer_state_parse("FREEZING\n", 9), 0);
	ASSERT_EQ(procfs_freezer_state_parse("THAWED\n", 7), 0);
	ASSERT_EQ(procfs_freezer_state_parse("x", 1), -EINVAL);
	ASSERT_EQ(procfs_cgroup_events_frozen_parse("populated 1\nfrozen 1\n", 21), 1);
	ASSERT_EQ(procfs_cgroup_events_frozen_parse("populated 1\nfrozen 0\n", 21), 0);
	ASSERT_EQ(procfs_cgroup_events_frozen_parse("populated 1\n", 12), -EINVAL);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, stack_parse_drops_offsets);
	RUN(&st, vfork_from_stack_and_from_wchan_alone);
	RUN(&st, disk_reclaim_lock_netfs);
	RUN(&st, frozen_in_place_is_judged_by_its_cgroup);
	RUN(&st, cgroup_membership);
	RUN(&st, cgroup_per_controller);
	RUN(&st, freezer_files);
	UNIT_MAIN_END(&st);
}
