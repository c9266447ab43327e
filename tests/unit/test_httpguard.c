/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The HTTP server's connection deadlines and room (src/collect/httpguard.c)
 * and the web configuration file (src/collect/webconfig.c): bcrypt hashes
 * made by the system's crypt (libxcrypt), files written to a scratch
 * directory.
 */
#define _GNU_SOURCE
#include <crypt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/httpguard.h"
#include "collect/webconfig.h"
#include "unit.h"

/* A trickle of bytes does not move the deadline: only the server's events do. */
TEST(deadlines_run_from_the_phase_start)
{
	struct guard_table t;
	struct guard_conn a = { .fd = 10 }, b = { .fd = 11 };
	double next = 1e9;

	http_guard_init(&t, 8);
	ASSERT_TRUE(!http_guard_add(&t, &a, 100));
	ASSERT_TRUE(!http_guard_add(&t, &b, 100));
	/* a new connection's request line does not restart its deadline */
	http_guard_request_line(&a, 105);
	ASSERT_NEAR(http_guard_deadline(&a), 100 + GUARD_REQUEST_S, 1e-9);
	ASSERT_TRUE(!http_guard_overdue(&t, 100 + GUARD_REQUEST_S - 0.01, &next));
	ASSERT_NEAR(next, 100 + GUARD_REQUEST_S, 1e-9);
	/* b's headers came in time: answering has its own deadline */
	http_guard_headers_done(&b, 104);
	ASSERT_TRUE(http_guard_overdue(&t, 100 + GUARD_REQUEST_S, &next) == &a);
	ASSERT_TRUE(a.kicked);
	ASSERT_TRUE(!http_guard_overdue(&t, 100 + GUARD_REQUEST_S, &next));
	/* kept alive after its response; a later request line restarts the clock */
	http_guard_response_done(&b, 105);
	ASSERT_NEAR(http_guard_deadline(&b), 105 + GUARD_IDLE_S, 1e-9);
	http_guard_request_line(&b, 150);
	ASSERT_NEAR(http_guard_deadline(&b), 150 + GUARD_REQUEST_S, 1e-9);
	ASSERT_TRUE(http_guard_overdue(&t, 150 + GUARD_REQUEST_S, &next) == &b);
	http_guard_remove(&t, &a);
	http_guard_remove(&t, &b);
	ASSERT_TRUE(!t.head && !t.tail);
	ASSERT_UEQ(t.live, 0);
}

/* A full table pushes out the longest-waiting connection, never one being answered. */
TEST(full_table_pushes_out_the_longest_waiting)
{
	struct guard_table t;
	struct guard_conn c[4] = { { .fd = 1 }, { .fd = 2 }, { .fd = 3 }, { .fd = 4 } };

	http_guard_init(&t, 3);
	http_guard_add(&t, &c[0], 10);
	http_guard_add(&t, &c[1], 11);
	http_guard_add(&t, &c[2], 12);
	http_guard_headers_done(&c[0], 13); /* being answered: stays */
	ASSERT_TRUE(http_guard_add(&t, &c[3], 14) == &c[1]);
	ASSERT_TRUE(c[1].kicked && !c[0].kicked);
	ASSERT_UEQ(t.live, 3);
	/* the kicked one leaves when the server closes it; the count holds */
	http_guard_remove(&t, &c[1]);
	ASSERT_UEQ(t.live, 3);
	http_guard_remove(&t, &c[0]);
	ASSERT_UEQ(t.live, 2);
	http_guard_remove(&t, &c[2]);
	http_guard_remove(&t, &c[3]);
	ASSERT_UEQ(t.live, 0);
}

static char dir[] = "/tmp/test_webconfig.XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static int load_text(const char *text, struct web_config *wc, char *why, size_t size)
{
	return http_config_load(write_file("web.yml", text), wc, why, size);
}

/* A bcrypt hash from the system's crypt, cost 4 (the smallest: a fast test). */
static char *bcrypt_of(const char *password)
{
	char salt[64];
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	char *out;

	if (!cd || !crypt_gensalt_rn("$2b$", 4, NULL, 0, salt, sizeof(salt)))
		return free(cd), NULL;
	out = strdup(crypt_r(password, salt, cd));
	free(cd);
	return out;
}

TEST(web_config_users)
{
	struct web_config wc;
	char why[512], text[512];
	char *h1 = bcrypt_of("right"), *h2 = bcrypt_of("other");

	ASSERT_TRUE(h1 && h2 && !strncmp(h1, "$2b$04$", 7));
	snprintf(text, sizeof(text),
		 "# comment\nbasic_auth_users:\n  prom: '%s'\n  \"graf ana\": %s\n", h1, h2);
	ASSERT_EQ(load_text(text, &wc, why, sizeof(why)), 0);
	ASSERT_UEQ(wc.nusers, 2);
	ASSERT_TRUE(!wc.cert_pem);
	ASSERT_EQ(http_config_check(&wc, "prom", "right", 100), 0);
	ASSERT_EQ(http_config_check(&wc, "prom", "right", 100), 0); /* cached */
	ASSERT_EQ(http_config_check(&wc, "prom", "righ", 100), -EACCES);
	ASSERT_EQ(http_config_check(&wc, "prom", "other", 100), -EACCES);
	ASSERT_EQ(http_config_check(&wc, "graf ana", "other", 100), 0);
	ASSERT_EQ(http_config_check(&wc, "nobody", "right", 100), -EACCES);
	http_config_release(&wc);
	/* a flood of wrong passwords: the burst is checked, then 4 a second;
	 * a password already in the cache passes all along */
	ASSERT_EQ(load_text(text, &wc, why, sizeof(why)), 0);
	ASSERT_EQ(http_config_check(&wc, "prom", "right", 200), 0);
	{
		int i, refused = 0, again = 0;

		for (i = 0; i < 20; i++) {
			int rc = http_config_check(&wc, "prom", "guess", 200);

			refused += rc == -EACCES;
			again += rc == -EAGAIN;
		}
		ASSERT_EQ(refused, (int)WEB_CHECKS_BURST - 1);
		ASSERT_EQ(again, 20 - ((int)WEB_CHECKS_BURST - 1));
	}
	ASSERT_EQ(http_config_check(&wc, "prom", "right", 200), 0);
	ASSERT_EQ(http_config_check(&wc, "graf ana", "other", 200), -EAGAIN);
	ASSERT_EQ(http_config_check(&wc, "graf ana", "other", 200.25), 0);
	http_config_release(&wc);
	/* empty: plain HTTP, no users, everyone let in by the server */
	ASSERT_EQ(load_text("", &wc, why, sizeof(why)), 0);
	ASSERT_UEQ(wc.nusers, 0);
	http_config_release(&wc);
	free(h1);
	free(h2);
}

/* Each bad file: -EINVAL (or the read's errno) and one line naming the file and the key. */
TEST(web_config_refusals)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "http_server_config:\n  http2: false\n", "unknown key 'http_server_config'" },
		{ "tls_server_config:\n  cert_file: c.pem\n  key_file: k.pem\n  client_ca_file: "
		  "ca\n",
		  "unknown key 'tls_server_config.client_ca_file'" },
		{ "tls_server_config:\n  cert_file: c.pem\n",
		  "tls_server_config.key_file: missing" },
		{ "tls_server_config:\n  cert_file: c.pem\n  key_file: nope.pem\n",
		  "tls_server_config.cert_file: " },
		{ "basic_auth_users:\n  prom: secret\n",
		  "basic_auth_users.prom: wants a bcrypt hash" },
		{ "basic_auth_users:\n  prom: $2b$04$short\n",
		  "basic_auth_users.prom: wants a bcrypt" },
		{ "basic_auth_users: [a, b]\n", "basic_auth_users: wants a mapping" },
		{ "basic_auth_users: {a: 1\n", "line " },
		{ "- a\n- b\n", "the document: wants a mapping" },
		{ "basic_auth_users: {}\nbasic_auth_users: {}\n", "basic_auth_users: given twice" },
	};
	struct web_config wc;
	char why[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = load_text(bad[i].text, &wc, why, sizeof(why));

		ASSERT_TRUE(rc < 0);
		ASSERT_TRUE(!strncmp(why, dir, strlen(dir)));
		if (!strstr(why, bad[i].says))
			fprintf(stderr, "case %zu said: %s\n", i, why);
		ASSERT_TRUE(strstr(why, bad[i].says) != NULL);
		ASSERT_TRUE(!strchr(why, '\n'));
	}
	ASSERT_EQ(http_config_load("/nonexistent/web.yml", &wc, why, sizeof(why)), -ENOENT);
}

int main(void)
{
	struct unit_state st = { 0 };

	if (!mkdtemp(dir))
		return 1;
	RUN(&st, deadlines_run_from_the_phase_start);
	RUN(&st, full_table_pushes_out_the_longest_waiting);
	RUN(&st, web_config_users);
	RUN(&st, web_config_refusals);
	unlink(write_file("web.yml", ""));
	rmdir(dir);
	UNIT_MAIN_END(&st);
}
