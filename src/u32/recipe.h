/* Rules generated for TLS ClientHellos and DNS queries, and their DNS encoding. */
#ifndef TRIAGE_U32_RECIPE_H
#define TRIAGE_U32_RECIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int u32_recipe_tls(const char *sni, char *buf, size_t len, char *err, size_t errlen);
int u32_recipe_dns(const char *domain, const char *type, bool v6, char *buf, size_t len, char *err,
		   size_t errlen);
int u32_recipe_tls_at(const char *sni, bool doff5, char *buf, size_t len, char *err, size_t errlen);
int u32_recipe_dns_at(const char *domain, const char *type, bool v6, bool anchored, char *buf,
		      size_t len, char *err, size_t errlen);
int u32_dns_encode_name(const char *domain, uint8_t *out, size_t outlen, char *err, size_t errlen);
int u32_dns_type_code(const char *type);

#endif
