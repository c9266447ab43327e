/* What the u32 command shells (u32.c, u32_tools.c) share. */
#ifndef TRIAGE_CMD_U32_H
#define TRIAGE_CMD_U32_H

#include "u32/verdict.h"

int u32_cmd_explain(int argc, char **argv);
int u32_cmd_lint(int argc, char **argv);
int u32_cmd_recipe(int argc, char **argv);

/*
 * The kernel-profile options of test and explain: --shift reject|mod32,
 * --string-to end|start. 1: opt was one and val was valid; 0: opt is not
 * one of them; -EINVAL: a bad or missing val.
 */
int u32_profile_option(struct u32_kernel_profile *kp, const char *opt, const char *val);

#endif
