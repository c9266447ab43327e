/*
 * Constant tables hold their strings in place (char name[N]), not behind
 * pointers: in the position-independent binary every pointer in a table
 * is a relocation the dynamic loader writes at every start of every
 * command, copying the page it sits in (a page fault, 20-50 us on the VMs
 * we measure on; issue 24, docs/performance.md). Between these two marks a
 * string that would lose its NUL in its field is a compile error (C lets
 * "abcd" fill char[4] silently; -Wc++-compat says so).
 */
#ifndef TRIAGE_UTIL_INPLACE_H
#define TRIAGE_UTIL_INPLACE_H

#define STRINGS_IN_PLACE \
	_Pragma("GCC diagnostic push") _Pragma("GCC diagnostic error \"-Wc++-compat\"")
#define STRINGS_IN_PLACE_END _Pragma("GCC diagnostic pop")

#endif
