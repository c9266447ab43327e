/*
 * Every threshold the report's rules use, named once; docs/report.md
 * lists them with the reasoning. Percentages of one CPU are per process
 * (a process with two busy threads can reach 200).
 */
#ifndef TRIAGE_REPORT_THRESHOLDS_H
#define TRIAGE_REPORT_THRESHOLDS_H

/*
 * filesystem-full / inodes-full: of the space non-root can use (df's Use%),
 * or of the inodes. Warning from FS_FULL_WARN_PCT; critical at
 * FS_FULL_CRIT_PCT, or from FS_FILLING_PCT when the window's rate fills it
 * within FS_FULL_SOON_S. The rate alone never raises one.
 */
#define FS_FULL_WARN_PCT 95.0
#define FS_FULL_CRIT_PCT 100.0
#define FS_FILLING_PCT 90.0
#define FS_FULL_SOON_S 3600.0

/*
 * fd-exhaustion: a process's open descriptors against its soft
 * RLIMIT_NOFILE, or the system's allocated file handles against
 * fs.file-max: warning from FD_WARN_PCT, critical at FD_CRIT_PCT.
 */
#define FD_WARN_PCT 90.0
#define FD_CRIT_PCT 100.0

/*
 * zombies: one parent's unreaped children, from ZOMBIE_WARN_COUNT (a shell
 * or a server between fork and wait() has a few for an instant; 50 at one
 * sample is a parent that does not wait()), critical from
 * ZOMBIE_CRIT_COUNT (each holds a PID: 1000 eat a real share of a
 * 32768 pid_max or a cgroup's pids.max).
 */
#define ZOMBIE_WARN_COUNT 50
#define ZOMBIE_CRIT_COUNT 1000

/*
 * process-churn: new processes a second over the window, from
 * CHURN_WARN_PER_S, critical from CHURN_CRIT_PER_S. This 2-CPU machine
 * building and testing (make -j2 under a test suite) made 30-60 a second;
 * one shell loop running /bin/true makes ~180. 250 is a fork storm no
 * build reaches.
 */
#define CHURN_WARN_PER_S 250.0
#define CHURN_CRIT_PER_S 1000.0
/*
 * ...or busy CPU that no sampled process accounts for (tasks' user +
 * system time less the sampled processes'; irq, softirq and steal are no
 * task's) of CHURN_UNSAMPLED_PCT of one CPU or more, with the sampled
 * processes' reaped children (cutime + cstime) using CHURN_REAPED_SHARE of
 * that at least: processes that lived and died between two samples. A
 * quarter of a CPU is more than a sampler's rounding; the reaped children
 * tell it from CPU the report cannot see at all (in a container, the
 * host's /proc/stat counts other containers' processes, which no parent
 * here reaps).
 */
#define CHURN_UNSAMPLED_PCT 25.0
#define CHURN_REAPED_SHARE 0.5

/*
 * lock-contention: a process of at least LOCK_MIN_THREADS threads that
 * switched voluntarily LOCK_CSWCH_S times a second or more (summed over
 * its threads) while its threads averaged under LOCK_THREAD_CPU_PCT of one
 * CPU each (they wait, they do not compute), with more than LOCK_FUTEX_SHARE
 * of its threads asleep in a futex wait at the window's end and at least
 * LOCK_SAME_WORD_MIN of them on one futex word (queued behind one lock: a
 * message loop's or a timed wait's thread waits on a word of its own).
 * 8 threads taking turns on a mutex held across 1 ms switch ~1,500 times a
 * second at 0.5% of a CPU each, 7 of 9 threads in futex, all 7 on the
 * mutex's word; this 2-CPU machine's multi-threaded daemons stay under 50
 * a second; a headless Chromium renderer animating at 60 frames a second
 * switched 600 times a second with 7 of 11 threads in futex, each on its
 * own word.
 */
#define LOCK_MIN_THREADS 3
#define LOCK_CSWCH_S 500.0
#define LOCK_THREAD_CPU_PCT 10.0
#define LOCK_FUTEX_SHARE 0.5
#define LOCK_SAME_WORD_MIN 2

/*
 * memory-growth: a process sampled from the window's first task sample to
 * its last whose RSS rose in more than MEM_GROWTH_MOST of the intervals
 * between samples, and in at least MEM_GROWTH_MIN_STEPS (an allocation a
 * sample cuts in two rises in two), by at least
 * MEM_GROWTH_WARN_MIB_S a second over the window (3.5 GiB an hour: a leak
 * that fills a small machine's memory within a working day), and, where
 * its tightest limit is known (its memory cgroup's, else MemAvailable),
 * reaching it at that rate within MEM_GROWTH_WARN_S: a window of seconds
 * cannot tell a slow leak from a compiler's heap still filling, but
 * either one an hour from the limit is the operator's problem. A process
 * that allocates once and stops grew in one interval only. Critical
 * within MEM_GROWTH_CRIT_S: the OOM killer is minutes away.
 */
#define MEM_GROWTH_WARN_MIB_S 1.0
#define MEM_GROWTH_WARN_S 3600.0
#define MEM_GROWTH_MOST 0.5
#define MEM_GROWTH_MIN_STEPS 3
#define MEM_GROWTH_CRIT_S 600.0
/*
 * A rolling window (collect: one task sample an interval) judges memory
 * growth over the last MEM_GROWTH_WINDOWS windows, not the one: a window
 * of one interval has one step, and a leak needs MEM_GROWTH_MIN_STEPS.
 */
#define MEM_GROWTH_WINDOWS 10

/*
 * pid-exhaustion: the host's tasks (/proc/loadavg's count of all threads)
 * against kernel.pid_max or kernel.threads-max, or a pids cgroup's
 * pids.current against its pids.max: warning from PIDS_WARN_PCT, critical
 * at PIDS_CRIT_PCT (fork() and clone() fail with EAGAIN).
 */
#define PIDS_WARN_PCT 90.0
#define PIDS_CRIT_PCT 100.0

/* Collection. */
#define REPORT_TASK_SAMPLE_BUDGET 0.03 /* task samples may use 3% of one CPU */
#define REPORT_KMSG_RECENT_S 300.0     /* kernel log: the window and 5 minutes before it */
#define REPORT_DEFAULT_SECONDS 10.0

/* cpu-bound-user / cpu-bound-kernel: a process using at least this much of one CPU... */
#define CPU_BOUND_PCT 80.0
/* ...with at least this share in user space (else, with this share in the kernel) */
#define CPU_USER_SHARE 0.80
#define CPU_KERNEL_SHARE 0.50
/*
 * ...or a process whose busiest thread was on a CPU or waiting for one at
 * least CPU_DEMAND_PCT of the window (it never sleeps: on a busy machine it
 * gets less than a CPU, but wants one), having got at least CPU_BOUND_MIN_PCT
 */
#define CPU_DEMAND_PCT 90.0
#define CPU_BOUND_MIN_PCT 25.0
/*
 * ...or, on a saturated machine (more runnable tasks than CPUs), this part
 * of the fair share (100% x CPUs / runnable tasks) when that is lower
 */
#define CPU_FAIR_SHARE_FRACTION 0.8
/* a thread at this % of one CPU, or wanting it, is at its ceiling: critical */
#define CPU_THREAD_CEILING_PCT 90.0
/*
 * ...but not when its busiest thread was on a CPU or queued for one less
 * than CPU_BOUND_THREAD_PCT of the window: many threads that each use a
 * little and sleep the rest (on locks, I/O, timers) are not bound by the CPU
 */
#define CPU_BOUND_THREAD_PCT 50.0
/*
 * A process at nice CPU_BY_DESIGN_NICE or more (`nice CMD` gives 10) asked
 * to run only where others leave a CPU idle: at its ceiling it is not
 * critical, and its own run-queue waits are not contention
 */
#define CPU_BY_DESIGN_NICE 10

/* cpu-saturated: every CPU busy and work queued behind them */
#define CPU_SATURATED_BUSY_PCT 90.0   /* all CPUs, average */
#define CPU_SATURATED_QUEUE_RATIO 1.0 /* runnable tasks per CPU, above */
#define PSI_CPU_SOME_WARN_PCT 20.0    /* or: tasks waited for a CPU this share of the time */

/* single-cpu-hot: one CPU busy while the others are not */
#define CPU_HOT_PCT 90.0
#define CPU_COLD_AVG_PCT 50.0 /* the average of the other CPUs, below */

/*
 * cpu-contention: runnable but waiting (run-queue delay) and preempted;
 * the processes that used the CPU meanwhile (at least CONTENTION_HOG_PCT
 * of one) are named as the ones they waited behind
 */
#define CONTENTION_WAIT_PCT 20.0 /* run-queue delay, % of the window (summed over threads) */
#define CONTENTION_NVCSW_S 10.0	 /* involuntary switches per second */
#define CONTENTION_HOG_PCT 25.0

/* cpu-throttled: CFS bandwidth periods that ran out of quota */
#define THROTTLED_PERIODS_PCT 10.0
#define THROTTLED_MIN_PERIODS 5

/* load-uninterruptible */
#define LOAD_D_WARN_TASKS 1 /* D tasks held for the whole window */

/* memory */
#define PSI_MEM_SOME_WARN_PCT 10.0
#define PSI_MEM_SOME_CRIT_PCT 40.0
#define MEM_AVAILABLE_WARN_PCT 10.0 /* MemAvailable below this share of MemTotal */
#define MAJFLT_WARN_S 100.0	    /* major faults per second of one process */
#define SWAP_WARN_PAGES_S 100.0	    /* pages swapped in + out per second */

/*
 * disk-saturated (iostat -x): %util is only busy time (some request in
 * flight), and a device that serves requests in parallel (virtio
 * multi-queue, NVMe) is 100% busy with one request at a time and far from
 * saturated. Saturated: busy DISK_UTIL_WARN_PCT of the window with
 * requests queueing -- on average DISK_QUEUE_WARN or more in the queue and
 * in flight (aqu-sz) and each waiting DISK_AWAIT_WARN_MS or more (await).
 * A lone request in flight is no queue; 5 ms is slow for flash and a
 * seek's worth on a spinning disk, so waiting that long with another
 * request ahead is waiting for the device.
 */
#define DISK_UTIL_WARN_PCT 90.0
#define DISK_QUEUE_WARN 2.0
#define DISK_AWAIT_WARN_MS 5.0

/*
 * io-stall: some task waited on I/O (PSI io "some") PSI_IO_SOME_WARN_PCT of
 * the window while no disk was saturated: the wait is a throttle, a
 * network or FUSE file system, not a busy disk. Critical from
 * PSI_IO_SOME_CRIT_PCT (tasks stalled most of the time). A cgroup's I/O
 * limit counts as reached when the window's rate was IO_LIMIT_NEAR_PCT of
 * it or more.
 */
#define PSI_IO_SOME_WARN_PCT 20.0
#define PSI_IO_SOME_CRIT_PCT 50.0
#define IO_LIMIT_NEAR_PCT 90.0

/* network */
#define NET_DROPS_WARN_S 1.0	 /* drops + errors per second on one interface */
#define NET_DROPS_MIN 5		 /* and at least this many in the window */
#define TCP_RETRANS_WARN_PCT 1.0 /* retransmitted segments, % of segments sent */
#define TCP_RETRANS_MIN 10	 /* and at least this many in the window */
#define TCP_RETRANS_CRIT_PCT 10.0
/* ListenOverflows per second of the window from which tcp-listen-overflows is critical */
#define TCP_LISTEN_OVERFLOW_CRIT_S 1.0
/*
 * UDP datagrams a namespace dropped for a full receive buffer (Udp and Udp6
 * RcvbufErrors), per second of the window: one a second is a receiver
 * that falls behind all along, not a blip; 100 a second loses data fast.
 */
#define UDP_RCVBUF_WARN_S 1.0
#define UDP_RCVBUF_CRIT_S 100.0

/*
 * net-drops of a CPU's backlog (/proc/net/softnet_stat "dropped"): packets
 * the kernel dropped before any socket saw them. As for an interface: one
 * a second all window long, and at least 5, is a CPU that cannot keep up,
 * not one burst.
 */
#define SOFTNET_DROPS_WARN_S 1.0
#define SOFTNET_DROPS_MIN 5

/* conntrack-full: entries against nf_conntrack_max (critical when at it) */
#define CONNTRACK_FULL_PCT 90.0

/* cpu-steal: the hypervisor's share of all CPUs' time */
#define CPU_STEAL_WARN_PCT 10.0
#define CPU_STEAL_CRIT_PCT 30.0

/* irq-saturated: one CPU's time in hardirq + softirq */
#define IRQ_SATURATED_PCT 50.0	    /* "mostly": more than its tasks can get */
#define IRQ_SATURATED_CRIT_PCT 90.0 /* almost nothing left for tasks */

#endif
