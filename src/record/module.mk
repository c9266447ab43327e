# SQLite: loaded at first use (src/util/dl_sqlite.c), not linked
