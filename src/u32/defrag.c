/*
 * IPv4 and IPv6 reassembly in the manner of net/ipv4/ip_fragment.c and
 * nf_conntrack_reasm.c, enough to model what the raw table sees once
 * conntrack (and so nf_defrag_ipv4/6) is active in the namespace (spec 1.3):
 * fragments are keyed by addresses and identification (IPv4: and protocol);
 * overlapping fragments discard the datagram; IPv6 loses its fragment header;
 * the completed datagram is one skb whose chunks are the first fragment
 * (headers included) and the data of each later fragment, in offset order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/dlt.h>

#include "common.h"
#include "u32/defrag.h"

#define DEFRAG_SLOTS 64
#define DEFRAG_MAX_FRAGS 32

struct frag_piece {
	uint32_t off, len; /* data offset and length, in bytes */
	uint8_t *data;
};

struct frag_queue {
	bool used, have_last;
	uint8_t key[37]; /* family, addresses, identification (and IPv4 protocol) */
	uint8_t *head;	 /* IP header (IPv6: unfragmentable part) of the offset-0 fragment */
	uint32_t headlen, total;
	uint32_t nhpos;	 /* IPv6: the byte that named the fragment header */
	uint8_t nexthdr; /* IPv6: the header after the fragment header */
	struct frag_piece piece[DEFRAG_MAX_FRAGS];
	unsigned npieces;
	/* the kernel's runs: pieces that came in order at the tail, merged */
	struct frag_run {
		uint32_t off, len;
	} run[DEFRAG_MAX_FRAGS];
	unsigned nruns;
	uint64_t age;
};

struct u32_defrag {
	struct frag_queue q[DEFRAG_SLOTS];
	uint64_t clock;
	uint8_t *out;
	uint32_t cuts[DEFRAG_MAX_FRAGS];
};

struct u32_defrag *u32_defrag_new(void)
{
	return calloc(1, sizeof(struct u32_defrag));
}

static void queue_clear(struct frag_queue *q)
{
	for (unsigned k = 0; k < q->npieces; k++)
		free(q->piece[k].data);
	free(q->head);
	memset(q, 0, sizeof(*q));
}

void u32_defrag_free(struct u32_defrag *d)
{
	if (!d)
		return;
	for (unsigned k = 0; k < DEFRAG_SLOTS; k++)
		queue_clear(&d->q[k]);
	free(d->out);
	free(d);
}

static struct frag_queue *queue_for(struct u32_defrag *d, const uint8_t *key)
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

enum { FRAG_NEW, FRAG_DUP, FRAG_OVERLAP };

/*
 * Where [off, end) goes, as inet_frag_queue_insert() decides: past the
 * tail it must start at or after the tail's end (it extends the tail's run
 * when it starts right there); below the tail it is a duplicate when one
 * run holds all of it (dropped, the queue kept), an overlap when it
 * crosses anything else (the queue killed), else a run of its own.
 */
static int place_piece(struct frag_queue *q, uint32_t off, uint32_t end, uint32_t tail)
{
	if (!q->npieces || tail < end) {
		if (q->npieces && off < tail)
			return FRAG_OVERLAP;
		if (q->npieces && off == tail) {
			for (unsigned k = 0; k < q->nruns; k++)
				if (q->run[k].off + q->run[k].len == tail)
					q->run[k].len += end - off;
			return FRAG_NEW;
		}
	} else {
		for (unsigned k = 0; k < q->nruns; k++) {
			const struct frag_run *r = &q->run[k];

			if (end <= r->off || off >= r->off + r->len)
				continue;
			return off >= r->off && end <= r->off + r->len ? FRAG_DUP : FRAG_OVERLAP;
		}
	}
	q->run[q->nruns++] = (struct frag_run){ off, end - off };
	return FRAG_NEW;
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

/* Rewrites the header of a reassembled datagram as the kernel does. */
static void fix_header(uint8_t *buf, uint32_t len, const struct frag_queue *q)
{
	if (q->key[0] == 6) {
		/* nf_ct_frag6_reasm(): the fragment header is removed */
		buf[q->nhpos] = q->nexthdr;
		buf[4] = (uint8_t)((len - 40) >> 8);
		buf[5] = (uint8_t)(len - 40);
		return;
	}
	buf[2] = (uint8_t)(len >> 8);
	buf[3] = (uint8_t)len;
	buf[6] = buf[7] = 0;
	uint16_t c = header_checksum(buf, q->headlen);
	buf[10] = (uint8_t)(c >> 8);
	buf[11] = (uint8_t)c;
}

/* Builds the datagram and its view; the queue is released. */
static int reassemble(struct u32_defrag *d, struct frag_queue *q, struct u32_view *out)
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
	fix_header(buf, len, q);
	queue_clear(q);
	free(d->out);
	d->out = buf;
	if (u32_view_from_frame(DLT_RAW, buf, len, len, out) != U32_VIEW_OK)
		return 1; /* the datagram would fail the IP checks: nothing is delivered */
	out->l2len = 14;
	out->frag_cuts = d->cuts;
	out->nfrag_cuts = ncuts;
	return 2;
}

/* One fragment, whatever the IP version. */
struct frag_desc {
	uint8_t key[37];
	uint32_t off, dlen, headlen; /* headlen: bytes before the fragment's data */
	bool more;
	uint32_t datapos;
};

static int store_piece(struct frag_queue *q, const struct u32_view *v, const struct frag_desc *f)
{
	struct frag_piece *p = &q->piece[q->npieces];

	p->data = malloc(f->dlen ? f->dlen : 1);
	if (!p->data)
		return -ENOMEM;
	memcpy(p->data, v->data + f->datapos, f->dlen);
	p->off = f->off;
	p->len = f->dlen;
	q->npieces++;
	if (f->off == 0) {
		q->head = malloc(f->headlen);
		if (!q->head)
			return -ENOMEM;
		memcpy(q->head, v->data, f->headlen);
		q->headlen = f->headlen;
		if (v->family == 6) {
			q->nhpos = v->v6frag_nhpos;
			q->nexthdr = v->data[v->v6frag_hdr];
		}
	}
	return 0;
}

static void describe_v4(const struct u32_view *v, struct frag_desc *f)
{
	uint16_t fo = (uint16_t)(v->data[6] << 8 | v->data[7]);

	f->more = fo & 0x2000;
	f->off = (uint32_t)(fo & 0x1FFF) * 8;
	f->headlen = f->datapos = v->l3len;
	f->dlen = v->len - v->l3len;
	if (f->more)
		f->dlen &= ~7u; /* ip_frag_queue() trims a non-final fragment to 8 bytes */
	f->key[0] = 4;
	memcpy(f->key + 1, v->data + 12, 8);
	memcpy(f->key + 9, v->data + 4, 2);
	f->key[11] = v->data[9];
}

/* false: a non-final fragment whose length is not a multiple of 8 bytes */
static bool describe_v6(const struct u32_view *v, struct frag_desc *f)
{
	const uint8_t *fh = v->data + v->v6frag_hdr;
	uint16_t fo = (uint16_t)(fh[2] << 8 | fh[3]);

	f->more = fo & 1;
	f->off = fo & 0xFFF8u;
	f->headlen = v->v6frag_hdr;
	f->datapos = v->v6frag_hdr + 8;
	f->dlen = v->len - f->datapos;
	f->key[0] = 6;
	memcpy(f->key + 1, v->data + 8, 32);
	memcpy(f->key + 33, fh + 4, 4);
	return !(f->more && (f->dlen & 7));
}

/*
 * Whether a fragment agrees with the datagram's end: a final fragment must
 * not end before data already held nor elsewhere than an earlier final
 * one, and no fragment may go past a known end.
 */
static bool fits_the_end(const struct frag_queue *q, const struct frag_desc *f)
{
	uint32_t end = f->off + f->dlen;

	if (f->more)
		return !(q->have_last && end > q->total);
	return !(q->have_last && end != q->total) && max_end(q) <= end;
}

int u32_defrag_add(struct u32_defrag *d, const struct u32_view *v, struct u32_view *out)
{
	struct frag_desc f = { .more = false };
	struct frag_queue *q;
	int rc;

	/* IPv6: any fragment header, even an atomic one, goes through reassembly */
	bool frag = v->family == 4 ? v->is_frag : v->v6frag_hdr != 0;
	if (!frag || v->caplen < v->len || (v->family == 6 && v->v6frag_hdr + 8 > v->len))
		return 0; /* not a fragment, or cut by the capture: judge it as it is */
	bool ok = true;
	if (v->family == 4)
		describe_v4(v, &f);
	else
		ok = describe_v6(v, &f);
	q = queue_for(d, f.key);
	q->age = ++d->clock;
	if (!ok) {
		/* nf_ct_frag6_queue() -EPROTO: the queue dies, the packet passes as is */
		queue_clear(q);
		return 0;
	}
	if (f.dlen == 0 || !fits_the_end(q, &f)) {
		/* end == offset, or against the end a final fragment set:
		 * ip_frag_queue() kills the queue (discard_qp), nf_ct_frag6_queue()
		 * only drops the fragment. An empty piece overlaps nothing, so two
		 * at offset 0 once both kept a header. */
		if (f.key[0] == 4)
			queue_clear(q);
		return 1;
	}
	if (q->npieces == DEFRAG_MAX_FRAGS) {
		queue_clear(q); /* the model's limit: the kernel's is memory */
		return 1;
	}
	switch (place_piece(q, f.off, f.off + f.dlen, max_end(q))) {
	case FRAG_DUP:
		return 1; /* dropped; the queue keeps what it had */
	case FRAG_OVERLAP:
		/* the queue is killed, this fragment dropped; later fragments
		 * start a new queue (inet_frag_kill) */
		queue_clear(q);
		return 1;
	default:
		break;
	}
	if (!f.more) {
		q->have_last = true;
		q->total = f.off + f.dlen;
	}
	rc = store_piece(q, v, &f);
	if (rc)
		return rc;
	return queue_complete(q) ? reassemble(d, q, out) : 1;
}
