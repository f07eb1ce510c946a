/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * siw: soft-iWARP on the rdmavt verbs engine.  Private declarations of
 * the module.
 *
 * A siw device is an rdmavt device with one port bound to one net
 * device.  rdmavt owns the verbs objects and the work request engine;
 * siw owns what makes it iWARP: the device and port attributes, the
 * binding to the net device, and (as they land) MPA connection setup and
 * the DDP/RDMAP segments on TCP sockets.
 */
#ifndef SIW_H
#define SIW_H

#include <linux/etherdevice.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <rdma/rdma_vt.h>

/* the one port of a siw device */
#define SIW_PORT		1

/*
 * Device limits, as upstream siw advertises them (an application that
 * sizes its queues from query_device sees the same numbers on both).
 */
#define SIW_VENDOR_ID		0x626d74	/* "bmt" */
#define SIW_MAX_QP		(1024 * 100)
#define SIW_MAX_QP_WR		(1024 * 32)
#define SIW_MAX_ORD_QP		128
#define SIW_MAX_IRD_QP		128
#define SIW_MAX_SGE		6
#define SIW_MAX_SGE_PBL		256
#define SIW_MAX_SGE_RD		1
#define SIW_MAX_CQ		(1024 * 100)
#define SIW_MAX_CQE		(SIW_MAX_QP_WR * 100)
#define SIW_MAX_MR		(SIW_MAX_QP * 10)
#define SIW_MAX_PD		SIW_MAX_QP
/* user contexts of a device, as upstream */
#define SIW_MAX_CONTEXT		SIW_MAX_PD
#define SIW_MAX_SRQ		SIW_MAX_QP
#define SIW_MAX_SRQ_WR		(SIW_MAX_QP_WR * 10)
#define SIW_NODE_DESC		"Software iWARP stack"

/**
 * struct siw_device - one soft-iWARP device
 * @rdi: the rdmavt device, first
 * @port: rdmavt's state of the one port
 * @raw_gid: the port's GID in its first six bytes: the net device's MAC
 *	when the device was made (random for net devices without one);
 *	fixed for the device's life, as upstream's
 * @vendor_part_id: a number per device made since the module loaded
 * @num_ctx: its user contexts (at most SIW_MAX_CONTEXT)
 * @next_cq_id: the ID the next user CQ is told (libsiw prints it)
 * @cep_lock: protects @ceps; innermost (siw_cm.c)
 * @ceps: every connection endpoint of the device (struct siw_cep); each
 *	holds a reference on the device's memory until it is freed
 * @conns: the endpoint bound to each QP, by QP number (its own lock;
 *	RCU readers)
 */
struct siw_device {
	struct rvt_dev_info	rdi;
	struct rvt_ibport	port;
	u8			raw_gid[ETH_ALEN];
	u32			vendor_part_id;
	atomic_t		num_ctx;
	atomic_t		next_cq_id;
	spinlock_t		cep_lock;	/* see @cep_lock above */
	struct list_head	ceps;
	struct xarray		conns;
};

static inline struct siw_device *to_siw_dev(struct ib_device *ibdev)
{
	return container_of(ib_to_rvt(ibdev), struct siw_device, rdi);
}

/* siw_main.c */
extern bool siw_port_map;
extern unsigned int siw_gso_seg_limit;
extern bool siw_zcopy_tx;

/* siw_dev.c */
bool siw_netdev_qualified(const struct net_device *ndev);
int siw_device_add(const char *name, struct net_device *ndev);
void siw_port_event(struct siw_device *sdev, enum ib_event_type type);

/* siw_uring.c: the user ABI (libsiw's mapped queues) */
struct rvt_ring_wr;
struct siw_cqe;
struct siw_sqe;
void siw_uring_hooks(struct rvt_dev_info *rdi);
void siw_uring_modify_qp(struct rvt_qp *qp, struct ib_qp_attr *attr, int mask);
u8 siw_uring_cqe_fill(struct siw_cqe *cqe, const struct ib_wc *wc);
void siw_uring_send_wr(const struct siw_sqe *sqe, struct rvt_ring_wr *rwr,
		       struct ib_sge *sges);

#endif /* SIW_H */
