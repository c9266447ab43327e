/*
 * The -m u32 expression: iptables 1.8.9's libxt_u32 parser and print form,
 * and xt_u32's evaluation as Linux 6.18 runs it.
 */
#ifndef TRIAGE_U32_EVAL_H
#define TRIAGE_U32_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "u32/verdict.h"
#include "u32/view.h"

#define U32_MAX_TESTS 10  /* userspace limit (kernel struct has 11) */
#define U32_MAX_NUMS 10	  /* numbers per location */
#define U32_MAX_RANGES 10 /* ranges per value set */

enum u32_op { U32_OP_AND, U32_OP_SHL, U32_OP_SHR, U32_OP_AT };

struct u32_test {
	uint32_t num[U32_MAX_NUMS];
	uint8_t op[U32_MAX_NUMS]; /* op[k] joins num[k-1] and num[k]; op[0] unused */
	unsigned nnums;
	uint32_t min[U32_MAX_RANGES], max[U32_MAX_RANGES];
	unsigned nranges;
};

struct u32_expr {
	struct u32_test test[U32_MAX_TESTS];
	unsigned ntests;
};

/*
 * Parses a --u32 argument exactly as iptables 1.8.9's libxt_u32 does.
 * On error returns -EINVAL and writes iptables' message (without the
 * "iptables v1.8.9 (nf_tables): " prefix) into err.
 */
int u32_parse(const char *arg, struct u32_expr *e, char *err, size_t errlen);
/* Kernel checkentry: -EINVAL with a reason for rules the kernel refuses. */
int u32_check_kernel(const struct u32_expr *e, const struct u32_kernel_profile *kp, char *err,
		     size_t errlen);
/* The iptables -S form: 0x.. numbers, no blanks. */
void u32_format(const struct u32_expr *e, char *buf, size_t len);

/* One step of a traced u32 evaluation (for explain). */
struct u32_step {
	unsigned test, index; /* test and number index */
	uint8_t op;	      /* operator applied (index > 0) */
	uint32_t operand, before, after;
	uint32_t readpos; /* for reads: absolute offset read */
	bool read, fail_oob, indet;
};

struct u32_trace {
	struct u32_step step[U32_MAX_TESTS * U32_MAX_NUMS + 4];
	unsigned nsteps;
	int failed_test; /* -1: all passed */
	bool oob;
};

/* Evaluates without the '!' inversion. trace may be NULL. */
enum u32_verdict u32_eval(const struct u32_expr *e, const struct u32_kernel_profile *kp,
			  const struct u32_view *v, struct u32_trace *trace);

#endif
