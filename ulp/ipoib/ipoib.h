/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * IP over InfiniBand (RFC 4391, 4392), datagram and connected mode
 * (RFC 4755): the private state of module ib_ipoib.
 *
 * Lock order: rtnl > priv->ctl_mutex > the net device's xmit lock >
 * priv->lock > priv->tx_lock.  ctl_mutex serialises bringing the IB side
 * up and down (open, stop, port events) and the multicast work;
 * priv->lock guards the path table, the multicast list, the queues of
 * packets waiting for an address and connected mode's lists and table;
 * tx_lock the send rings and the count of sends in flight.
 */
#ifndef IPOIB_H
#define IPOIB_H

#include <linux/hashtable.h>
#include <linux/if_infiniband.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rbtree.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <rdma/ib_pack.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_verbs.h>

/* the IPoIB encapsulation header (RFC 4391 section 6) */
struct ipoib_header {
	__be16	proto;
	__be16	reserved;
};

/*
 * What ipoib_hard_header() puts in front of the encapsulation header:
 * the destination's hardware address, which the transmit path reads and
 * pulls off (IB has no link header that carries it).
 */
struct ipoib_pseudo_header {
	u8	hwaddr[INFINIBAND_ALEN];
};

enum {
	IPOIB_ENCAP_LEN		= sizeof(struct ipoib_header),
	IPOIB_PSEUDO_LEN	= sizeof(struct ipoib_pseudo_header),
	IPOIB_HARD_LEN		= IPOIB_ENCAP_LEN + IPOIB_PSEUDO_LEN,
	/* offset of the destination GID in a received GRH */
	IPOIB_GRH_DGID_OFF	= 24,

	IPOIB_RX_RING		= 128,
	IPOIB_TX_RING		= 64,
	/* packets held per unresolved path / multicast group */
	IPOIB_PATH_QUEUE_MAX	= 16,
	IPOIB_MCAST_QUEUE_MAX	= 64,

	/* hardware address byte 0: the interface takes RC connections */
	IPOIB_HW_FLAG_RC	= 0x80,
	IPOIB_QPN_MASK		= 0xffffff,
	IPOIB_MCAST_QPN		= 0xffffff,
	IPOIB_PKEY_FULL		= 0x8000,
	/* JoinState of a send-only full member (IBA 1.3 15.2.5.17) */
	IPOIB_SENDONLY_JOIN	= 8,
};

#define IPOIB_UD_MTU(ib_mtu)		((ib_mtu) - IPOIB_ENCAP_LEN)
#define IPOIB_UD_BUF_SIZE(ib_mtu)	((ib_mtu) + IB_GRH_BYTES)

/*
 * Connected mode.  The largest MTU leaves the IPoIB header with the IP
 * packet 16-byte aligned in 64 KiB; a receive buffer takes the header
 * too, in pages (one scatter/gather element each).
 */
#define IPOIB_CM_MTU		(SZ_64K - 16)
#define IPOIB_CM_BUF_SIZE	(IPOIB_CM_MTU + IPOIB_ENCAP_LEN)
#define IPOIB_CM_RX_SG		DIV_ROUND_UP(IPOIB_CM_BUF_SIZE, PAGE_SIZE)
/* service ID of an interface: this prefix with its UD QPN (RFC 4755) */
#define IPOIB_CM_SERVICE_ID	0x1000000000000000ULL

enum {
	IPOIB_CM_SRQ_RING	= 128,	/* receive buffers of the SRQ */
	IPOIB_CM_RX_RING	= 32,	/* of a connection without SRQ */
	IPOIB_CM_MAX_NONSRQ	= 64,	/* connections without SRQ */
	IPOIB_CM_QUEUE_MAX	= 16,	/* packets waiting for a connection */
	IPOIB_CM_COPYBREAK	= 256,	/* smaller packets are copied */
	IPOIB_CM_HEAD_COPY	= 128,	/* bytes copied ahead of the pages */
	IPOIB_CM_TOO_LONG_MAX	= 64,	/* packets waiting for their ICMP */
	/* the REQ's and REP's CM response timeouts (4.096 us * 2^20) */
	IPOIB_CM_RESPONSE_TIMEOUT = 20,
	IPOIB_CM_MAX_CM_RETRIES	= 15,
	/* infinite: a receiver out of buffers is waited for */
	IPOIB_CM_RNR_RETRY	= 7,
};

/* a passive connection unused this long is taken down */
#define IPOIB_CM_RX_TIMEOUT	(2 * 256 * HZ)
/* how often the passive side looks for them */
#define IPOIB_CM_RX_SCAN	(3 * 256 * HZ)

/* priv->flags */
enum {
	IPOIB_ADMIN_UP,		/* the net device is open */
	IPOIB_IB_UP,		/* the QP is in RTS, receives posted */
	IPOIB_PKEY_VALID,	/* the P_Key is in the port's table */
	IPOIB_UMCAST,		/* user-space joined groups are left alone */
	IPOIB_BCAST_JOINED,	/* the broadcast group is joined */
	IPOIB_RX_MODE,		/* the multicast list needs a sync */
	IPOIB_ADMIN_CM,		/* mode connected */
};

/*
 * An address handle shared by the path or group that made it and by the
 * sends still in flight with it.
 */
struct ipoib_ah {
	struct kref	ref;
	struct ib_ah	*ah;
};

/**
 * struct ipoib_path - a unicast destination by GID
 * @node: in the path table
 * @dgid: the destination port's GID
 * @ah: the address handle once the SA answered, or NULL
 * @queue: packets waiting for @ah (their pseudo-headers still on)
 * @query: the SA query in flight, or NULL
 * @query_id: its id, for ib_sa_cancel_query()
 * @done: completed when no query is in flight
 * @rec: the SA's path
 * @pending: a query is wanted (the path work starts it)
 * @failed: the last query failed: the next packet asks again
 * @table: the table it is in
 */
struct ipoib_path {
	struct rb_node		node;
	union ib_gid		dgid;
	struct ipoib_ah		*ah;
	struct sk_buff_head	queue;
	struct ib_sa_query	*query;
	int			query_id;
	struct completion	done;
	struct sa_path_rec	rec;
	bool			pending;
	bool			failed;
	struct ipoib_path_table	*table;
};

struct ipoib_path_table {
	struct rb_root	root;
	unsigned int	count;
};

/* multicast group states (ipoib_mcast.flags) */
enum {
	IPOIB_MC_SENDONLY,	/* joined for sending only, never attached */
	IPOIB_MC_BUSY,		/* a join is in flight */
	IPOIB_MC_DONE,		/* the SA answered, the work has to look */
	IPOIB_MC_JOINED,
	IPOIB_MC_ATTACHED,
	IPOIB_MC_STALE,		/* no longer in the net device's list */
};

/**
 * struct ipoib_mcast - a multicast group of the interface
 * @list: in priv->mcast_list
 * @mgid: the group
 * @rec: the group's record from the SA
 * @mc: the SA membership, or NULL
 * @ah: the group's address handle once joined
 * @flags: IPOIB_MC_*
 * @status: the SA's answer (with IPOIB_MC_DONE)
 * @retry_at: jiffies before which a failed join is not retried
 * @backoff: seconds to wait after the next failure
 * @queue: packets waiting for the join
 * @priv: the interface
 */
struct ipoib_mcast {
	struct list_head	list;
	union ib_gid		mgid;
	struct ib_sa_mcmember_rec rec;
	struct ib_sa_multicast	*mc;
	struct ipoib_ah		*ah;
	unsigned long		flags;
	int			status;
	unsigned long		retry_at;
	unsigned int		backoff;
	struct sk_buff_head	queue;
	struct ipoib_priv	*priv;
};

struct ipoib_rx_buf {
	struct ib_cqe	cqe;
	struct sk_buff	*skb;
	u64		mapping;
};

struct ipoib_tx_buf {
	struct ib_cqe	cqe;
	struct sk_buff	*skb;
	u64		mapping;
	struct ipoib_ah	*ah;
};

/**
 * struct ipoib_cm_data - the private data of the CM's REQ and REP
 * @qpn: the sender's UD QP number
 * @mtu: the largest message the sender receives on the connection,
 *	IPoIB header included
 *
 * Big endian on the wire (RFC 4755 section 4.1).
 */
struct ipoib_cm_data {
	__be32	qpn;
	__be32	mtu;
};

struct ipoib_cm_rx;

/**
 * struct ipoib_cm_rx_buf - a receive buffer of connected mode
 * @cqe: its completion
 * @conn: the connection whose ring it is in, NULL on the SRQ
 * @pages: a page per scatter/gather element
 * @dma: their mappings
 */
struct ipoib_cm_rx_buf {
	struct ib_cqe		cqe;
	struct ipoib_cm_rx	*conn;
	struct page		*pages[IPOIB_CM_RX_SG];
	u64			dma[IPOIB_CM_RX_SG];
};

/**
 * struct ipoib_cm_rx - a passive connection (a peer sends to us on it)
 * @list: in cm.rx_list while live, then in cm.rx_reap
 * @priv: the interface
 * @id: its CM ID
 * @qp: its RC QP (receives from the SRQ, or from @ring)
 * @ring: its own receive buffers without SRQ, else NULL
 * @last_rx: jiffies of its last receive (or of its REQ)
 * @dead: on its way to cm.rx_reap: no receive is posted again
 */
struct ipoib_cm_rx {
	struct list_head	list;
	struct ipoib_priv	*priv;
	struct ib_cm_id		*id;
	struct ib_qp		*qp;
	struct ipoib_cm_rx_buf	*ring;
	unsigned long		last_rx;
	bool			dead;
};

/* ipoib_cm_tx.flags */
enum {
	IPOIB_CM_TX_STARTING,	/* the start work sets it up */
	IPOIB_CM_TX_UP,		/* RTU sent: packets go out on it */
	IPOIB_CM_TX_DEAD,	/* out of the table, to be reaped */
};

/**
 * struct ipoib_cm_tx - an active connection (we send to a peer on it)
 * @node: in cm.tx_hash, by @dgid and @dqpn, until it dies
 * @list: in cm.tx_start until started, in cm.tx_reap once dead
 * @priv: the interface
 * @dgid: the peer's GID
 * @dqpn: the peer's UD QPN (its service ID)
 * @rec: the path to the peer
 * @id: its CM ID
 * @qp: its RC QP (sends only)
 * @ring: its send slots
 * @head: next send slot (tx_lock)
 * @tail: oldest send in flight (tx_lock)
 * @mtu: the largest message the peer takes, IPoIB header included
 * @flags: IPOIB_CM_TX_*
 * @queue: packets waiting for the connection (pseudo-header on)
 */
struct ipoib_cm_tx {
	struct hlist_node	node;
	struct list_head	list;
	struct ipoib_priv	*priv;
	union ib_gid		dgid;
	u32			dqpn;
	struct sa_path_rec	rec;
	struct ib_cm_id		*id;
	struct ib_qp		*qp;
	struct ipoib_tx_buf	*ring;
	unsigned int		head;
	unsigned int		tail;
	unsigned int		mtu;
	unsigned long		flags;
	struct sk_buff_head	queue;
};

/**
 * struct ipoib_cm - connected mode of an interface
 * @capable: the port has the IB CM: the address carries IPOIB_HW_FLAG_RC
 * @listen_id: the listener while the IB side is up
 * @srq: the shared receive queue of the passive connections, or NULL
 * @srq_ring: its buffers
 * @nsge: scatter/gather elements (pages) of a receive buffer
 * @max_mtu: the MTU of connected mode (what a receive buffer takes)
 * @nonsrq_conns: passive connections with their own ring
 * @req_busy: REQ handlers setting up a passive connection
 * @rx_list: the live passive connections
 * @rx_reap: passive connections to take down
 * @tx_hash: the active connections by peer
 * @tx_start: active connections to set up
 * @tx_reap: active connections to take down
 * @wq: the works below (ordered; never takes ctl_mutex or rtnl)
 * @start_work: sets up the connections of @tx_start
 * @tx_reap_work: takes down those of @tx_reap
 * @rx_reap_work: takes down those of @rx_reap
 * @stale_work: moves the passive connections unused for
 *	IPOIB_CM_RX_TIMEOUT to @rx_reap
 * @too_long_work: answers the packets of @too_long with ICMP
 * @too_long: packets too long for their destination
 */
struct ipoib_cm {
	bool			capable;
	struct ib_cm_id		*listen_id;
	struct ib_srq		*srq;
	struct ipoib_cm_rx_buf	*srq_ring;
	unsigned int		nsge;
	unsigned int		max_mtu;
	unsigned int		nonsrq_conns;
	unsigned int		req_busy;
	struct list_head	rx_list;
	struct list_head	rx_reap;
	DECLARE_HASHTABLE(tx_hash, 5);
	struct list_head	tx_start;
	struct list_head	tx_reap;
	struct workqueue_struct	*wq;
	struct work_struct	start_work;
	struct work_struct	tx_reap_work;
	struct work_struct	rx_reap_work;
	struct delayed_work	stale_work;
	struct work_struct	too_long_work;
	struct sk_buff_head	too_long;
};

/**
 * struct ipoib_priv - one IPoIB interface (a port's, or a P_Key child)
 * @dev: its net device
 * @ca: the RDMA device
 * @port: the port
 * @pkey: the P_Key asked for (the broadcast address carries it with the
 *	full membership bit)
 * @pkey_index: its index in the port's table (IPOIB_PKEY_VALID)
 * @parent: the port's interface for a child, NULL for that interface
 * @children: a parent's children (under rtnl)
 * @child_node: a child's place in it
 * @legacy_child: created through sysfs create_child (delete_child
 *	removes only those)
 * @flags: IPOIB_* bits
 * @ctl_mutex: see ipoib.h
 * @lock: see ipoib.h
 * @tx_lock: see ipoib.h
 * @wq: the interface's ordered workqueue (never takes rtnl)
 * @flush_work: restarts the IB side after a port event
 * @mcast_work: joins, finishes and leaves groups
 * @path_work: starts the path queries packets asked for
 * @mtu_work: applies the broadcast group's MTU (takes rtnl)
 * @event_handler: a parent's port event handler
 * @pd: protection domain
 * @send_cq: send completions
 * @recv_cq: receive completions
 * @qp: the UD QP
 * @qkey: the broadcast group's Q_Key (0 before the join)
 * @local_gid: the port's GID 0
 * @local_lid: the port's LID
 * @max_ib_mtu: the port's largest MTU in bytes (receive buffers)
 * @mcast_mtu: the broadcast group's IPoIB MTU
 * @admin_mtu: the MTU the administrator set (or the group's)
 * @rx_ring: receive buffers
 * @tx_ring: send slots
 * @tx_head: next send slot
 * @tx_tail: oldest send in flight
 * @cm_inflight: sends in flight on connections (with the datagram
 *	ring's, at most IPOIB_TX_RING: they share the send CQ)
 * @rx_outstanding: receives posted and not completed
 * @flushed: woken when @rx_outstanding reaches 0
 * @paths: the path table
 * @mcast_list: the multicast groups
 * @broadcast: the broadcast group (also in @mcast_list)
 * @cm: connected mode
 */
struct ipoib_priv {
	struct net_device	*dev;
	struct ib_device	*ca;
	u32			port;
	u16			pkey;
	u16			pkey_index;
	struct ipoib_priv	*parent;
	struct list_head	children;
	struct list_head	child_node;
	bool			legacy_child;
	unsigned long		flags;

	struct mutex		ctl_mutex;	/* the IB side's state */
	spinlock_t		lock;		/* paths, groups */
	spinlock_t		tx_lock;	/* the send ring */
	struct workqueue_struct	*wq;
	struct work_struct	flush_work;
	struct delayed_work	mcast_work;
	struct work_struct	path_work;
	struct delayed_work	mtu_work;
	struct ib_event_handler	event_handler;

	struct ib_pd		*pd;
	struct ib_cq		*send_cq;
	struct ib_cq		*recv_cq;
	struct ib_qp		*qp;
	u32			qkey;
	union ib_gid		local_gid;
	u32			local_lid;
	unsigned int		max_ib_mtu;
	unsigned int		mcast_mtu;
	unsigned int		admin_mtu;

	struct ipoib_rx_buf	*rx_ring;
	struct ipoib_tx_buf	*tx_ring;
	unsigned int		tx_head;
	unsigned int		tx_tail;
	unsigned int		cm_inflight;
	atomic_t		rx_outstanding;
	wait_queue_head_t	flushed;

	struct ipoib_path_table	paths;
	struct list_head	mcast_list;
	struct ipoib_mcast	*broadcast;

	struct ipoib_cm		cm;
};

static inline struct ipoib_priv *ipoib_priv(const struct net_device *dev)
{
	struct rdma_netdev *rn = netdev_priv(dev);

	return rn->clnt_priv;
}

/* sends in flight on the datagram QP and the connections; tx_lock held */
static inline unsigned int ipoib_tx_inflight(const struct ipoib_priv *priv)
{
	return priv->tx_head - priv->tx_tail + priv->cm_inflight;
}

/* addr.c: hardware addresses (unit-tested) */
void ipoib_make_hwaddr(u8 *ha, u8 flags, u32 qpn, const union ib_gid *gid);
u32 ipoib_hwaddr_qpn(const u8 *ha);
const union ib_gid *ipoib_hwaddr_gid(const u8 *ha);
bool ipoib_hwaddr_is_mcast(const u8 *ha);
void ipoib_make_broadcast(u8 *bcast, u16 pkey);
bool ipoib_mgid_valid(const u8 *ha, const u8 *bcast);
int ipoib_push_headers(struct sk_buff *skb, u16 type, const u8 *daddr);
int ipoib_pull_pseudo(struct sk_buff *skb, u8 *daddr);
int ipoib_rx_pkt_type(const u8 *grh, bool has_grh, const u8 *bcast);

/* path.c: the unicast path table (unit-tested) */
void ipoib_path_table_init(struct ipoib_path_table *t);
struct ipoib_path *ipoib_path_find(struct ipoib_path_table *t,
				   const union ib_gid *gid);
struct ipoib_path *ipoib_path_add(struct ipoib_path_table *t,
				  const union ib_gid *gid, gfp_t gfp);
void ipoib_path_del(struct ipoib_path_table *t, struct ipoib_path *path);
bool ipoib_path_enqueue(struct ipoib_path *path, struct sk_buff *skb);
struct ipoib_path *ipoib_path_first(struct ipoib_path_table *t);
void ipoib_ah_put(struct ipoib_ah *ah);
struct ipoib_ah *ipoib_ah_get(struct ipoib_ah *ah);
struct ipoib_ah *ipoib_ah_wrap(struct ib_ah *ah, gfp_t gfp);

/* ib.c: the QP, rings and completions */
int ipoib_transport_init(struct ipoib_priv *priv);
void ipoib_transport_cleanup(struct ipoib_priv *priv);
int ipoib_ib_up(struct ipoib_priv *priv);
void ipoib_ib_down(struct ipoib_priv *priv);
int ipoib_send(struct net_device *dev, struct sk_buff *skb,
	       struct ib_ah *ah, u32 dqpn);
int ipoib_send_ah(struct ipoib_priv *priv, struct sk_buff *skb,
		  struct ipoib_ah *ah, u32 dqpn);
int ipoib_set_qkey(struct ipoib_priv *priv, u32 qkey);
void ipoib_tx_wake(struct ipoib_priv *priv);

/*
 * Count a send's completion in @dev's statistics: a packet and its
 * bytes, an error (a flush is neither).  Called under priv->tx_lock.
 */
static inline void ipoib_tx_count(struct net_device *dev,
				  const struct ib_wc *wc,
				  const struct sk_buff *skb)
{
	if (wc->status == IB_WC_SUCCESS) {
		dev->stats.tx_packets++;
		dev->stats.tx_bytes += skb->len;
	} else if (wc->status != IB_WC_WR_FLUSH_ERR) {
		dev->stats.tx_errors++;
	}
}

/* cm.c: connected mode; the helpers first (unit-tested) */
__be64 ipoib_cm_service_id(u32 qpn);
void ipoib_cm_data_pack(struct ipoib_cm_data *data, u32 qpn, u32 mtu);
int ipoib_cm_data_mtu(const void *pdata, u8 len, u32 *mtu);
unsigned int ipoib_cm_mtu_of(unsigned int nsge, unsigned int page_size);
bool ipoib_cm_peer_capable(const u8 *ha);
unsigned int ipoib_cm_rx_pages(unsigned int len);
struct sk_buff *ipoib_cm_rx_skb(struct net_device *dev, struct page **pages,
				unsigned int len);
unsigned int ipoib_cm_rx_collect_stale(struct list_head *live,
				       struct list_head *stale,
				       unsigned long now,
				       unsigned long timeout);
int ipoib_cm_init(struct ipoib_priv *priv);
void ipoib_cm_cleanup(struct ipoib_priv *priv);
int ipoib_cm_start(struct ipoib_priv *priv);
void ipoib_cm_stop(struct ipoib_priv *priv);
bool ipoib_cm_wanted(struct ipoib_priv *priv, const u8 *ha,
		     const struct sk_buff *skb);
int ipoib_cm_route(struct ipoib_priv *priv, struct ipoib_path *path,
		   const u8 *ha, struct sk_buff *skb, struct ipoib_cm_tx **txp);
void ipoib_cm_send(struct ipoib_priv *priv, struct ipoib_cm_tx *tx,
		   struct sk_buff *skb);
void ipoib_cm_flush_tx(struct ipoib_priv *priv);
void ipoib_too_long(struct ipoib_priv *priv, struct sk_buff *skb,
		    unsigned int mtu);

/* mcast.c */
void ipoib_mcast_work(struct work_struct *work);
void ipoib_mcast_send(struct ipoib_priv *priv, const u8 *ha,
		      struct sk_buff *skb);
void ipoib_mcast_start(struct ipoib_priv *priv);
void ipoib_mcast_stop(struct ipoib_priv *priv);
int ipoib_mcast_attach(struct net_device *dev, struct ib_device *hca,
		       union ib_gid *gid, u16 mlid, int set_qkey, u32 qkey);
int ipoib_mcast_detach(struct net_device *dev, struct ib_device *hca,
		       union ib_gid *gid, u16 mlid);

/* main.c */
extern struct ib_sa_client ipoib_sa_client;
extern const struct attribute_group *ipoib_parent_groups[];
extern const struct attribute_group *ipoib_child_groups[];
extern const struct ethtool_ops ipoib_ethtool_ops;
extern struct rtnl_link_ops ipoib_link_ops;
void ipoib_setup(struct net_device *dev);
int ipoib_intf_init(struct ib_device *ca, u32 port, struct net_device *dev,
		    struct ipoib_priv *parent, u16 pkey);
void ipoib_path_work(struct work_struct *work);
void ipoib_paths_flush(struct ipoib_priv *priv);
bool ipoib_is_ipoib(const struct net_device *dev);
int ipoib_child_add(struct ipoib_priv *ppriv, struct net_device *dev,
		    u16 pkey, bool legacy, struct netlink_ext_ack *extack);
int ipoib_set_mode(struct net_device *dev, const char *mode,
		   struct netlink_ext_ack *extack);
bool ipoib_mode_connected(const struct ipoib_priv *priv);
void ipoib_set_umcast(struct ipoib_priv *priv, bool on);

#endif /* IPOIB_H */
