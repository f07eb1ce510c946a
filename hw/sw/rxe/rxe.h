/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_rxe: soft-RoCE on the rdmavt verbs engine.  Private declarations
 * of the module.
 *
 * A device is an rdmavt device (node type CA, one Ethernet port) bound to
 * one net device.  rdmavt owns the verbs objects, the send ring and the
 * placement of what arrives; rxe owns the wire: packets over UDP port
 * 4791 (RoCE v2, IPv4 or IPv6) or Ethertype 0x8915 (RoCE v1, with a
 * GRH), chosen by the GID type of the address's source GID.
 */
#ifndef RXE_H
#define RXE_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/idr.h>
#include <rdma/ib_mad.h>
#include <rdma/rdma_vt.h>
#include <rdma/rdma_user_rxe.h>

#include "rxe_hdr.h"

/* the one port of a device */
#define RXE_PORT		1

/* upstream rxe's limits and attributes (rxe_param.h there) */
#define RXE_VENDOR_ID		0xffffff
#define RXE_MAX_QP		((1 << 20) - 16)
#define RXE_MAX_QP_WR		BIT(20)
#define RXE_MAX_SGE		32
#define RXE_MAX_CQ		BIT(20)
#define RXE_MAX_CQE		((1 << 15) - 1)
#define RXE_MAX_PD		BIT(20)
#define RXE_MAX_MR		((1 << 19) - 1)
#define RXE_MAX_MW		((1 << 19) - 1)
#define RXE_MAX_QP_RD_ATOM	128
#define RXE_MAX_RES_RD_ATOM	0x3f000
/* PSNs a requester has unacknowledged at most */
#define RXE_WINDOW		128
/* a packet in so many asks for an ACK, besides a message's last */
#define RXE_ACK_EVERY		64
/* a retry_cnt that never runs out (upstream rxe's reading of 7) */
#define RXE_RETRY_FOREVER	7
/* consecutive ACK timeouts double the next, up to 1 << this times */
#define RXE_BACKOFF_MAX		2
#define RXE_MAX_MCAST_GRP	8192
#define RXE_MAX_MCAST_QP_ATTACH	56
#define RXE_MAX_TOT_MCAST_QP_ATTACH 0x70000
#define RXE_MAX_AH		((1 << 15) - 1)
#define RXE_MAX_SRQ		((1 << 20) - 0x00020001)
#define RXE_MAX_SRQ_WR		BIT(20)
#define RXE_MAX_SRQ_SGE		27
#define RXE_MAX_FMR_PAGE_LIST_LEN 512
#define RXE_MAX_PKEYS		64
#define RXE_LOCAL_CA_ACK_DELAY	15
#define RXE_GID_TBL_LEN		1024
#define RXE_MAX_MSG_SZ		BIT(31)
/* headers a RoCE v2 packet may carry, taken off the MTU (upstream's) */
#define RXE_MAX_HDR_LENGTH	80
/* the user ABI: its version, SRQ numbers (upstream's), queue entries */
#define RXE_UVERBS_ABI_VERSION	2
#define RXE_MIN_SRQ_NUM		0x00020001
#define RXE_MAX_SRQ_NUM		0x00040000
#define RXE_MAX_RING_SLOTS	BIT(21)

/**
 * enum rxe_drop - why a received packet was dropped (struct rxe_dev.drops)
 * @RXE_DROP_HDR: too short, a bad BTH, an unknown opcode, a bad length
 * @RXE_DROP_ICRC: the ICRC did not match
 * @RXE_DROP_QP: no QP of that number, or of another type
 * @RXE_DROP_QKEY: the Q_Key of a datagram did not match
 * @RXE_DROP_PKEY: the P_Key was not the default one
 * @RXE_DROP_RQ: no receive WQE, or the QP does not receive in its state,
 *	or a page of an on-demand paging receive buffer was not mapped
 * @RXE_DROP_NOMEM: no memory for a packet (receive or send)
 * @RXE_NUM_DROPS: their number
 */
enum rxe_drop {
	RXE_DROP_HDR,
	RXE_DROP_ICRC,
	RXE_DROP_QP,
	RXE_DROP_QKEY,
	RXE_DROP_PKEY,
	RXE_DROP_RQ,
	RXE_DROP_NOMEM,
	RXE_NUM_DROPS
};

struct rxe_ns;

/**
 * struct rxe_dev - one soft-RoCE device
 * @rdi: the rdmavt device, first
 * @port: rdmavt's state of the one port
 * @ndev: the net device the port sits on (ib_device_set_netdev() holds
 *	it until the device is unregistered)
 * @ns: the RoCE v2 sockets of @ndev's namespace, referenced while the
 *	device lives (rxe_net.c)
 * @drops: received packets dropped, by enum rxe_drop
 * @route_err: datagrams that found no route or neighbour
 * @loop_q: packets to the device itself, waiting for @loop_work (the
 *	queue's own lock)
 * @loop_work: hands @loop_q's packets to the receive path, on
 *	system_bh_wq (softirq context); disabled in rxe_dealloc()
 * @pkeys: the P_Key table (upstream's 64 entries; the default P_Key
 *	first, the rest empty)
 * @srq_ida: the numbers of user SRQs (rxe_create_srq_resp.srq_num)
 */
struct rxe_dev {
	struct rvt_dev_info	rdi;
	struct rvt_ibport	port;
	struct net_device	*ndev;
	struct rxe_ns		*ns;
	atomic64_t		drops[RXE_NUM_DROPS];
	atomic64_t		route_err;
	struct sk_buff_head	loop_q;
	struct work_struct	loop_work;
	u16			pkeys[RXE_MAX_PKEYS];
	struct ida		srq_ida;
};

static inline struct rxe_dev *to_rxe_dev(struct ib_device *ibdev)
{
	return container_of(ib_to_rvt(ibdev), struct rxe_dev, rdi);
}

static inline void rxe_drop(struct rxe_dev *rxe, enum rxe_drop why)
{
	atomic64_inc(&rxe->drops[why]);
}

/**
 * struct rxe_rc_req - rxe's state of a request of an RC or UC QP, one per
 *	send ring slot
 * @first_psn: the PSN of its first packet (a READ: of its request, and
 *	of its first response)
 * @npkts: its packets (a READ: the responses it expects)
 * @next: READ responses placed so far
 */
struct rxe_rc_req {
	u32	first_psn;
	u32	npkts;
	u32	next;
};

/**
 * struct rxe_rc - the connected transport's state of a QP (rxe_rc.c)
 * @lock: protects the requester's fields, @head to @stopped (BH)
 * @reqs: per send ring slot
 * @head: the slot of the oldest request rxe holds
 * @held: requests rxe holds, from @head on
 * @tx: the slot of the oldest request not entirely sent
 * @unsent: requests from @tx on not entirely sent
 * @psn: the PSN of the next new request's first packet
 * @spsn: the PSN of the next packet to send (in the request at @tx)
 * @una: the oldest PSN the peer has not acknowledged (where a retry
 *	starts)
 * @retry: transport retries left for the oldest request
 * @rnr: RNR retries left for it
 * @rd_out: READs and atomics sent and not completed (from @head up to
 *	@tx): no more than the QP's max_rd_atomic; a READ or atomic beyond
 *	that waits, and the requests after it with it
 * @backoff: ACK timeouts in a row (up to RXE_BACKOFF_MAX): the next
 *	waits the QP's timeout shifted left by it; an acknowledgment clears it
 * @rnr_wait: the timer runs for an RNR NAK, not for the ACK timeout
 * @implied: an implied NAK (an ACK past a READ or atomic whose response
 *	did not come) asked again; the next one waits for a response
 * @stopped: RESET or destroy: nothing is sent or completed any more
 * @timer: the retry (and RNR) timer
 * @flush: gives back what is held in the error state
 * @epsn: the responder's expected PSN; the responder's fields, from here
 *	on, are under the QP's r_lock
 * @msn: the responder's message sequence number
 * @nak_seq: a PSN sequence NAK was sent for @epsn
 * @send_off: bytes of the SEND in progress placed so far
 * @in_write: a WRITE is in progress
 * @wva: its address
 * @wrkey: its rkey
 * @wlen: its length (the RETH's)
 * @wdone: bytes of it placed so far
 * @atm: the responder's replay cache of atomics: the original values of
 *	the last @natm executed, by PSN, answered again when a request
 *	comes twice (an atomic must not execute twice)
 * @natm: its entries: the QP's max_dest_rd_atomic (0: the responder
 *	takes no READ or atomic)
 * @atm_next: where the next atomic goes in @atm
 */
struct rxe_rc {
	spinlock_t		lock;	/* see above */
	struct rxe_rc_req	*reqs;
	u32			head;
	u32			held;
	u32			tx;
	u32			unsent;
	u32			psn;
	u32			spsn;
	u32			una;
	int			retry;
	int			rnr;
	u32			rd_out;
	u8			backoff;
	bool			rnr_wait;
	bool			implied;
	bool			stopped;
	struct timer_list	timer;
	struct work_struct	flush;

	u32			epsn;
	u32			msn;
	bool			nak_seq;
	u32			send_off;
	bool			in_write;
	u64			wva;
	u32			wrkey;
	u32			wlen;
	u32			wdone;
	struct rxe_atm_done {
		u32	psn;
		bool	valid;
		u64	orig;
	}			*atm;
	u32			natm;
	u32			atm_next;
};

/**
 * struct rxe_qp_priv - rxe's state of a QP
 * @qp: the QP
 * @src_port: the UDP source port of its RoCE v2 packets
 * @psn: the next PSN it sends (datagrams: one per packet)
 * @rc: the connected transport's state (RC and UC QPs)
 */
struct rxe_qp_priv {
	struct rvt_qp	*qp;
	u16		src_port;
	u32		psn;
	struct rxe_rc	rc;
};

/**
 * struct rxe_pkt - a packet being received, as far as it was parsed
 * @rxe: the device it came to
 * @skb: the packet, skb->data at the BTH; the headers up to the payload
 *	linear, the payload linear or in page fragments (rxe_pkt_payload())
 * @nh: RXE_NH_* of its network header
 * @nhdr: the network header: the IPv4 or IPv6 header (the UDP header
 *	after it), or the GRH
 * @bth: its BTH
 * @opcode: the BTH's opcode
 * @mask: the opcode's mask (rxe_opcode[])
 * @qpn: the destination QP
 * @psn: the PSN
 * @paylen: bytes from the BTH to the end, the ICRC included
 * @payoff: the payload's offset from skb->data
 * @plen: payload bytes, without padding
 */
struct rxe_pkt {
	struct rxe_dev		*rxe;
	struct sk_buff		*skb;
	enum rxe_nh		nh;
	u8			*nhdr;
	struct rxe_bth		*bth;
	u8			opcode;
	u32			mask;
	u32			qpn;
	u32			psn;
	u32			paylen;
	u32			payoff;
	u32			plen;
};

/**
 * struct rxe_uring - a queue of rxe's user ABI, mapped into a process
 *	(rxe_uring.c)
 * @buf: the queue: struct rxe_queue_buf, then the slots
 * @mmap: its mmap entry (rvt_mmap_alloc())
 * @mi: where user space maps it, as the driver data answers it
 * @mask: slots - 1: every index is masked with it (the kernel's copy;
 *	the queue's head has one for user space)
 * @shift: log2 of a slot's bytes (the kernel's copy)
 * @index: the index the kernel owns, its own copy: a CQ's producer
 *	index, a work queue's consumer index
 */
struct rxe_uring {
	struct rxe_queue_buf	*buf;
	struct rvt_mmap_entry	*mmap;
	struct mminfo		mi;
	u32			mask;
	u32			shift;
	u32			index;
};

/* rxe_dev.c */
enum ib_mtu rxe_mtu_to_enum(int mtu);
u32 rxe_mtu(struct rxe_dev *rxe);
bool rxe_netdev_qualified(const struct net_device *ndev);
int rxe_device_add(const char *name, struct net_device *ndev);
void rxe_port_event(struct rxe_dev *rxe, enum ib_event_type type);

/* rxe_net.c */
int rxe_net_init(void);
void rxe_net_exit(void);
int rxe_ns_get(struct rxe_dev *rxe);
void rxe_ns_put(struct rxe_dev *rxe);
void rxe_loop_init(struct rxe_dev *rxe);
void rxe_loop_stop(struct rxe_dev *rxe);
struct sk_buff *rxe_tx_skb(struct rxe_dev *rxe, unsigned int hlen,
			   struct rvt_sge_state *ss, u32 plen, bool inplace);
int rxe_xmit_skb(struct rxe_dev *rxe, struct sk_buff *skb,
		 const struct ib_gid_attr *sgid_attr,
		 const struct rdma_ah_attr *av, u16 sport);
u32 rxe_icrc_skb(enum rxe_nh nh, const void *nhdr, const struct sk_buff *skb,
		 unsigned int bth_off, unsigned int len);

/* rxe_recv.c */
void rxe_rcv(struct rxe_dev *rxe, struct sk_buff *skb, enum rxe_nh nh,
	     bool icrc);
enum ib_wc_status rxe_pkt_payload(const struct rxe_pkt *pkt,
				  enum ib_wc_status (*sink)(void *arg, u32 off,
							    const void *data,
							    u32 len),
				  void *arg);

/* rxe_ud.c */
int rxe_xmit_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe);
void rxe_xmit_flush(struct rvt_qp *qp);
void rxe_xmit_stop(struct rvt_qp *qp);
void *rxe_qp_priv_alloc(struct rvt_dev_info *rdi, struct rvt_qp *qp);
void rxe_qp_priv_free(struct rvt_dev_info *rdi, struct rvt_qp *qp);
void rxe_ud_recv(struct rxe_pkt *pkt, struct rvt_qp *qp);

/* rxe_mcast.c */
void rxe_mcast_mac(const union ib_gid *mgid, u8 *mac);
int rxe_attach_mcast(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid);
int rxe_detach_mcast(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid);
void rxe_mcast_recv(struct rxe_pkt *pkt);

/* rxe_uring.c */
void rxe_uring_hooks(struct rvt_dev_info *rdi);
void rxe_modify_qp(struct rvt_qp *qp, struct ib_qp_attr *attr, int mask,
		   struct ib_udata *udata);
bool rxe_uring_cq_push(struct rxe_uring *r, const struct ib_wc *wc);
bool rxe_uring_recv_take(struct rxe_uring *r, u32 max_sge,
			 struct rvt_rwqe *wqe);
void rxe_uring_send_wr(const struct rxe_send_wqe *w, u32 max_sge,
		       u32 max_inline, struct rvt_ring_wr *rwr,
		       struct ib_sge *sges);

/* rxe_rc.c */
int rxe_rc_init(struct rvt_qp *qp, struct rxe_qp_priv *priv);
void rxe_rc_xmit(struct rvt_qp *qp, struct rvt_swqe *wqe);
void rxe_rc_flush(struct rvt_qp *qp);
void rxe_rc_stop(struct rvt_qp *qp);
void rxe_rc_modify(struct rvt_qp *qp, struct ib_qp_attr *attr, int mask,
		   struct ib_udata *udata);
void rxe_rc_recv_req(struct rxe_pkt *pkt, struct rvt_qp *qp);
void rxe_rc_recv_resp(struct rxe_pkt *pkt, struct rvt_qp *qp);

#endif /* RXE_H */
