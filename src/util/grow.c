#include "util/grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { GROW_MIN = 16 };

int util_grow(void *ptrp, size_t *cap, size_t need, size_t elem_size)
{
	size_t n = *cap ? *cap : GROW_MIN;
	void *old, *p;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (elem_size && n > SIZE_MAX / elem_size)
		return -ENOMEM;
	/* memcpy, not a cast to void **: the pointer may have any object type */
	memcpy(&old, ptrp, sizeof(old));
	p = realloc(old, n * elem_size);
	if (!p)
		return -ENOMEM;
	memcpy(ptrp, &p, sizeof(p));
	*cap = n;
	return 0;
}
