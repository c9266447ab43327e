/* Helpers shared by the parsers of src/u32/ (not part of the u32 interface). */
#ifndef TRIAGE_U32_INTERNAL_H
#define TRIAGE_U32_INTERNAL_H

#include <stddef.h>

#include "common.h"

/* Writes a message into err and returns -EINVAL: "return u32_errorf(...)". */
int u32_errorf(char *err, size_t errlen, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* The value of a hexadecimal digit, -1 for any other character. */
int u32_hex_digit(char c);

#endif
