/* The messages of refused rules, rendered from their ids. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "u32/rule_error.h"
#include "util/inplace.h"

int u32_rule_fail(struct u32_rule_error *e, enum u32_rule_error_id id, const char *ext,
		  const char *what)
{
	e->id = id;
	e->ext = ext;
	snprintf(e->what, sizeof(e->what), "%s", what ? what : "");
	return id == U32_RULE_NOMEM ? -ENOMEM : -EINVAL;
}

/*
 * Messages that name one word (or none): text before the word, text after
 * it ("": no word). In place, not pointers, which the loader of the
 * position-independent binary would write at every start (issue 24); a
 * message that would lose its NUL is an error.
 */
STRINGS_IN_PLACE
static const char MESSAGES[][2][96] = {
	[U32_RULE_NOMEM] = { "out of memory", "" },
	[U32_RULE_NEEDS_ARGUMENT] = { "option \"", "\" requires an argument" },
	[U32_RULE_MULTIPLE_FLAGS] = { "multiple ", " flags not allowed" },
	[U32_RULE_TCP_PORT_REPEATED] = { "Only one `", "' allowed" },
	[U32_RULE_UNKNOWN_OPTION] = { "unknown option \"", "\"" },
	[U32_RULE_UNKNOWN_MATCH] = { "Couldn't load match `", "':No such file or directory" },
	[U32_RULE_DOUBLE_INVERT] = { "multiple consecutive ! not allowed", "" },
	[U32_RULE_DANGLING_INVERT] = { "nothing appropriate following !", "" },
	[U32_RULE_U32_MISSING] = { "u32: option \"--u32\" must be specified", "" },
	[U32_RULE_ALGO_MISSING] = { "string: option \"--algo\" must be specified", "" },
	[U32_RULE_PATTERN_MISSING] = { "STRING match: You must specify `--string' or "
				       "`--hex-string'",
				       "" },
	[U32_RULE_BOTH_PATTERNS] = { "string: option \"--string\" cannot be used together "
				     "with \"--hex-string\".",
				     "" },
	[U32_RULE_BAD_WINDOW] = { "string: bad value for option \"",
				  "\", or out of range (0-65535)." },
	[U32_RULE_STRING_TOO_LONG] = { "STRING too long \"", "\"" },
	[U32_RULE_BAD_PORT] = { "Port \"", "\" does not resolve to anything." },
	[U32_RULE_BAD_PROTOCOL] = { "unknown protocol \"", "\" specified" },
	[U32_RULE_KERNEL_EMPTY] = { "the kernel refuses this rule at load (Invalid argument): "
				    "empty pattern",
				    "" },
	[U32_RULE_KERNEL_FROM_AFTER_TO] = { "the kernel refuses this rule at load (Invalid "
					    "argument): --from is after --to",
					    "" },
	[U32_RULE_UNMODELLED_MATCH] = { "match \"", "\" is not modelled (triage u32 knows u32, "
						    "string, comment and -p tcp/udp ports)" },
	[U32_RULE_TOO_MANY_MATCHES] = { "too many matches (at most ", ")" },
	[U32_RULE_NO_MATCH] = { "no match given (expected -m u32 or -m string)", "" },
	[U32_RULE_LINE_NAME] = { "a rule line starts with a name (at most ", " characters)" },
	[U32_RULE_NAME_TAKEN] = { "rule name \"", "\" used twice" },
};
STRINGS_IN_PLACE_END

void u32_rule_error_render(const struct u32_rule_error *e, char *buf, size_t len)
{
	switch (e->id) {
	case U32_RULE_OK:
		snprintf(buf, len, "ok");
		return;
	case U32_RULE_REPEATED:
		snprintf(buf, len, "%s: option \"%s\" can only be used once.", e->ext, e->what);
		return;
	case U32_RULE_NOT_INVERTIBLE:
		snprintf(buf, len, "%s: option \"%s\" cannot be inverted.", e->ext, e->what);
		return;
	case U32_RULE_KERNEL_ALGO:
		/* textsearch_prepare(): fsm exists but refuses the flags, others do not exist */
		snprintf(buf, len, "the kernel refuses this rule at load (%s): algorithm \"%s\"",
			 strcmp(e->what, "fsm") ? "No such file or directory" : "Invalid argument",
			 e->what);
		return;
	case U32_RULE_BAD_EXPR:
	case U32_RULE_BAD_HEX:
	case U32_RULE_KERNEL_EXPR:
	case U32_RULE_WORDS:
		snprintf(buf, len, "%s", e->detail);
		return;
	default:
		break;
	}
	if ((size_t)e->id < ARRAY_SIZE(MESSAGES) && MESSAGES[e->id][0][0]) {
		const char(*m)[96] = MESSAGES[e->id];
		snprintf(buf, len, "%s%s%s", m[0], m[1][0] ? e->what : "", m[1]);
		return;
	}
	snprintf(buf, len, "rule refused (error %d)", (int)e->id);
}
