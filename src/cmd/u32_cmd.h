/* The u32 subcommands of u32_tools.c, dispatched from u32.c. */
#ifndef TRIAGE_CMD_U32_H
#define TRIAGE_CMD_U32_H

int u32_cmd_explain(int argc, char **argv);
int u32_cmd_lint(int argc, char **argv);
int u32_cmd_recipe(int argc, char **argv);
int u32_cmd_translate(int argc, char **argv);

#endif
