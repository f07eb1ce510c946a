// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Datagram generator of nlfuzz.  Everything here depends only on the
 * random number generator, never on what the kernel answered, so a seed
 * always gives the same datagrams.
 */
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <rdma/ib_user_sa.h>

#include "nlfuzz.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *const strategy_names[ST_NUM] = {
	[ST_SWEEP] = "sweep",
	[ST_RANDOM] = "random-bytes",
	[ST_HDR_PAYLOAD] = "header+random",
	[ST_ATTRS] = "attributes",
	[ST_TRUNCATED] = "truncated",
	[ST_LEN_LIE] = "length-lie",
	[ST_MULTI] = "multi-message",
	[ST_DUMP_ABANDON] = "dump-abandon",
	[ST_CLOSE_MID_DUMP] = "close-mid-dump",
	[ST_MCAST] = "multicast",
};

/* ---- random numbers ---------------------------------------------------- */

void rng_seed(struct rng *r, __u64 seed)
{
	/* splitmix64 step: any seed, 0 included, gives a non-zero state */
	__u64 z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	r->s = z ? z : 1;
}

__u64 rng_next(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

unsigned int rng_below(struct rng *r, unsigned int n)
{
	return (unsigned int)((rng_next(r) >> 32) % n);
}

int rng_chance(struct rng *r, unsigned int pct)
{
	return rng_below(r, 100) < pct;
}

void rng_fill(struct rng *r, void *buf, size_t len)
{
	__u8 *p = buf;
	__u64 v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(i & 7))
			v = rng_next(r);
		p[i] = (__u8)v;
		v >>= 8;
	}
}

/* ---- datagram builder ---------------------------------------------------- */

#define MAX_MARKS 64

/* A datagram under construction; offsets of headers kept for length lies. */
struct builder {
	struct rng *r;
	struct datagram *d;
	size_t attr_off[MAX_MARKS];
	unsigned int nattr;
	size_t msg_off[MAX_MARKS];
	unsigned int nmsg;
};

static void *room(struct builder *b, size_t len)
{
	void *p;

	if (b->d->len + len > NLFUZZ_BUF_MAX)
		return NULL;
	p = b->d->data + b->d->len;
	b->d->len += len;
	return p;
}

static void align4(struct builder *b)
{
	size_t pad = NLMSG_ALIGN(b->d->len) - b->d->len;
	__u8 *p = room(b, pad);

	if (p)
		memset(p, 0, pad);
}

static struct nlmsghdr *msg_begin(struct builder *b, unsigned int client,
				  unsigned int op, __u16 flags, __u32 seq)
{
	struct nlmsghdr *nlh;

	align4(b);
	nlh = room(b, NLMSG_HDRLEN);
	if (!nlh)
		return NULL;
	nlh->nlmsg_len = NLMSG_HDRLEN;
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(client, op);
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = 0;
	if (b->nmsg < MAX_MARKS)
		b->msg_off[b->nmsg++] = (__u8 *)nlh - b->d->data;
	b->d->nmsgs++;
	return nlh;
}

static void msg_end(struct builder *b, struct nlmsghdr *nlh)
{
	nlh->nlmsg_len = b->d->data + b->d->len - (__u8 *)nlh;
}

/* Starts an attribute; returns its offset, or 0 when there is no room. */
static size_t attr_begin(struct builder *b, __u16 type)
{
	struct nlattr *nla;
	size_t off;

	align4(b);
	off = b->d->len;
	nla = room(b, NLA_HDRLEN);
	if (!nla)
		return 0;
	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN;
	if (b->nattr < MAX_MARKS)
		b->attr_off[b->nattr++] = off;
	return off;
}

static void attr_end(struct builder *b, size_t off)
{
	struct nlattr *nla = (struct nlattr *)(b->d->data + off);
	size_t len = b->d->len - off;

	nla->nla_len = len > 0xffff ? 0xffff : (__u16)len;
}

static void put_bytes(struct builder *b, const void *src, size_t len)
{
	void *p = room(b, len);

	if (p)
		memcpy(p, src, len);
}

static void put_random(struct builder *b, size_t len)
{
	void *p = room(b, len);

	if (p)
		rng_fill(b->r, p, len);
}

/* ---- values ---------------------------------------------------------------- */

static const __u64 interesting[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256,
	0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe,
	0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL,
	0x8000000000000000ULL, 0xffffffffffffffffULL,
};

static __u64 pick_number(struct rng *r)
{
	unsigned int k = rng_below(r, 10);

	if (k < 4)
		return rng_below(r, 5);		/* device, port, fd numbers */
	if (k < 8)
		return interesting[rng_below(r, ARRAY_SIZE(interesting))];
	return rng_next(r);
}

static const char *const names[] = {
	"fake0", "fake1", "fake2", "fake%d", "lo", "fketh0", "fketh1",
	"rxe", "siw", "ib", "iw", "roce", "opa", "uverbs", "umad", "rdma_cm",
	"iwpmd", "ibacm", "mlx5_0", "rxe0", "siw0", "nlfuzz", "", " ", ".",
	"..", "/", "fake0/../x", "%s%s%n", "\xff\xfe",
};

/* Writes a string of up to max - 1 characters and its NUL into out. */
static size_t pick_string(struct rng *r, char *out, size_t max)
{
	size_t len, i;

	if (rng_chance(r, 70)) {
		const char *s = names[rng_below(r, ARRAY_SIZE(names))];

		len = strlen(s);
		if (len >= max)
			len = max - 1;
		memcpy(out, s, len);
	} else {
		/* long strings go past IB_DEVICE_NAME_MAX and IFNAMSIZ */
		len = rng_chance(r, 30) ? rng_below(r, max) : rng_below(r, 40);
		if (len >= max)
			len = max - 1;
		for (i = 0; i < len; i++)
			out[i] = (char)(0x20 + rng_below(r, 0x5f));
	}
	out[len] = 0;
	return len + 1;
}

static void put_sockaddr(struct builder *b)
{
	struct __kernel_sockaddr_storage ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	unsigned int k = rng_below(b->r, 4);

	memset(&ss, 0, sizeof(ss));
	if (k == 0) {
		in->sin_family = AF_INET;
		in->sin_port = htons(rng_below(b->r, 65536));
		in->sin_addr.s_addr = rng_chance(b->r, 50) ?
			htonl(INADDR_LOOPBACK) : (__u32)rng_next(b->r);
	} else if (k == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(rng_below(b->r, 65536));
		rng_fill(b->r, &in6->sin6_addr, sizeof(in6->sin6_addr));
	} else if (k == 2) {
		rng_fill(b->r, &ss, sizeof(ss));
	} else {
		ss.ss_family = rng_below(b->r, 64);
	}
	put_bytes(b, &ss, sizeof(ss));
}

/* Payload of the given kind, right size and right shape. */
static void put_payload(struct builder *b, const struct attr_table *t,
			enum ftype ft, unsigned int depth);

static __u16 pick_attr_type(struct rng *r, const struct attr_table *t)
{
	unsigned int k = rng_below(r, 100), i;

	if (k < 85) {
		for (i = 0; i < 16; i++) {
			unsigned int n = rng_below(r, t->n);

			if (t->ft[n] != FT_NONE)
				return n;
		}
		return 1;
	}
	if (k < 90)
		return 0;
	if (k < 95)
		return t->n + rng_below(r, 6);
	return (__u16)rng_next(r);
}

/* One attribute from table t: right kind, or (mutate) a wrong one. */
static void put_attr(struct builder *b, const struct attr_table *t,
		     __u16 type, int mutate, unsigned int depth)
{
	enum ftype ft = type < t->n ? t->ft[type] : FT_BIN;
	size_t off;

	if (ft == FT_NONE)
		ft = FT_BIN;
	/* type bits: nested, byte order, the LS mandatory bit */
	if (rng_chance(b->r, t->ft == nldev_attrs.ft ? 3 : 30))
		type |= RDMA_NLA_F_MANDATORY;
	if (rng_chance(b->r, 3))
		type |= NLA_F_NESTED;
	if (rng_chance(b->r, 2))
		type |= NLA_F_NET_BYTEORDER;
	off = attr_begin(b, type);
	if (!off)
		return;
	if (mutate) {
		if (rng_chance(b->r, 50))
			put_random(b, rng_below(b->r, 40));
		else
			put_payload(b, t, 1 + rng_below(b->r, FT_NUM - 1),
				    depth);
	} else {
		put_payload(b, t, ft, depth);
	}
	attr_end(b, off);
}

static void put_attrs(struct builder *b, const struct attr_table *t,
		      unsigned int n, unsigned int mutate_pct,
		      unsigned int depth)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		put_attr(b, t, pick_attr_type(b->r, t),
			 rng_chance(b->r, mutate_pct), depth);
}

static void put_payload(struct builder *b, const struct attr_table *t,
			enum ftype ft, unsigned int depth)
{
	__u64 v = pick_number(b->r);
	char s[300];
	size_t len;

	switch (ft) {
	case FT_U8:
		put_bytes(b, &v, 1);
		break;
	case FT_U16:
		put_bytes(b, &v, 2);
		break;
	case FT_U32:
		put_bytes(b, &v, 4);
		break;
	case FT_U64:
		put_bytes(b, &v, 8);
		break;
	case FT_STR:
		len = pick_string(b->r, s, rng_chance(b->r, 90) ? 70 :
				  sizeof(s));
		/* now and then without its NUL */
		if (rng_chance(b->r, 10))
			len--;
		put_bytes(b, s, len);
		break;
	case FT_NEST:
		if (depth < 2)
			put_attrs(b, t, rng_below(b->r, 5), 15, depth + 1);
		else
			put_random(b, rng_below(b->r, 16));
		break;
	case FT_SOCKADDR:
		put_sockaddr(b);
		break;
	case FT_GID:
		put_random(b, 16);
		break;
	case FT_PATHREC:
		put_random(b, sizeof(struct ib_path_rec_data));
		break;
	case FT_BIN:
	default:
		put_random(b, rng_below(b->r, 64));
		break;
	}
}

/* ---- messages ---------------------------------------------------------------- */

static const struct attr_table *random_table(struct rng *r)
{
	const struct op_desc *d;
	unsigned int client, op;

	/* the table of some valid op of some client */
	do {
		client = RDMA_NL_IWCM + rng_below(r, 4);
		op = client_num_ops(client) ?
			rng_below(r, client_num_ops(client)) : 0;
		d = op_lookup(client, op);
	} while (!d);
	return d->attrs;
}

/* Client indexes that get one message in RARE_PCT of their share. */
static __u64 rare_clients;
#define RARE_PCT 1

/**
 * gen_set_rare() - send rarely to some client indexes
 * @mask: bit N set: client index N gets only one in a hundred of the
 *	random messages it would get otherwise (the sweep is unchanged)
 *
 * Meant for valid indexes without a client in the running kernel: each
 * message to one makes the kernel run modprobe, which takes a quarter
 * of a second under TCG.  A mask of 0 (the default) changes nothing, so
 * a seed gives the same datagrams as without it.
 */
void gen_set_rare(__u64 mask)
{
	rare_clients = mask;
}

static unsigned int pick_client(struct rng *r)
{
	unsigned int k = rng_below(r, 100);

	if (k < 28)
		return RDMA_NL_NLDEV;
	if (k < 40)
		return RDMA_NL_LS;
	if (k < 52)
		return RDMA_NL_IWCM;
	if (k < 56)
		return RDMA_NL_RSVD;
	if (k < 60)
		return rng_below(r, RDMA_NL_IWCM);
	return rng_below(r, NLFUZZ_CLIENTS);
}

static int is_rare(struct rng *r, unsigned int client)
{
	return rare_clients & (1ULL << client) && !rng_chance(r, RARE_PCT);
}

/*
 * nldev's GET_CHARDEV names a client by a string, and the kernel runs
 * modprobe (rdma-client-NAME) for each name no loaded client has: almost
 * every fuzzed one.  It keeps one in RARE_OP_PCT of its share, or the
 * modprobes take most of a run under TCG.
 */
#define RARE_OP_PCT 10

static int is_rare_op(struct rng *r, unsigned int client, unsigned int op)
{
	return client == RDMA_NL_NLDEV && op == RDMA_NLDEV_CMD_GET_CHARDEV &&
	       !rng_chance(r, RARE_OP_PCT);
}

static void pick_target(struct rng *r, unsigned int *client,
			unsigned int *op)
{
	unsigned int k, n;

	do {
		do {
			*client = pick_client(r);
		} while (is_rare(r, *client));

		n = client_num_ops(*client);
		k = rng_below(r, 100);
		if (n && k < 75)
			*op = rng_below(r, n);
		else if (n && k < 90)
			*op = n + rng_below(r, 8);
		else if (k < 95)
			*op = rng_below(r, 32);
		else
			*op = rng_below(r, NLFUZZ_OPS);
	} while (is_rare_op(r, *client, *op));
}

static __u16 pick_flags(struct rng *r)
{
	__u16 f = 0;

	if (rng_chance(r, 5))
		return (__u16)rng_next(r);
	if (rng_chance(r, 90))
		f |= NLM_F_REQUEST;
	if (rng_chance(r, 50))
		f |= NLM_F_ACK;
	if (rng_chance(r, 20))
		f |= NLM_F_DUMP;
	else if (rng_chance(r, 5))
		f |= rng_chance(r, 50) ? NLM_F_ROOT : NLM_F_MATCH;
	if (rng_chance(r, 10)) {
		static const __u16 extra[] = {
			NLM_F_MULTI, NLM_F_ECHO, NLM_F_DUMP_INTR,
			NLM_F_DUMP_FILTERED, NLM_F_ATOMIC, NLM_F_REPLACE,
			NLM_F_EXCL, NLM_F_CREATE, NLM_F_APPEND,
			NLM_F_NONREC, NLM_F_CAPPED, NLM_F_ACK_TLVS,
			RDMA_NL_LS_F_ERR,
		};
		f |= extra[rng_below(r, ARRAY_SIZE(extra))];
	}
	return f;
}

/* Family header of the LS replies: device name, port, path use / ifindex. */
static void put_family_header(struct builder *b, unsigned int client,
			      unsigned int op, size_t size)
{
	struct rdma_ls_resolve_header rh;
	struct rdma_ls_ip_resolve_header ih;

	if (rng_chance(b->r, 10)) {
		put_random(b, rng_below(b->r, size + 8));
		return;
	}
	if (client == RDMA_NL_LS && op == RDMA_NL_LS_OP_RESOLVE) {
		memset(&rh, 0, sizeof(rh));
		pick_string(b->r, (char *)rh.device_name,
			    sizeof(rh.device_name));
		rh.port_num = rng_below(b->r, 4);
		rh.path_use = rng_below(b->r, LS_RESOLVE_PATH_USE_MAX + 2);
		put_bytes(b, &rh, sizeof(rh));
	} else {
		ih.ifindex = (__u32)pick_number(b->r);
		put_bytes(b, &ih, sizeof(ih));
	}
}

/*
 * A message for (client, op) with attributes of the op's table, most of
 * the right kind.  NLDEV messages usually name a device and a port.
 */
static void build_attr_msg(struct builder *b, unsigned int client,
			   unsigned int op, __u16 flags, __u32 seq)
{
	const struct op_desc *desc = op_lookup(client, op);
	const struct attr_table *t;
	struct nlmsghdr *nlh;

	nlh = msg_begin(b, client, op, flags, seq);
	if (!nlh)
		return;
	if (desc && desc->famhdr)
		put_family_header(b, client, op, desc->famhdr);
	t = desc ? desc->attrs : random_table(b->r);
	if (t == &nldev_attrs) {
		if (rng_chance(b->r, 70))
			put_attr(b, t, RDMA_NLDEV_ATTR_DEV_INDEX,
				 rng_chance(b->r, 5), 0);
		if (rng_chance(b->r, 35))
			put_attr(b, t, RDMA_NLDEV_ATTR_PORT_INDEX,
				 rng_chance(b->r, 5), 0);
	}
	put_attrs(b, t, rng_below(b->r, 7), 15, 0);
	msg_end(b, nlh);
}

static void build_hdr_payload(struct builder *b, unsigned int client,
			      unsigned int op, __u16 flags, __u32 seq)
{
	struct nlmsghdr *nlh = msg_begin(b, client, op, flags, seq);

	if (!nlh)
		return;
	put_random(b, rng_chance(b->r, 70) ? rng_below(b->r, 64) :
		   rng_below(b->r, 1024));
	msg_end(b, nlh);
}

static void lie_about_length(struct builder *b)
{
	struct nlmsghdr *nlh;
	struct nlattr *nla;
	__u32 real;

	if (b->nattr && rng_chance(b->r, 40)) {
		static const __u16 lens[] = { 0, 1, 2, 3, 4, 5, 7, 8, 0xffff };

		nla = (struct nlattr *)(b->d->data +
					b->attr_off[rng_below(b->r, b->nattr)]);
		if (rng_chance(b->r, 50))
			nla->nla_len = lens[rng_below(b->r, ARRAY_SIZE(lens))];
		else
			nla->nla_len += (__u16)(rng_below(b->r, 41) - 20);
		return;
	}
	if (!b->nmsg)
		return;
	nlh = (struct nlmsghdr *)(b->d->data +
				  b->msg_off[rng_below(b->r, b->nmsg)]);
	real = nlh->nlmsg_len;
	switch (rng_below(b->r, 10)) {
	case 0:
		nlh->nlmsg_len = rng_below(b->r, NLMSG_HDRLEN + 2);
		break;
	case 1:
		nlh->nlmsg_len = real - 1 - rng_below(b->r, real);
		break;
	case 2:
		nlh->nlmsg_len = real + 1 + rng_below(b->r, 8);
		break;
	case 3:
		nlh->nlmsg_len = real + 64 + rng_below(b->r, 4096);
		break;
	case 4:
		nlh->nlmsg_len = 0xffffffff - rng_below(b->r, 4);
		break;
	case 5:
		nlh->nlmsg_len = 0x7fffffff;
		break;
	default:
		nlh->nlmsg_len = (__u32)pick_number(b->r);
		break;
	}
}

static void build_one(struct builder *b, enum strategy st, __u32 seq)
{
	unsigned int client, op;
	__u16 flags;

	pick_target(b->r, &client, &op);
	flags = pick_flags(b->r);
	if (st == ST_HDR_PAYLOAD)
		build_hdr_payload(b, client, op, flags, seq);
	else
		build_attr_msg(b, client, op, flags, seq);
}

static void build_dump_request(struct builder *b, __u32 seq)
{
	static const unsigned int dumps[] = {
		RDMA_NLDEV_CMD_GET, RDMA_NLDEV_CMD_PORT_GET,
		RDMA_NLDEV_CMD_RES_GET, RDMA_NLDEV_CMD_RES_QP_GET,
		RDMA_NLDEV_CMD_RES_CM_ID_GET, RDMA_NLDEV_CMD_RES_CQ_GET,
		RDMA_NLDEV_CMD_RES_MR_GET, RDMA_NLDEV_CMD_RES_PD_GET,
		RDMA_NLDEV_CMD_STAT_GET, RDMA_NLDEV_CMD_RES_CTX_GET,
		RDMA_NLDEV_CMD_RES_SRQ_GET,
	};
	unsigned int client = RDMA_NL_NLDEV, op;
	__u16 flags = NLM_F_REQUEST | NLM_F_DUMP;
	struct nlmsghdr *nlh;

	if (rng_chance(b->r, 80) && !is_rare(b->r, RDMA_NL_NLDEV))
		op = dumps[rng_below(b->r, ARRAY_SIZE(dumps))];
	else
		pick_target(b->r, &client, &op);
	if (rng_chance(b->r, 30))
		flags |= NLM_F_ACK;
	nlh = msg_begin(b, client, op, flags, seq);
	if (!nlh)
		return;
	if (client == RDMA_NL_NLDEV && rng_chance(b->r, 40))
		put_attr(b, &nldev_attrs, RDMA_NLDEV_ATTR_DEV_INDEX, 0, 0);
	if (client == RDMA_NL_NLDEV && rng_chance(b->r, 20))
		put_attrs(b, &nldev_attrs, 1 + rng_below(b->r, 3), 20, 0);
	msg_end(b, nlh);
}

static enum strategy pick_strategy(struct rng *r)
{
	static const struct {
		enum strategy st;
		unsigned int weight;
	} w[] = {
		{ ST_RANDOM, 8 },
		{ ST_HDR_PAYLOAD, 12 },
		{ ST_ATTRS, 34 },
		{ ST_TRUNCATED, 8 },
		{ ST_LEN_LIE, 12 },
		{ ST_MULTI, 12 },
		{ ST_DUMP_ABANDON, 7 },
		{ ST_CLOSE_MID_DUMP, 4 },
		{ ST_MCAST, 3 },
	};
	unsigned int k = rng_below(r, 100), i;

	for (i = 0; i < ARRAY_SIZE(w); i++) {
		if (k < w[i].weight)
			return w[i].st;
		k -= w[i].weight;
	}
	return ST_ATTRS;
}

/**
 * gen_random() - build the next random datagram
 * @r: generator state, advanced
 * @d: filled in
 * @seq: sequence number of the next message, advanced per message
 */
void gen_random(struct rng *r, struct datagram *d, __u32 *seq)
{
	struct builder b = { .r = r, .d = d };
	unsigned int i, n;

	d->st = pick_strategy(r);
	d->sock = rng_below(r, 2);
	d->len = 0;
	d->nmsgs = 0;
	d->reads = 0;
	d->njoin = 0;
	d->bind_groups = 0;

	switch (d->st) {
	case ST_RANDOM:
		n = rng_chance(r, 50) ? rng_below(r, 40) : rng_below(r, 1024);
		put_random(&b, n);
		/* count what the kernel will take for a header */
		if (n >= NLMSG_HDRLEN)
			d->nmsgs = 1;
		break;
	case ST_HDR_PAYLOAD:
	case ST_ATTRS:
		build_one(&b, d->st, (*seq)++);
		break;
	case ST_TRUNCATED:
		build_one(&b, ST_ATTRS, (*seq)++);
		d->len = rng_below(r, d->len);
		break;
	case ST_LEN_LIE:
		build_one(&b, ST_ATTRS, (*seq)++);
		lie_about_length(&b);
		break;
	case ST_MULTI:
		n = 2 + rng_below(r, 5);
		for (i = 0; i < n; i++) {
			if (rng_chance(r, 8)) {
				/* a control message in between */
				struct nlmsghdr *nlh;

				nlh = msg_begin(&b, 0, rng_below(r, 16),
						pick_flags(r), (*seq)++);
				if (nlh)
					msg_end(&b, nlh);
				continue;
			}
			build_one(&b, rng_chance(r, 30) ? ST_HDR_PAYLOAD :
				  ST_ATTRS, (*seq)++);
		}
		if (rng_chance(r, 30))
			lie_about_length(&b);
		else if (rng_chance(r, 15))
			d->len -= rng_below(r, d->len);
		break;
	case ST_DUMP_ABANDON:
		build_dump_request(&b, (*seq)++);
		d->reads = rng_below(r, 2);
		break;
	case ST_CLOSE_MID_DUMP:
		n = 1 + rng_below(r, 3);
		for (i = 0; i < n; i++)
			build_dump_request(&b, (*seq)++);
		d->reads = rng_below(r, 2);
		break;
	case ST_MCAST:
		d->bind_groups = rng_chance(r, 50) ? (__u32)rng_next(r) :
			1u << (RDMA_NL_GROUP_IWPM - 1 +
			       rng_below(r, RDMA_NL_NUM_GROUPS -
					 RDMA_NL_GROUP_IWPM));
		d->njoin = rng_below(r, ARRAY_SIZE(d->join) + 1);
		for (i = 0; i < d->njoin; i++)
			d->join[i] = rng_chance(r, 60) ?
				rng_below(r, RDMA_NL_NUM_GROUPS + 2) :
				rng_below(r, 70);
		if (rng_chance(r, 50))
			build_one(&b, ST_ATTRS, (*seq)++);
		break;
	default:
		break;
	}
}

/* The sweep: every client, ops 0..SWEEP_OPS-1 and a few high ones, each
 * as a plain request and as a dump request, all asking for an ack.
 */
#define SWEEP_OPS 32
static const unsigned int sweep_high_ops[] = { 63, 64, 511, 512, 1023 };
#define SWEEP_PER_CLIENT ((SWEEP_OPS + ARRAY_SIZE(sweep_high_ops)) * 2)

/* client indexes the sweep covers: 0 .. sweep_clients - 1 */
static unsigned int sweep_clients = NLFUZZ_CLIENTS;

/**
 * gen_set_sweep() - sweep only the first client indexes
 * @clients: 1 .. NLFUZZ_CLIENTS; the sweep covers indexes 0 .. @clients - 1
 *
 * The indexes past the valid ones all end at the same check of the
 * kernel's dispatch (an unknown client); a short run sweeps the valid
 * ones and a few past them, and its random datagrams, which are the
 * same for a seed whatever the sweep's length, start earlier.
 */
void gen_set_sweep(unsigned int clients)
{
	sweep_clients = clients;
}

unsigned long gen_sweep_len(void)
{
	return sweep_clients * SWEEP_PER_CLIENT;
}

size_t gen_header(__u8 *buf, unsigned int client, unsigned int op,
		  __u16 flags, __u32 seq)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

	memset(nlh, 0, NLMSG_HDRLEN);
	nlh->nlmsg_len = NLMSG_HDRLEN;
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(client, op);
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	return NLMSG_HDRLEN;
}

/**
 * gen_sweep() - build datagram @idx of the sweep
 * @d: filled in
 * @idx: 0 .. gen_sweep_len() - 1
 * @seq: its sequence number
 *
 * Return: 1 when built, 0 when @idx is past the end of the sweep.
 */
int gen_sweep(struct datagram *d, unsigned long idx, __u32 seq)
{
	unsigned int client, k, op;
	__u16 flags = NLM_F_REQUEST | NLM_F_ACK;

	if (idx >= gen_sweep_len())
		return 0;
	client = idx / SWEEP_PER_CLIENT;
	k = idx % SWEEP_PER_CLIENT;
	if (k & 1)
		flags |= NLM_F_DUMP;
	k /= 2;
	op = k < SWEEP_OPS ? k : sweep_high_ops[k - SWEEP_OPS];
	memset(d, 0, offsetof(struct datagram, data));
	d->st = ST_SWEEP;
	d->nmsgs = 1;
	d->len = gen_header(d->data, client, op, flags, seq);
	return 1;
}
