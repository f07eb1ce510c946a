/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_verbs_bench: what its files share.  vb_main.c has the overview:
 * the debugfs syntax, the method and the result format.
 *
 * Only the public kernel RDMA API is used, so that the same files build
 * against our include/ and against upstream's (Kbuild.upstream).  The
 * rdma_cm part (vb_cm.c) is built only when VB_RDMA_CM is defined.
 */
#ifndef VB_H
#define VB_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

#define VB_MAX_SIZE		SZ_64K
/* each side's buffer: the data, then the area read back to check it */
#define VB_BUF_SIZE		(2 * VB_MAX_SIZE)
#define VB_CHECK_OFF		VB_MAX_SIZE
#define VB_MAX_DEPTH		128
#define VB_QP_WR		(2 * VB_MAX_DEPTH)
#define VB_RECVS		VB_QP_WR
#define VB_CQE			(2 * VB_QP_WR)
#define VB_MAX_ITERS		1000000
#define VB_WARMUP		20
#define VB_TIMEOUT_MS		60000
#define VB_RD_ATOMIC		16
#define VB_RESULT_SIZE		16384
#define VB_NAME_LEN		64
/* a server waits this long for its client (all of its connections) */
#define VB_SERVER_TIMEOUT_S	300
/* a client retries a refused or unreachable connect this long */
#define VB_CONNECT_RETRY_S	30

struct rdma_cm_id;

enum vb_mode {
	VB_PAIR,
	VB_SERVER,
	VB_CLIENT,
	VB_TCP_PAIR,
	VB_TCP_SERVER,
	VB_TCP_CLIENT,
};

enum vb_op { VB_SEND, VB_WRITE, VB_READ, VB_OPS };

extern const char *const vb_op_name[VB_OPS];
extern const u32 vb_sizes[3];

/* One run: its command, its counters and where its report goes. */
struct vb_run {
	enum vb_mode	mode;
	char		dev0[VB_NAME_LEN];	/* requester, or the server's */
	char		dev1[VB_NAME_LEN];	/* responder (pair) */
	__be32		peer;			/* client: the server's IPv4 */
	u16		port;			/* server, client: the port */
	unsigned int	lat;
	unsigned int	rate;
	unsigned int	cpu;
	unsigned int	depth;
	u64		bg_ppm;
	u64		*samples;
	char		*out;
	size_t		at;
	int		err;
	/* data checks: rows checked, rows that failed, the first failure */
	unsigned int	checked;
	unsigned int	bad;
	char		first_bad[VB_NAME_LEN];
	/* the columns of the vb-result lines: "ib loop", "tcp tcp" */
	const char	*transport;
	char		driver[VB_NAME_LEN];
};

/*
 * One end of an RC connection in this kernel: a device, its PD, one CQ
 * for both queues, the QP and a buffer mapped for the device.  The
 * requester uses send_cqe, the responder recv_cqe (receives, each
 * reposted by its done callback).
 */
struct vb_side {
	struct ib_device	*dev;
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	struct ib_qp		*qp;
	void			*buf;
	u64			dma;
	enum ib_poll_context	poll;
	struct ib_cqe		send_cqe;
	struct ib_cqe		recv_cqe;
	struct ib_sge		recv_sge;
	/* work requests posted and not completed yet */
	atomic_t		outstanding;
	/* send completions since the side was made */
	atomic_t		done;
	atomic_t		errors;
	int			first_status;
	/* the send callback reposts while posted < target (CPU runs) */
	struct ib_rdma_wr	repost_wr;
	struct ib_sge		repost_sge;
	atomic_t		posted;
	int			target;
	bool			repost;
	bool			stopping;
	struct completion	all_done;
};

/*
 * What the measurement needs of a connection: the requester, and where
 * the responder's buffer is (its address and rkey).  @priv belongs to
 * the backend that made it (struct vb_transport).
 */
struct vb_conn {
	struct vb_side	*req;
	u64		raddr;
	u32		rkey;
	void		*priv;
};

/*
 * How connections of a run are made: directly with ib_modify_qp() (IB,
 * RoCE) or through rdma_cm.  @last tells a server that this is the
 * client's last connection.
 */
struct vb_transport {
	int (*connect)(const struct vb_transport *t, struct vb_run *r,
		       enum ib_poll_context poll, struct vb_conn *c, bool last);
	void (*disconnect)(const struct vb_transport *t, struct vb_run *r,
			   struct vb_conn *c);
	void *priv;
};

/* vb_main.c */
__printf(2, 3) void vb_out(struct vb_run *r, const char *fmt, ...);
void vb_out_us(struct vb_run *r, u64 ns);
void vb_result(struct vb_run *r, const char *op, u32 size,
	       const char *metric, const char *fmt, ...) __printf(5, 6);
void vb_result_us(struct vb_run *r, const char *op, u32 size,
		  const char *metric, u64 ns);
void vb_check_done(struct vb_run *r, const char *what, u32 size, bool ok);
void vb_row_table(struct vb_run *r, const char *name, u32 size, s64 ns,
		  bool bad);
void vb_row_results(struct vb_run *r, const char *name, u32 size, s64 ns);
void vb_table_head(struct vb_run *r, const char *how);
u64 vb_pct(const u64 *s, unsigned int n, unsigned int pct);
int vb_cmp_u64(const void *a, const void *b);

/* vb_verbs.c */
int vb_side_init(struct vb_side *s, struct ib_device *dev,
		 enum ib_poll_context poll);
void vb_qp_init_attr(struct vb_side *s, struct ib_qp_init_attr *attr);
int vb_side_post_recvs(struct vb_side *s);
void vb_side_stop(struct vb_side *s);
void vb_side_put(struct vb_side *s);
u8 vb_rd_atomic(struct ib_device *dev);
void vb_set_columns(struct vb_run *r, struct ib_device *dev);
void vb_rdma_run(struct vb_run *r, const struct vb_transport *t);
int vb_pair_run(struct vb_run *r);

/* vb_tcp.c */
int vb_tcp_run(struct vb_run *r);

/* vb_cm.c, only in builds with rdma_cm */
#if defined(VB_RDMA_CM) && VB_RDMA_CM
int vb_cm_pair_run(struct vb_run *r);
int vb_cm_server_run(struct vb_run *r);
int vb_cm_client_run(struct vb_run *r);
#define VB_HAVE_CM	1
#else
#define VB_HAVE_CM	0
#endif

#endif /* VB_H */
