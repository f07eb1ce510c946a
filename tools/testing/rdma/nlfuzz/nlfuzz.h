/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nlfuzz: a fuzzer of the NETLINK_RDMA channel (user space).
 *
 * nlfuzz.c runs the sockets and counts what comes back, gen.c builds the
 * datagrams, attrs.c holds the attribute tables of <rdma/rdma_netlink.h>.
 * Documentation/testing.rst tells how to run it and replay a seed.
 */
#ifndef NLFUZZ_H
#define NLFUZZ_H

#include <stddef.h>
#include <linux/types.h>

/* Largest datagram the generator builds. */
#define NLFUZZ_BUF_MAX 8192

/* Client indexes are 6 bits wide, operations 10 bits. */
#define NLFUZZ_CLIENTS 64
#define NLFUZZ_OPS 1024

/* The random number generator: xorshift64*, seeded by splitmix64. */
struct rng {
	__u64 s;
};

void rng_seed(struct rng *r, __u64 seed);
__u64 rng_next(struct rng *r);
/* A number in [0, n), n > 0. */
unsigned int rng_below(struct rng *r, unsigned int n);
/* True with probability pct/100. */
int rng_chance(struct rng *r, unsigned int pct);
void rng_fill(struct rng *r, void *buf, size_t len);

/* Payload kinds of an attribute. */
enum ftype {
	FT_NONE,	/* number not in use */
	FT_U8,
	FT_U16,
	FT_U32,
	FT_U64,
	FT_STR,		/* NUL terminated string */
	FT_NEST,
	FT_BIN,		/* raw bytes of any length */
	FT_SOCKADDR,	/* struct __kernel_sockaddr_storage */
	FT_GID,		/* 16 bytes */
	FT_PATHREC,	/* struct ib_path_rec_data */
	FT_NUM
};

/* One attribute table: payload kind by attribute number. */
struct attr_table {
	const char *name;
	const unsigned char *ft;
	unsigned int n;		/* numbers 0 .. n-1 */
};

/* How one operation of one client is sent in well-formed messages. */
struct op_desc {
	const struct attr_table *attrs;	/* NULL: random attribute numbers */
	size_t famhdr;			/* bytes of family header (LS) */
	unsigned char dumpable;		/* takes NLM_F_DUMP */
	unsigned char admin;		/* needs CAP_NET_ADMIN */
};

extern const struct attr_table nldev_attrs;

const char *client_name(unsigned int client);
unsigned int client_num_ops(unsigned int client);
/* Description of (client, op), or NULL when the pair is not in the ABI. */
const struct op_desc *op_lookup(unsigned int client, unsigned int op);
const char *op_name(unsigned int client, unsigned int op);

/* Strategies of gen.c; a datagram is built by exactly one. */
enum strategy {
	ST_SWEEP,		/* header only, every client and op */
	ST_RANDOM,		/* random bytes */
	ST_HDR_PAYLOAD,		/* valid header, random payload */
	ST_ATTRS,		/* well-formed attributes, right and wrong */
	ST_TRUNCATED,		/* datagram shorter than nlmsg_len */
	ST_LEN_LIE,		/* nlmsg_len or nla_len not the real size */
	ST_MULTI,		/* several messages in one datagram */
	ST_DUMP_ABANDON,	/* dump read partly, then left */
	ST_CLOSE_MID_DUMP,	/* socket closed during a dump */
	ST_MCAST,		/* multicast group joins and leaves */
	ST_NUM
};

extern const char *const strategy_names[ST_NUM];

/* What the driver in nlfuzz.c does with a generated datagram. */
struct datagram {
	enum strategy st;
	unsigned int sock;		/* which of the main sockets */
	unsigned int nmsgs;		/* netlink headers placed */
	/* ST_CLOSE_MID_DUMP: datagrams to read before close (0 or 1) */
	unsigned int reads;
	/* ST_MCAST */
	__u32 bind_groups;
	unsigned int join[4];
	unsigned int njoin;
	size_t len;
	__u8 data[NLFUZZ_BUF_MAX];
};

/* Clients and ops of the sweep, in order; returns 0 past its end. */
int gen_sweep(struct datagram *d, unsigned long idx, __u32 seq);
unsigned long gen_sweep_len(void);
void gen_random(struct rng *r, struct datagram *d, __u32 *seq);
void gen_set_rare(__u64 mask);
void gen_set_sweep(unsigned int clients);
/* Header only, NLM_F_REQUEST | NLM_F_ACK, for the admin probe. */
size_t gen_header(__u8 *buf, unsigned int client, unsigned int op,
		  __u16 flags, __u32 seq);

#endif /* NLFUZZ_H */
