/*
 * Log2 histograms as the BPF side fills them: slot 0 counts values 0 and 1,
 * slot i >= 1 counts [2^i, 2^(i+1)). Pure functions: the printer writes the
 * classic "lo -> hi : count |****|" table, the JSON renderer an array of
 * {"lo","hi","count"} for the non-empty range.
 */
#ifndef TRIAGE_PROBE_HIST_H
#define TRIAGE_PROBE_HIST_H

#include <stdint.h>
#include <stdio.h>

#include "util/json.h"

#define HIST_MAX_SLOTS 64

/* The slot a value falls in (what the BPF side computes). */
unsigned hist_slot(uint64_t v);
/* The inclusive value range of slot i. */
void hist_slot_range(unsigned i, uint64_t *lo, uint64_t *hi);
/* Sum of all slots. */
uint64_t hist_total(const uint64_t *slots, unsigned n);
/*
 * Prints slots[0..n) from the first to the last non-empty slot, with a
 * header naming unit (e.g. "usecs"); prints nothing when all are empty.
 */
void hist_print(FILE *out, const uint64_t *slots, unsigned n, const char *unit);
/* Writes the same range as a JSON array of {"lo","hi","count"}. */
void hist_json(struct json_writer *w, const uint64_t *slots, unsigned n);

#endif
