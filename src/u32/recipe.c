/*
 * Recipes: complete iptables command lines for a TLS ClientHello and for a
 * DNS query of one name and type, built from the verified idioms of the
 * spec (sections 3 and 6).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common.h"
#include "u32/internal.h"
#include "u32/recipe.h"
#include "u32/strmatch.h"

static bool label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

/* Wire form of a name: length-prefixed labels and the 00 root label. */
int u32_dns_encode_name(const char *domain, uint8_t *out, size_t outlen, char *err, size_t errlen)
{
	size_t n = 0, len = strlen(domain);
	const char *p = domain;

	if (len && domain[len - 1] == '.')
		len--;
	if (len == 0)
		return u32_errorf(err, errlen, "empty domain name");
	while (p < domain + len) {
		const char *dot = memchr(p, '.', (size_t)(domain + len - p));
		size_t l = dot ? (size_t)(dot - p) : (size_t)(domain + len - p);
		if (l == 0 || l > 63)
			return u32_errorf(err, errlen, "bad label in \"%s\" (1-63 characters each)",
					  domain);
		for (size_t k = 0; k < l; k++)
			if (!label_char(p[k]))
				return u32_errorf(err, errlen,
						  "unsupported character '%c' in \"%s\"", p[k],
						  domain);
		if (n + 1 + l + 1 > outlen || n + 1 + l + 1 > 255)
			return u32_errorf(err, errlen,
					  "name too long (at most 255 bytes on the wire)");
		out[n++] = (uint8_t)l;
		memcpy(out + n, p, l);
		n += l;
		p += l + (dot ? 1 : 0);
	}
	out[n++] = 0;
	return (int)n;
}

int u32_dns_type_code(const char *type)
{
	static const struct {
		const char *name;
		int code;
	} types[] = { { "A", 1 },	{ "NS", 2 },	{ "CNAME", 5 },	 { "SOA", 6 },
		      { "PTR", 12 },	{ "MX", 15 },	{ "TXT", 16 },	 { "RP", 17 },
		      { "AAAA", 28 },	{ "SRV", 33 },	{ "NAPTR", 35 }, { "DS", 43 },
		      { "DNSKEY", 48 }, { "SVCB", 64 }, { "HTTPS", 65 }, { "ANY", 255 },
		      { "CAA", 257 } };
	char *end;

	for (size_t k = 0; k < ARRAY_SIZE(types); k++)
		if (strcasecmp(type, types[k].name) == 0)
			return types[k].code;
	if (strncasecmp(type, "TYPE", 4) == 0)
		type += 4;
	long v = strtol(type, &end, 10);
	if (*type == '\0' || *end || v < 1 || v > 65535)
		return -EINVAL;
	return (int)v;
}

/* --hex-string text: labels as literal text, lengths and the rest in hex. */
static void hex_pattern(const uint8_t *name, int n, int qtype, char *out, size_t len)
{
	size_t at = 0;
	int k = 0;

	while (k < n && name[k] != 0 && at + 80 < len) {
		unsigned l = name[k];
		at += (size_t)snprintf(out + at, len - at, "|%02x|%.*s", l, (int)l,
				       (const char *)name + k + 1);
		k += 1 + (int)l;
	}
	snprintf(out + at, len - at, "|00 %04x|", (unsigned)qtype);
}

int u32_recipe_dns(const char *domain, const char *type, bool v6, char *buf, size_t len, char *err,
		   size_t errlen)
{
	return u32_recipe_dns_at(domain, type, v6, false, buf, len, err, errlen);
}

/*
 * anchored: the name only where the question starts (IPv4 header without
 * options, or IPv6 with UDP right after the fixed header), --to pinned to
 * the pattern's end: a fixed-offset comparison, which nftables has.
 */
int u32_recipe_dns_at(const char *domain, const char *type, bool v6, bool anchored, char *buf,
		      size_t len, char *err, size_t errlen)
{
	char to[32] = "";
	uint8_t name[256];
	char pat[1024];
	int n = u32_dns_encode_name(domain, name, sizeof(name), err, errlen);
	int qtype = u32_dns_type_code(type ? type : "A");

	if (n < 0)
		return n;
	if (qtype < 0)
		return u32_errorf(err, errlen, "unknown query type \"%s\"", type);
	if (n + 2 > U32_STR_MAX_PATTERN)
		return u32_errorf(err, errlen, "name too long for one string pattern (%d bytes)",
				  n);
	hex_pattern(name, n, qtype, pat, sizeof(pat));
	if (anchored)
		snprintf(to, sizeof(to), " --to %d", (v6 ? 60 : 40) + n + 2);
	if (v6)
		snprintf(buf, len,
			 "ip6tables -I INPUT -p udp --dport 53 -m u32 --u32 \"3&0xFF=17 && "
			 "48>>15&1=0 && %d&0xFFFF=0x%x\" -m string --algo kmp --icase --from 60%s "
			 "--hex-string '%s'",
			 40 + 8 + 12 + n - 2, (unsigned)qtype, to, pat);
	else
		snprintf(buf, len,
			 "iptables -I INPUT -p udp --dport 53 -m u32 --u32 \"%s4&0x1FFF=0 && "
			 "0>>22&0x3C@8>>15&1=0 && 0>>22&0x3C@%d&0xFFFF=0x%x\" -m string --algo kmp "
			 "--icase --from 40%s --hex-string '%s'",
			 anchored ? "0>>24=0x45 && " : "", 8 + 12 + n - 2, (unsigned)qtype, to,
			 pat);
	return 0;
}

int u32_recipe_tls(const char *sni, char *buf, size_t len, char *err, size_t errlen)
{
	return u32_recipe_tls_at(sni, false, buf, len, err, errlen);
}

/*
 * doff5: also require a TCP data offset of at least 5, which every real
 * segment has; nftables' inner header (@ih) needs the 20-byte header that
 * implies, so the rule then has an exact nftables form.
 */
int u32_recipe_tls_at(const char *sni, bool doff5, char *buf, size_t len, char *err, size_t errlen)
{
	int at = snprintf(buf, len,
			  "iptables -I FORWARD -p tcp --dport 443 -m u32 --u32 \"6&0xFF=6 && "
			  "4&0x1FFF=0 && %s0>>22&0x3C@12>>26&0x3C@0>>16=0x1603 && "
			  "0>>22&0x3C@12>>26&0x3C@2&0xFF=0x01\"",
			  doff5 ? "0>>22&0x3C@12>>28=5:15 && " : "");
	size_t l;

	if (!sni)
		return 0;
	l = strlen(sni);
	if (l == 0 || l > U32_STR_MAX_PATTERN - 3)
		return u32_errorf(err, errlen, "SNI name must have 1-%d characters",
				  U32_STR_MAX_PATTERN - 3);
	for (size_t k = 0; k < l; k++)
		if (!label_char(sni[k]) && sni[k] != '.')
			return u32_errorf(err, errlen, "unsupported character '%c' in the SNI name",
					  sni[k]);
	/* server_name entry: name_type 0 (host_name), 16-bit length, the name */
	snprintf(buf + at, len - (size_t)at,
		 " -m string --algo kmp --icase --hex-string '|00 %02x %02x|%s'",
		 (unsigned)(l >> 8), (unsigned)(l & 0xFF), sni);
	return 0;
}
