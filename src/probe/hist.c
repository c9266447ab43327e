#include "probe/hist.h"

#define HIST_BAR_WIDTH 40

unsigned hist_slot(uint64_t v)
{
	unsigned s = 0;

	while (v > 1) {
		v >>= 1;
		s++;
	}
	return s;
}

void hist_slot_range(unsigned i, uint64_t *lo, uint64_t *hi)
{
	if (i == 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	*lo = (uint64_t)1 << i;
	*hi = i >= 63 ? UINT64_MAX : ((uint64_t)1 << (i + 1)) - 1;
}

uint64_t hist_total(const uint64_t *slots, unsigned n)
{
	uint64_t t = 0;

	for (unsigned i = 0; i < n; i++)
		t += slots[i];
	return t;
}

/* [*first, *last] is the non-empty range; returns 0 when every slot is empty. */
static int used_range(const uint64_t *slots, unsigned n, unsigned *first, unsigned *last)
{
	unsigned i;

	for (i = 0; i < n && !slots[i]; i++)
		;
	if (i == n)
		return 0;
	*first = i;
	for (i = n; !slots[i - 1]; i--)
		;
	*last = i - 1;
	return 1;
}

static void print_bar(FILE *out, uint64_t v, uint64_t max)
{
	unsigned stars = max ? (unsigned)((v * HIST_BAR_WIDTH + max - 1) / max) : 0;

	fputc('|', out);
	for (unsigned i = 0; i < HIST_BAR_WIDTH; i++)
		fputc(i < stars ? '*' : ' ', out);
	fputc('|', out);
}

void hist_print(FILE *out, const uint64_t *slots, unsigned n, const char *unit)
{
	unsigned first, last;
	uint64_t max = 0, lo, hi;

	if (!used_range(slots, n, &first, &last))
		return;
	for (unsigned i = first; i <= last; i++)
		if (slots[i] > max)
			max = slots[i];
	fprintf(out, "%24s : %-10s distribution\n", unit, "count");
	for (unsigned i = first; i <= last; i++) {
		hist_slot_range(i, &lo, &hi);
		fprintf(out, "%10llu -> %-10llu : %-10llu ", (unsigned long long)lo,
			(unsigned long long)hi, (unsigned long long)slots[i]);
		print_bar(out, slots[i], max);
		fputc('\n', out);
	}
}

void hist_json(struct json_writer *w, const uint64_t *slots, unsigned n)
{
	unsigned first, last;
	uint64_t lo, hi;

	json_array_begin(w);
	if (used_range(slots, n, &first, &last)) {
		for (unsigned i = first; i <= last; i++) {
			hist_slot_range(i, &lo, &hi);
			json_object_begin(w);
			json_kv_uint(w, "lo", lo);
			json_kv_uint(w, "hi", hi);
			json_kv_uint(w, "count", slots[i]);
			json_end(w);
		}
	}
	json_end(w);
}
