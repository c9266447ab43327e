/* What a u32 expression reads, in words, and its replay on one packet. */
#ifndef TRIAGE_U32_EXPLAIN_H
#define TRIAGE_U32_EXPLAIN_H

#include "u32/eval.h"
#include "u32/verdict.h"
#include "u32/view.h"

struct u32_text_sink {
	void (*line)(void *ctx, const char *text);
	void *ctx;
};

void u32_explain(const struct u32_expr *e, const struct u32_text_sink *out);
void u32_explain_packet(const struct u32_expr *e, const struct u32_kernel_profile *kp,
			const struct u32_view *v, const struct u32_text_sink *out);

#endif
