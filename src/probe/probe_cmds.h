/* Entry points of the probe subcommands, one per src/cmd/probe_<name>.c. */
#ifndef TRIAGE_PROBE_CMDS_H
#define TRIAGE_PROBE_CMDS_H

int probe_syscalls_main(int argc, char **argv);
int probe_trace_main(int argc, char **argv);
int probe_offcpu_main(int argc, char **argv);
int probe_runq_main(int argc, char **argv);
int probe_profile_main(int argc, char **argv);

#endif
