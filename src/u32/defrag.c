/*
 * IPv4 reassembly in the manner of net/ipv4/ip_fragment.c, enough to model
 * what the raw table sees once conntrack (and so nf_defrag_ipv4) is active
 * in the namespace (spec 1.3): fragments are keyed by source, destination,
 * identification and protocol; overlapping fragments discard the datagram;
 * the completed datagram is one skb whose chunks are the first fragment
 * (headers included) and the data of each later fragment, in offset order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "u32/u32.h"

#define DEFRAG_SLOTS 64
#define DEFRAG_MAX_FRAGS 32

struct frag_piece {
	uint32_t off, len; /* data offset and length, in bytes */
	uint8_t *data;
};

struct frag_queue {
	bool used, dead, have_last;
	uint8_t key[11]; /* saddr, daddr, id, protocol */
	uint8_t *head;	 /* IP header of the offset-0 fragment */
	uint32_t headlen, total;
	struct frag_piece piece[DEFRAG_MAX_FRAGS];
	unsigned npieces;
	uint64_t age;
};

struct defrag {
	struct frag_queue q[DEFRAG_SLOTS];
	uint64_t clock;
	uint8_t *out;
	uint32_t cuts[DEFRAG_MAX_FRAGS];
};

struct defrag *defrag_new(void)
{
	return calloc(1, sizeof(struct defrag));
}

static void queue_clear(struct frag_queue *q)
{
	for (unsigned k = 0; k < q->npieces; k++)
		free(q->piece[k].data);
	free(q->head);
	memset(q, 0, sizeof(*q));
}

void defrag_free(struct defrag *d)
{
	if (!d)
		return;
	for (unsigned k = 0; k < DEFRAG_SLOTS; k++)
		queue_clear(&d->q[k]);
	free(d->out);
	free(d);
}

static struct frag_queue *queue_for(struct defrag *d, const uint8_t *key)
{
	struct frag_queue *oldest = &d->q[0];

	for (unsigned k = 0; k < DEFRAG_SLOTS; k++) {
		struct frag_queue *q = &d->q[k];
		if (q->used && memcmp(q->key, key, sizeof(q->key)) == 0)
			return q;
		if (!q->used || q->age < oldest->age)
			oldest = q;
	}
	queue_clear(oldest); /* the kernel would time it out; evict the oldest */
	oldest->used = true;
	memcpy(oldest->key, key, sizeof(oldest->key));
	return oldest;
}

static bool overlaps(const struct frag_queue *q, uint32_t off, uint32_t len)
{
	for (unsigned k = 0; k < q->npieces; k++)
		if (off < q->piece[k].off + q->piece[k].len && q->piece[k].off < off + len)
			return true;
	return false;
}

static uint32_t max_end(const struct frag_queue *q)
{
	uint32_t end = 0;

	for (unsigned k = 0; k < q->npieces; k++)
		if (q->piece[k].off + q->piece[k].len > end)
			end = q->piece[k].off + q->piece[k].len;
	return end;
}

static int piece_cmp(const void *a, const void *b)
{
	const struct frag_piece *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

static bool queue_complete(struct frag_queue *q)
{
	uint32_t next = 0;

	if (!q->have_last || !q->head)
		return false;
	qsort(q->piece, q->npieces, sizeof(q->piece[0]), piece_cmp);
	for (unsigned k = 0; k < q->npieces; k++) {
		if (q->piece[k].off != next)
			return false;
		next += q->piece[k].len;
	}
	return next == q->total;
}

static uint16_t header_checksum(const uint8_t *p, uint32_t hlen)
{
	uint32_t sum = 0;

	for (uint32_t k = 0; k + 1 < hlen; k += 2)
		if (k != 10)
			sum += (uint32_t)(p[k] << 8 | p[k + 1]);
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Builds the datagram and its view; the queue is released. */
static int reassemble(struct defrag *d, struct frag_queue *q, struct pkt_view *out)
{
	uint32_t len = q->headlen + q->total, at = q->headlen;
	uint8_t *buf = malloc(len);
	unsigned ncuts = 0;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, q->head, q->headlen);
	for (unsigned k = 0; k < q->npieces; k++) {
		memcpy(buf + at, q->piece[k].data, q->piece[k].len);
		if (k > 0)
			d->cuts[ncuts++] = at;
		at += q->piece[k].len;
	}
	buf[2] = (uint8_t)(len >> 8);
	buf[3] = (uint8_t)len;
	buf[6] = buf[7] = 0;
	uint16_t c = header_checksum(buf, q->headlen);
	buf[10] = (uint8_t)(c >> 8);
	buf[11] = (uint8_t)c;
	queue_clear(q);
	free(d->out);
	d->out = buf;
	memset(out, 0, sizeof(*out));
	out->data = buf;
	out->len = out->caplen = out->wirelen = len;
	out->family = 4;
	out->l3len = buf[0] & 0x0F ? (uint32_t)(buf[0] & 0x0F) * 4 : 20;
	out->proto = buf[9];
	out->l4off = out->l3len;
	if (out->proto == 6 && out->l4off + 20 <= len)
		out->l4len = (uint32_t)(buf[out->l4off + 12] >> 4) * 4;
	else if (out->proto == 17 && out->l4off + 8 <= len)
		out->l4len = 8;
	out->frag_cuts = d->cuts;
	out->nfrag_cuts = ncuts;
	return 2;
}

static int store_piece(struct frag_queue *q, const struct pkt_view *v, uint32_t off, uint32_t dlen)
{
	struct frag_piece *p = &q->piece[q->npieces];

	p->data = malloc(dlen ? dlen : 1);
	if (!p->data)
		return -ENOMEM;
	memcpy(p->data, v->data + v->l3len, dlen);
	p->off = off;
	p->len = dlen;
	q->npieces++;
	if (off == 0) {
		q->head = malloc(v->l3len);
		if (!q->head)
			return -ENOMEM;
		memcpy(q->head, v->data, v->l3len);
		q->headlen = v->l3len;
	}
	return 0;
}

int defrag_add(struct defrag *d, const struct pkt_view *v, struct pkt_view *out)
{
	uint8_t key[11];
	uint16_t fo;
	uint32_t off, dlen;
	struct frag_queue *q;
	bool more;
	int rc;

	if (v->family != 4 || !v->is_frag)
		return 0;
	if (v->caplen < v->len)
		return 0; /* cannot rebuild what the capture lacks: judge the fragment */
	fo = (uint16_t)(v->data[6] << 8 | v->data[7]);
	more = fo & 0x2000;
	off = (uint32_t)(fo & 0x1FFF) * 8;
	dlen = v->len - v->l3len;
	memcpy(key, v->data + 12, 8);
	memcpy(key + 8, v->data + 4, 2);
	key[10] = v->data[9];
	q = queue_for(d, key);
	q->age = ++d->clock;
	if (q->dead)
		return 1;
	if (more)
		dlen &= ~7u; /* ip_frag_queue() trims a non-final fragment to 8 bytes */
	if ((more && q->have_last && off + dlen > q->total) || (!more && q->have_last) ||
	    overlaps(q, off, dlen) || q->npieces == DEFRAG_MAX_FRAGS ||
	    (!more && max_end(q) > off + dlen)) {
		q->dead = true; /* overlapping or inconsistent: the datagram is dropped */
		return 1;
	}
	if (!more) {
		q->have_last = true;
		q->total = off + dlen;
	}
	rc = store_piece(q, v, off, dlen);
	if (rc)
		return rc;
	return queue_complete(q) ? reassemble(d, q, out) : 1;
}
