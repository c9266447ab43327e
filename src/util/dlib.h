/*
 * Libraries loaded at first use (dlopen), so a command loads only what it
 * uses: `triage version`, pidstat, load and report never map libmicrohttpd
 * (and its GnuTLS, nettle, gmp, p11-kit) nor libpcap (and its D-Bus,
 * libsystemd, gcrypt). The shims in src/util/dl_*.c define the functions
 * triage calls under their own names, so the callers (collect/http.c,
 * u32/capture.c) include the library's header and call it as if linked.
 *
 * To add a function: one DLIB_SHIM line in the library's shim file (its
 * declaration comes from the library's header, so a wrong signature does
 * not compile). A library that is not installed ends the process with one
 * line on stderr and exit status 3 (EXIT_NOSUPPORT), as a missing feature
 * does: the one place outside the command layer that exits, because a
 * caller inside the library's API has no way to fail "library missing".
 */
#ifndef TRIAGE_UTIL_DLIB_H
#define TRIAGE_UTIL_DLIB_H

#include <stdbool.h>

struct dlib {
	const char *soname;  /* e.g. "libpcap.so.0.8" */
	const char *package; /* the Debian package that has it, for the message */
	const char *what;    /* what needs it, e.g. "triage u32 (pcap captures)" */
	void *handle;	     /* set once, at first use (atomic) */
};

/* The address of name in lib, loading lib at first use; exits 3 if either is missing. */
void *dlib_sym(struct dlib *lib, const char *name);
/* Whether lib is loadable (loads it if so); no exit. */
bool dlib_available(struct dlib *lib);

/*
 * Defines ret name(params) forwarding to lib's name(args) through a pointer
 * resolved at first use. The pointer's type is taken from the header's
 * declaration of name.
 */
#define DLIB_SHIM(lib, ret, name, params, args)                                                \
	ret name params                                                                        \
	{                                                                                      \
		static __typeof__(&name) dlib_cached_;                                         \
		__typeof__(&name) dlib_fn_ = __atomic_load_n(&dlib_cached_, __ATOMIC_ACQUIRE); \
                                                                                               \
		if (!dlib_fn_) {                                                               \
			dlib_fn_ = (__typeof__(&name))dlib_sym(&lib, #name);                   \
			__atomic_store_n(&dlib_cached_, dlib_fn_, __ATOMIC_RELEASE);           \
		}                                                                              \
		return dlib_fn_ args;                                                          \
	}

#endif
