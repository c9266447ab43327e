/* Per-rule flow tables for the live dry run: a linear table is enough for a top-N. */
#include <arpa/inet.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "u32/flows.h"

void u32_flow_of(const struct u32_view *v, struct u32_flow *key)
{
	memset(key, 0, sizeof(*key));
	key->family = v->family;
	key->proto = v->proto;
	if (v->family == 4 && v->caplen >= 20) {
		memcpy(key->src, v->data + 12, 4);
		memcpy(key->dst, v->data + 16, 4);
	} else if (v->family == 6 && v->caplen >= 40) {
		memcpy(key->src, v->data + 8, 16);
		memcpy(key->dst, v->data + 24, 16);
	}
	if ((v->proto == 6 || v->proto == 17) && v->l4off && !v->nonfirst_frag &&
	    v->l4off + 4 <= v->caplen) {
		key->sport = (uint16_t)(v->data[v->l4off] << 8 | v->data[v->l4off + 1]);
		key->dport = (uint16_t)(v->data[v->l4off + 2] << 8 | v->data[v->l4off + 3]);
	}
}

static int flow_cmp(const struct u32_flow *a, const struct u32_flow *b)
{
	/* the key is every member before pkts */
	return memcmp(a, b, offsetof(struct u32_flow, pkts));
}

void u32_flows_add(struct u32_flows *fl, const struct u32_flow *key)
{
	for (unsigned k = 0; k < fl->n; k++)
		if (flow_cmp(&fl->f[k], key) == 0) {
			fl->f[k].pkts++;
			return;
		}
	if (fl->n == U32_FLOWS_MAX) {
		fl->other++;
		return;
	}
	fl->f[fl->n] = *key;
	fl->f[fl->n++].pkts = 1;
}

unsigned u32_flows_top(const struct u32_flows *fl, unsigned *idx, unsigned n)
{
	unsigned got = 0;

	/* insertion into a short sorted list: n is small (a top 5) */
	for (unsigned k = 0; k < fl->n; k++) {
		unsigned at = got < n ? got : n;
		while (at > 0 && fl->f[idx[at - 1]].pkts < fl->f[k].pkts) {
			if (at < n)
				idx[at] = idx[at - 1];
			at--;
		}
		if (at < n)
			idx[at] = k;
		if (got < n)
			got++;
	}
	return got;
}

void u32_flow_format(const struct u32_flow *f, char *buf, size_t len)
{
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
	int af = f->family == 6 ? AF_INET6 : AF_INET;
	const char *name = f->proto == 6 ? "tcp" : f->proto == 17 ? "udp" : NULL;

	inet_ntop(af, f->src, s, sizeof(s));
	inet_ntop(af, f->dst, d, sizeof(d));
	if (name && (f->sport || f->dport))
		snprintf(buf, len, af == AF_INET6 ? "%s [%s]:%u > [%s]:%u" : "%s %s:%u > %s:%u",
			 name, s, f->sport, d, f->dport);
	else if (name)
		snprintf(buf, len, "%s %s > %s", name, s, d);
	else
		snprintf(buf, len, "proto %u %s > %s", f->proto, s, d);
}
