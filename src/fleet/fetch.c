/* HTTP GET through libcurl, loaded at first use (src/util/dl_curl.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "fleet/fleet.h"

/* An answer larger than this is refused: 1,000 hosts' findings are a few MB. */
#define FLEET_MAX_BODY (512UL << 20)

struct body {
	char *p;
	size_t n, cap;
	bool too_big;
};

static size_t on_data(char *data, size_t size, size_t nmemb, void *ctx)
{
	struct body *b = ctx;
	size_t add = size * nmemb;

	if (b->n + add + 1 > FLEET_MAX_BODY) {
		b->too_big = true;
		return 0; /* curl ends the transfer with CURLE_WRITE_ERROR */
	}
	if (b->n + add + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		char *p;

		while (cap < b->n + add + 1)
			cap *= 2;
		if (!(p = realloc(b->p, cap)))
			return 0;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, data, add);
	b->n += add;
	b->p[b->n] = '\0';
	return add;
}

int fleet_http_get(const char *url, double timeout, char **body, size_t *len, long *status,
		   char *err, size_t errsize)
{
	char curl_err[CURL_ERROR_SIZE] = "";
	struct body b = { 0 };
	CURL *c = curl_easy_init();
	CURLcode rc;

	if (!c) {
		snprintf(err, errsize, "libcurl could not start a transfer");
		return -ENOMEM;
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_err);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(timeout > 0 ? timeout * 1000 : 30000));
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, ""); /* gzip: Prometheus' answers shrink 10x */
	curl_easy_setopt(c, CURLOPT_USERAGENT, "triage-fleet");
	/* http and https only: a URL's scheme is the user's, not a way to read files */
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	rc = curl_easy_perform(c);
	if (rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	curl_easy_cleanup(c);
	if (rc != CURLE_OK) {
		snprintf(err, errsize, "%s",
			 b.too_big     ? "the answer is over 512 MB"
			 : curl_err[0] ? curl_err
				       : curl_easy_strerror(rc));
		free(b.p);
		return b.too_big ? -EFBIG : -EIO;
	}
	if (!b.p && !(b.p = calloc(1, 1))) {
		snprintf(err, errsize, "out of memory");
		return -ENOMEM;
	}
	*body = b.p;
	*len = b.n;
	return 0;
}
