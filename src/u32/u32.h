/*
 * Offline model of iptables' -m u32 and -m string matches (xt_u32,
 * xt_string, lib/ts_bm.c, lib/ts_kmp.c) as Linux 6.18 runs them, plus the
 * few basic matches (-p, --sport/--dport, -f) that rules around them need.
 * Everything here is pure: no I/O, no exits; errors come back as text in a
 * caller-supplied buffer together with -errno.
 */
#ifndef TRIAGE_U32_H
#define TRIAGE_U32_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define U32_MAX_TESTS 10  /* userspace limit (kernel struct has 11) */
#define U32_MAX_NUMS 10	  /* numbers per location */
#define U32_MAX_RANGES 10 /* ranges per value set */
#define U32_ERR_LEN 320
#define STR_MAX_PATTERN 128
#define RULE_MAX_MATCHES 8
#define RULE_NAME_LEN 64

enum u32_op { U32_OP_AND, U32_OP_SHL, U32_OP_SHR, U32_OP_AT };

struct u32_test {
	uint32_t num[U32_MAX_NUMS];
	uint8_t op[U32_MAX_NUMS]; /* op[k] joins num[k-1] and num[k]; op[0] unused */
	unsigned nnums;
	uint32_t min[U32_MAX_RANGES], max[U32_MAX_RANGES];
	unsigned nranges;
};

struct u32_expr {
	struct u32_test test[U32_MAX_TESTS];
	unsigned ntests;
};

/* Which behaviour of a kernel version to model (spec 5.8). */
struct kernel_profile {
	bool shift_mod32; /* pre-6.18.40 x86: shift counts taken mod 32 */
	bool to_start;	  /* pre-6.7: a string match need only start at <= --to */
};

/*
 * Parses a --u32 argument exactly as iptables 1.8.9's libxt_u32 does.
 * On error returns -EINVAL and writes iptables' message (without the
 * "iptables v1.8.9 (nf_tables): " prefix) into err.
 */
int u32_parse(const char *arg, struct u32_expr *e, char *err, size_t errlen);
/* Kernel checkentry: -EINVAL with a reason for rules the kernel refuses. */
int u32_check_kernel(const struct u32_expr *e, const struct kernel_profile *kp, char *err,
		     size_t errlen);
/* The iptables -S form: 0x.. numbers, no blanks. */
void u32_format(const struct u32_expr *e, char *buf, size_t len);

/* The packet as a match sees it: offset 0 = IP header. */
struct pkt_view {
	const uint8_t *data;
	uint32_t len;	 /* IP datagram length (what the kernel sees) */
	uint32_t caplen; /* bytes of it present in the capture (<= len) */
	uint8_t family;	 /* 4 or 6 */
	uint32_t l3len;	 /* IPv4 IHL*4 or 40 */
	uint32_t l4off;	 /* transport header offset, 0 if unknown */
	uint32_t l4len;	 /* transport header length, 0 if unknown */
	uint8_t proto;	 /* transport protocol (after IPv6 extension headers) */
	bool nonfirst_frag;
	uint32_t v6frag_hdr, v6frag_nhpos; /* IPv6 fragment header, byte naming it */
	bool is_frag;
	uint32_t wirelen; /* frame length from the IP header on (trailer included) */
	uint32_t l2len;	  /* Ethernet header with its VLAN tags (14 when not Ethernet) */
	/* reassembled datagrams: where each later fragment's data starts */
	const uint32_t *frag_cuts;
	unsigned nfrag_cuts;
};

enum verdict { V_NO = 0, V_YES = 1, V_INDET = 2 };

/* One step of a traced u32 evaluation (for explain). */
struct u32_step {
	unsigned test, index; /* test and number index */
	uint8_t op;	      /* operator applied (index > 0) */
	uint32_t operand, before, after;
	uint32_t readpos; /* for reads: absolute offset read */
	bool read, fail_oob, indet;
};

struct u32_trace {
	struct u32_step step[U32_MAX_TESTS * U32_MAX_NUMS + 4];
	unsigned nsteps;
	int failed_test; /* -1: all passed */
	bool oob;
};

/* Evaluates without the '!' inversion. trace may be NULL. */
enum verdict u32_eval(const struct u32_expr *e, const struct kernel_profile *kp,
		      const struct pkt_view *v, struct u32_trace *trace);

enum str_algo { ALGO_BM, ALGO_KMP };

struct bm_tables {
	unsigned bad[256];
	unsigned good[STR_MAX_PATTERN];
	uint8_t pat[STR_MAX_PATTERN];
	unsigned m;
	bool icase;
};

struct str_match {
	enum str_algo algo;
	bool icase, hex;
	uint16_t from, to;
	uint8_t pat[STR_MAX_PATTERN];
	unsigned plen;
	bool have_algo, have_from, have_to, have_pattern;
	struct bm_tables bm; /* prepared once the rule is parsed */
};

/* The --hex-string parser of libxt_string 1.8.9, quirks included. */
int str_parse_hex(const char *arg, uint8_t *out, unsigned *outlen, char *err, size_t errlen);
uint8_t str_fold(uint8_t c);   /* kernel toupper() */
uint8_t str_unfold(uint8_t c); /* kernel tolower() */

/* bm chunk layouts (spec 5.6). */
enum bm_layout {
	BM_AUTO,   /* AF_PACKET over a veth: [IP header][page fragments] from 4080 bytes */
	BM_LINEAR, /* one chunk */
	BM_L3,	   /* split at the end of the IP header */
	BM_L4,	   /* split at the end of the transport header */
	BM_KMP,	   /* as if searched correctly (intended verdict) */
};

struct str_result {
	enum verdict v;
	bool layout_dependent; /* another plausible layout gives another bm verdict */
	int32_t found;	       /* absolute offset of the occurrence used, -1 if none */
};

void str_eval(const struct str_match *m, const struct kernel_profile *kp, const struct pkt_view *v,
	      enum bm_layout layout, struct str_result *res);
/* Plain searches over a buffer, exposed for the benchmark and tests. */
long str_kmp_search(const uint8_t *pat, unsigned m, bool icase, const uint8_t *t, size_t n);
void str_bm_prepare(struct bm_tables *bt, const uint8_t *pat, unsigned m, bool icase);
long str_bm_search(const struct bm_tables *bt, const uint8_t *t, size_t n);

/* Basic matches around u32/string in a rule. */
struct port_match {
	bool set, invert;
	uint16_t lo, hi;
};

enum match_kind { M_U32, M_STRING };

struct match {
	enum match_kind kind;
	bool invert;
	struct u32_expr u32;
	struct str_match str;
};

struct rule {
	char name[RULE_NAME_LEN];
	struct match m[RULE_MAX_MATCHES];
	unsigned nmatches;
	int proto; /* -1: any */
	bool proto_invert;
	int frag; /* -1 any, 1 "-f", 0 "! -f" */
	struct port_match sport, dport;
	char text[1024]; /* the match arguments as given, normalised blanks */
	int family_hint; /* 6 when the rule is known to be an ip6tables rule */
};

/*
 * Shell-style word splitting of one line: blanks separate words, '...'
 * and "..." quote, backslash escapes; a word starting with '#' ends the
 * line. Returns the number of words or -EINVAL (message in err).
 * The words point into buf, which must be at least strlen(line)+1 bytes.
 */
int u32_split_words(const char *line, char *buf, char **words, int maxwords, char *err,
		    size_t errlen);

/* Parses iptables match arguments into r. -EINVAL + message on error. */
int rule_parse(struct rule *r, int argc, char **argv, const struct kernel_profile *kp, char *err,
	       size_t errlen);
/* Parses a rules-file line: 0 ok, 1 blank/comment, -EINVAL on error. */
int rule_parse_line(struct rule *r, const char *line, const struct kernel_profile *kp, char *err,
		    size_t errlen);

struct rule_result {
	enum verdict v;
	bool layout_dependent;
};
void rule_eval(const struct rule *r, const struct kernel_profile *kp, const struct pkt_view *v,
	       enum bm_layout layout, struct rule_result *res);

/* Link-layer stripping (spec 1.2). */
enum view_status { VIEW_OK, VIEW_NOT_IP, VIEW_DROPPED, VIEW_SHORT, VIEW_HELD };
enum view_status pkt_view_from_frame(int dlt, const uint8_t *frame, uint32_t caplen,
				     uint32_t wirelen, struct pkt_view *v);
const char *view_status_reason(enum view_status s);

/*
 * IPv4 reassembly as nf_defrag_ipv4 does it when conntrack is in use: the
 * fragments are held, and the one that completes a datagram delivers the
 * whole datagram (offset field cleared, length and checksum fixed) to
 * PREROUTING instead of itself.
 */
struct defrag;
struct defrag *defrag_new(void);
void defrag_free(struct defrag *d);
/*
 * Feeds one fragment view. Returns 0 when v is not a fragment (evaluate it
 * as is), 1 when it was held, 2 when it completed a datagram: *out then
 * views the reassembled datagram until the next call. -ENOMEM on failure.
 */
int defrag_add(struct defrag *d, const struct pkt_view *v, struct pkt_view *out);

/* Explain / lint / recipes. */
struct text_sink {
	void (*line)(void *ctx, const char *text);
	void *ctx;
};

void u32_explain(const struct u32_expr *e, const struct text_sink *out);
void u32_explain_packet(const struct u32_expr *e, const struct kernel_profile *kp,
			const struct pkt_view *v, const struct text_sink *out);

struct lint_warning {
	const char *id;
	char text[512];
	char fix[512];
};
/* Returns the number of warnings written (at most max). */
unsigned rule_lint(const struct rule *r, struct lint_warning *w, unsigned max);

int recipe_tls(const char *sni, char *buf, size_t len, char *err, size_t errlen);
int recipe_dns(const char *domain, const char *type, bool v6, char *buf, size_t len, char *err,
	       size_t errlen);
int dns_encode_name(const char *domain, uint8_t *out, size_t outlen, char *err, size_t errlen);
int dns_type_code(const char *type);

#endif
