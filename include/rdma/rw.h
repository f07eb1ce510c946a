/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_rw: RDMA READ and WRITE of a scatterlist for ULPs (iSER target,
 * SRP target, NVMe-oF target, ...).  The core picks how to describe the
 * local memory: SGEs under the PD's local DMA lkey, or fast registration
 * MRs taken from the QP's pools.  See Documentation/core/rw.rst.
 */
#ifndef RDMA_RW_H
#define RDMA_RW_H

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/mr_pool.h>

/**
 * struct rdma_rw_reg_ctx - one MR registration of an rdma_rw context
 * @sge: the SGE covering the registered range
 * @wr: the RDMA READ or WRITE using @sge
 * @reg_wr: the IB_WR_REG_MR (or IB_WR_REG_MR_INTEGRITY) before @wr
 * @inv_wr: the IB_WR_LOCAL_INV before @reg_wr when the MR's previous
 *	registration is still live
 * @mr: the MR, from the QP's pool
 */
struct rdma_rw_reg_ctx {
	struct ib_sge		sge;
	struct ib_rdma_wr	wr;
	struct ib_reg_wr	reg_wr;
	struct ib_send_wr	inv_wr;
	struct ib_mr		*mr;
};

/**
 * struct rdma_rw_ctx - the work requests of one RDMA READ or WRITE
 * @nr_ops: RDMA READ/WRITE requests (not counting registrations)
 * @type: which member of the union is in use (core private)
 * @single: one SGE, one request
 * @single.sge: the SGE
 * @single.wr: the request
 * @map: several SGEs, split into requests of the QP's SGE limit
 * @map.sges: the SGEs
 * @map.wrs: @nr_ops requests
 * @reg: @nr_ops registrations, each with its request
 */
struct rdma_rw_ctx {
	u32			nr_ops;
	u8			type;

	union {
		struct {
			struct ib_sge		sge;
			struct ib_rdma_wr	wr;
		} single;

		struct {
			struct ib_sge		*sges;
			struct ib_rdma_wr	*wrs;
		} map;

		struct rdma_rw_reg_ctx	*reg;
	};
};

int rdma_rw_ctx_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct scatterlist *sg, u32 sg_cnt, u32 sg_offset,
		     u64 remote_addr, u32 rkey, enum dma_data_direction dir);
void rdma_rw_ctx_destroy(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			 enum dma_data_direction dir);

int rdma_rw_ctx_signature_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			       u32 port_num, struct scatterlist *sg,
			       u32 sg_cnt, struct scatterlist *prot_sg,
			       u32 prot_sg_cnt, struct ib_sig_attrs *sig_attrs,
			       u64 remote_addr, u32 rkey,
			       enum dma_data_direction dir);
void rdma_rw_ctx_destroy_signature(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct scatterlist *sg,
				   u32 sg_cnt, struct scatterlist *prot_sg,
				   u32 prot_sg_cnt,
				   enum dma_data_direction dir);

struct ib_send_wr *rdma_rw_ctx_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct ib_cqe *cqe,
				   struct ib_send_wr *chain_wr);
int rdma_rw_ctx_post(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct ib_cqe *cqe, struct ib_send_wr *chain_wr);

unsigned int rdma_rw_mr_factor(struct ib_device *device, u32 port_num,
			       unsigned int maxpages);
unsigned int rdma_rw_max_send_wr(struct ib_device *dev, u32 port_num,
				 unsigned int max_rdma_ctxs, u32 create_flags);
void rdma_rw_init_qp(struct ib_device *dev, struct ib_qp_init_attr *attr);
int rdma_rw_init_mrs(struct ib_qp *qp, struct ib_qp_init_attr *attr);
void rdma_rw_cleanup_mrs(struct ib_qp *qp);

#endif /* RDMA_RW_H */
