/*
 * The libraries behind collect's --web.config.file, at first use
 * (src/util/dlib.h): libyaml reads the file, GnuTLS checks the certificate
 * and key and hashes the password cache, libcrypt checks bcrypt. Only a
 * collector with a web configuration maps them; every other command, and a
 * collector without one, never does.
 */
#include <crypt.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <yaml.h>

#include "util/dlib.h"

static struct dlib yaml_lib = {
	.soname = "libyaml-0.so.2",
	.package = "libyaml-0-2",
	.what = "reading --web.config.file (collect)",
};

static struct dlib gnutls_lib = {
	.soname = "libgnutls.so.30",
	.package = "libgnutls30",
	.what = "TLS in --web.config.file (collect)",
};

static struct dlib crypt_lib = {
	.soname = "libcrypt.so.1",
	.package = "libcrypt1",
	.what = "checking bcrypt passwords of --web.config.file (collect)",
};

DLIB_SHIM(yaml_lib, int, yaml_parser_initialize, (yaml_parser_t * p), (p))
DLIB_SHIM(yaml_lib, void, yaml_parser_delete, (yaml_parser_t * p), (p))
DLIB_SHIM(yaml_lib, void, yaml_parser_set_input_string,
	  (yaml_parser_t * p, const unsigned char *input, size_t size), (p, input, size))
DLIB_SHIM(yaml_lib, int, yaml_parser_load, (yaml_parser_t * p, yaml_document_t *d), (p, d))
DLIB_SHIM(yaml_lib, void, yaml_document_delete, (yaml_document_t * d), (d))
DLIB_SHIM(yaml_lib, yaml_node_t *, yaml_document_get_node, (yaml_document_t * d, int index),
	  (d, index))
DLIB_SHIM(yaml_lib, yaml_node_t *, yaml_document_get_root_node, (yaml_document_t * d), (d))

DLIB_SHIM(gnutls_lib, int, gnutls_certificate_allocate_credentials,
	  (gnutls_certificate_credentials_t * sc), (sc))
DLIB_SHIM(gnutls_lib, void, gnutls_certificate_free_credentials,
	  (gnutls_certificate_credentials_t sc), (sc))
DLIB_SHIM(gnutls_lib, int, gnutls_certificate_set_x509_key_mem2,
	  (gnutls_certificate_credentials_t res, const gnutls_datum_t *cert,
	   const gnutls_datum_t *key, gnutls_x509_crt_fmt_t type, const char *pass,
	   unsigned int flags),
	  (res, cert, key, type, pass, flags))
DLIB_SHIM(gnutls_lib, int, gnutls_hash_fast,
	  (gnutls_digest_algorithm_t algorithm, const void *text, size_t textlen, void *digest),
	  (algorithm, text, textlen, digest))
DLIB_SHIM(gnutls_lib, const char *, gnutls_strerror, (int error), (error))

DLIB_SHIM(crypt_lib, char *, crypt_r,
	  (const char *phrase, const char *setting, struct crypt_data *restrict data),
	  (phrase, setting, data))
