/* placeholder, replaced below */
#include <errno.h>
#include <stdint.h>

#include "record/internal.h"
#include "record/record.h"

int record_findings(struct sqlite3 *db, int64_t from, int64_t to)
{
	(void)db;
	(void)from;
	(void)to;
	return 0;
}

int record_report_data(struct sqlite3 *db, const struct record_window *w, size_t a, size_t b,
		       struct report_data *d)
{
	return -ENOSYS;
}

int record_load_snapshot(struct sqlite3 *db, const struct record_window *w, size_t k,
			 struct load_snapshot *s)
{
	return -ENOSYS;
}
