#include "util/dlib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static void *load(struct dlib *lib, bool quiet)
{
	void *h = __atomic_load_n(&lib->handle, __ATOMIC_ACQUIRE);

	if (h)
		return h;
	/* RTLD_NODELETE: two threads racing here get the same handle, kept to exit */
	h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!h) {
		if (quiet)
			return NULL;
		fprintf(stderr,
			"triage: %s needs %s, which is not installed (apt-get install %s)\n",
			lib->what, lib->soname, lib->package);
		exit(EXIT_NOSUPPORT);
	}
	__atomic_store_n(&lib->handle, h, __ATOMIC_RELEASE);
	return h;
}

void *dlib_sym(struct dlib *lib, const char *name)
{
	void *h = load(lib, false);
	void *f = dlsym(h, name);

	if (!f) {
		fprintf(stderr, "triage: %s has no %s (%s too old?)\n", lib->soname, name,
			lib->package);
		exit(EXIT_NOSUPPORT);
	}
	return f;
}

bool dlib_available(struct dlib *lib)
{
	return load(lib, true) != NULL;
}
