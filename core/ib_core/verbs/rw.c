// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_rw: build and post the work requests of an RDMA READ or WRITE of
 * a local scatterlist to a remote buffer (remote_addr, rkey).
 *
 * The local side is described one of three ways:
 *  - one SGE under the PD's local DMA lkey (a single mapped entry),
 *  - SGE lists under the local DMA lkey, split into requests of at most
 *    qp->max_write_sge (WRITE) or qp->max_read_sge (READ) entries,
 *  - fast registration MRs from the QP's rdma_mrs pool, each with an
 *    IB_WR_REG_MR (and an IB_WR_LOCAL_INV first when its previous
 *    registration is still live) chained before its READ or WRITE.
 * MRs are used where the transport or the device needs them (iWARP
 * READ sinks must be registered; devices with max_sgl_rd want them above
 * that many entries) or when the force_mr parameter of ib_core says so.
 *
 * P2PDMA memory is not supported: the scatterlist is mapped with
 * ib_dma_map_sgtable_attrs() whatever its pages are.
 */

#include <linux/export.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <rdma/mr_pool.h>
#include <rdma/rw.h>

#include "rw_priv.h"

/* rdma_rw_ctx.type */
enum {
	RDMA_RW_SINGLE_WR,
	RDMA_RW_MULTI_WR,
	RDMA_RW_MR,
	RDMA_RW_SIG_MR,
};

/*
 * Register memory for every RDMA READ and WRITE, also where SGEs would
 * do: a debugging aid that exercises the MR path on any device.  Only
 * QPs created while it is set get the MR pool this needs.
 */
VISIBLE_IF_KUNIT bool rdma_rw_force_mr;
EXPORT_SYMBOL_IF_KUNIT(rdma_rw_force_mr);
module_param_named(force_mr, rdma_rw_force_mr, bool, 0);
MODULE_PARM_DESC(force_mr, "Force usage of MRs for RDMA READ/WRITE operations");

/* May rdma_rw use MRs on this port (so that QPs need an MR pool)? */
static bool rdma_rw_can_use_mr(struct ib_device *dev, u32 port_num)
{
	return rdma_protocol_iwarp(dev, port_num) || dev->attrs.max_sgl_rd ||
	       unlikely(rdma_rw_force_mr);
}

/* Must this transfer of @dma_nents mapped entries use MRs? */
static bool rdma_rw_io_needs_mr(struct ib_device *dev, u32 port_num,
				enum dma_data_direction dir, int dma_nents)
{
	if (dir == DMA_FROM_DEVICE) {
		/* an iWARP READ sink is written remotely: it needs an rkey */
		if (rdma_protocol_iwarp(dev, port_num))
			return true;
		if (dev->attrs.max_sgl_rd && dma_nents > dev->attrs.max_sgl_rd)
			return true;
	}
	return unlikely(rdma_rw_force_mr);
}

/* Scatterlist entries one MR of the pools maps (capped to stay small). */
static u32 rdma_rw_fr_page_list_len(struct ib_device *dev, bool pi_support)
{
	u32 max_pages = pi_support ? dev->attrs.max_pi_fast_reg_page_list_len :
				     dev->attrs.max_fast_reg_page_list_len;

	return min_t(u32, max_pages, 256);
}

/*
 * Chain a LOCAL_INV of the MR's current key before its registration
 * when that key may still be live; return the requests added.
 */
static int rdma_rw_inv_key(struct rdma_rw_reg_ctx *reg)
{
	if (!reg->mr->need_inval) {
		reg->inv_wr.next = NULL;
		return 0;
	}
	reg->inv_wr.opcode = IB_WR_LOCAL_INV;
	reg->inv_wr.ex.invalidate_rkey = reg->mr->lkey;
	reg->inv_wr.next = &reg->reg_wr.wr;
	return 1;
}

/* A fresh key for each registration, so stale remote keys fail. */
static void rdma_rw_update_lkey(struct rdma_rw_reg_ctx *reg, bool need_inval)
{
	reg->mr->need_inval = need_inval;
	ib_update_fast_reg_key(reg->mr, ib_inc_rkey(reg->mr->lkey) & 0xff);
	reg->reg_wr.key = reg->mr->lkey;
	reg->sge.lkey = reg->mr->lkey;
	/* a READ_WITH_INV names the registration it ends: this one */
	if (reg->wr.wr.opcode == IB_WR_RDMA_READ_WITH_INV)
		reg->wr.wr.ex.invalidate_rkey = reg->mr->lkey;
}

/* Take an MR and map up to one MR's worth of @sg into it (@reg zeroed). */
static int rdma_rw_init_one_mr(struct ib_qp *qp, u32 port_num,
			       struct rdma_rw_reg_ctx *reg,
			       struct scatterlist *sg, u32 sg_cnt, u32 offset)
{
	u32 nents = min(sg_cnt, rdma_rw_fr_page_list_len(qp->pd->device,
							 qp->integrity_en));
	int count, ret;

	reg->mr = ib_mr_pool_get(qp, &qp->rdma_mrs);
	if (!reg->mr)
		return -EAGAIN;

	count = rdma_rw_inv_key(reg);

	ret = ib_map_mr_sg(reg->mr, sg, nents, &offset, PAGE_SIZE);
	if (ret < 0 || ret < nents) {
		ib_mr_pool_put(qp, &qp->rdma_mrs, reg->mr);
		return -EINVAL;
	}

	reg->reg_wr.wr.opcode = IB_WR_REG_MR;
	reg->reg_wr.mr = reg->mr;
	reg->reg_wr.access = IB_ACCESS_LOCAL_WRITE;
	if (rdma_protocol_iwarp(qp->device, port_num))
		reg->reg_wr.access |= IB_ACCESS_REMOTE_WRITE;

	reg->sge.addr = reg->mr->iova;
	reg->sge.length = reg->mr->length;
	return count + 1;
}

static int rdma_rw_init_mr_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			       u32 port_num, struct scatterlist *sg,
			       u32 sg_cnt, u32 offset, u64 remote_addr,
			       u32 rkey, enum dma_data_direction dir)
{
	u32 pages_per_mr = rdma_rw_fr_page_list_len(qp->pd->device,
						    qp->integrity_en);
	struct rdma_rw_reg_ctx *prev = NULL;
	int i, j, ret, count = 0;

	ctx->nr_ops = DIV_ROUND_UP(sg_cnt, pages_per_mr);
	ctx->reg = kcalloc(ctx->nr_ops, sizeof(*ctx->reg), GFP_KERNEL);
	if (!ctx->reg)
		return -ENOMEM;

	for (i = 0; i < ctx->nr_ops; i++) {
		struct rdma_rw_reg_ctx *reg = &ctx->reg[i];
		u32 nents = min(sg_cnt, pages_per_mr);

		ret = rdma_rw_init_one_mr(qp, port_num, reg, sg, sg_cnt,
					  offset);
		if (ret < 0)
			goto err_put_mrs;
		count += ret;

		if (prev)
			prev->wr.wr.next = reg->mr->need_inval ?
					   &reg->inv_wr : &reg->reg_wr.wr;
		reg->reg_wr.wr.next = &reg->wr.wr;

		reg->wr.wr.sg_list = &reg->sge;
		reg->wr.wr.num_sge = 1;
		reg->wr.remote_addr = remote_addr;
		reg->wr.rkey = rkey;
		if (dir == DMA_TO_DEVICE) {
			reg->wr.wr.opcode = IB_WR_RDMA_WRITE;
		} else if (rdma_cap_read_inv(qp->device, port_num)) {
			/* the READ ends the registration of its sink */
			reg->wr.wr.opcode = IB_WR_RDMA_READ_WITH_INV;
			reg->wr.wr.ex.invalidate_rkey = reg->mr->lkey;
		} else {
			reg->wr.wr.opcode = IB_WR_RDMA_READ;
		}
		count++;

		remote_addr += reg->sge.length;
		sg_cnt -= nents;
		for (j = 0; j < nents; j++)
			sg = sg_next(sg);
		offset = 0;
		prev = reg;
	}

	ctx->type = RDMA_RW_MR;
	return count;

err_put_mrs:
	while (--i >= 0)
		ib_mr_pool_put(qp, &qp->rdma_mrs, ctx->reg[i].mr);
	kfree(ctx->reg);
	return ret;
}

static int rdma_rw_init_map_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				struct scatterlist *sg, u32 sg_cnt, u32 offset,
				u64 remote_addr, u32 rkey,
				enum dma_data_direction dir)
{
	u32 max_sge = dir == DMA_TO_DEVICE ? qp->max_write_sge :
					     qp->max_read_sge;
	struct ib_sge *sge;
	u64 done = 0;
	u32 i, j;

	if (unlikely(!max_sge))
		return -EINVAL;

	ctx->nr_ops = DIV_ROUND_UP(sg_cnt, max_sge);
	ctx->map.sges = kcalloc(sg_cnt, sizeof(*ctx->map.sges), GFP_KERNEL);
	if (!ctx->map.sges)
		return -ENOMEM;
	ctx->map.wrs = kcalloc(ctx->nr_ops, sizeof(*ctx->map.wrs), GFP_KERNEL);
	if (!ctx->map.wrs)
		goto err_free_sges;

	sge = ctx->map.sges;
	for (i = 0; i < ctx->nr_ops; i++) {
		struct ib_rdma_wr *wr = &ctx->map.wrs[i];
		u32 nr_sge = min(sg_cnt, max_sge);

		wr->wr.opcode = dir == DMA_TO_DEVICE ? IB_WR_RDMA_WRITE :
						       IB_WR_RDMA_READ;
		wr->remote_addr = remote_addr + done;
		wr->rkey = rkey;
		wr->wr.sg_list = sge;
		wr->wr.num_sge = nr_sge;
		if (i + 1 < ctx->nr_ops)
			wr->wr.next = &ctx->map.wrs[i + 1].wr;

		for (j = 0; j < nr_sge; j++, sge++, sg = sg_next(sg)) {
			sge->addr = sg_dma_address(sg) + offset;
			sge->length = sg_dma_len(sg) - offset;
			sge->lkey = qp->pd->local_dma_lkey;
			done += sge->length;
			offset = 0;
		}
		sg_cnt -= nr_sge;
	}

	ctx->type = RDMA_RW_MULTI_WR;
	return ctx->nr_ops;

err_free_sges:
	kfree(ctx->map.sges);
	return -ENOMEM;
}

static int rdma_rw_init_single_wr(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				  struct scatterlist *sg, u32 offset,
				  u64 remote_addr, u32 rkey,
				  enum dma_data_direction dir)
{
	struct ib_rdma_wr *wr = &ctx->single.wr;

	ctx->nr_ops = 1;
	ctx->single.sge.addr = sg_dma_address(sg) + offset;
	ctx->single.sge.length = sg_dma_len(sg) - offset;
	ctx->single.sge.lkey = qp->pd->local_dma_lkey;

	memset(wr, 0, sizeof(*wr));
	wr->wr.opcode = dir == DMA_TO_DEVICE ? IB_WR_RDMA_WRITE :
					       IB_WR_RDMA_READ;
	wr->wr.sg_list = &ctx->single.sge;
	wr->wr.num_sge = 1;
	wr->remote_addr = remote_addr;
	wr->rkey = rkey;

	ctx->type = RDMA_RW_SINGLE_WR;
	return 1;
}

/**
 * rdma_rw_ctx_init - prepare an RDMA READ or WRITE of a scatterlist
 * @ctx: the context to fill
 * @qp: the QP the requests go to
 * @port_num: the port the QP's connection is on
 * @sg: the local scatterlist, not yet DMA mapped
 * @sg_cnt: its entries
 * @sg_offset: bytes of @sg to skip
 * @remote_addr: the remote address (as @rkey names it)
 * @rkey: the remote key
 * @dir: %DMA_TO_DEVICE for an RDMA WRITE, %DMA_FROM_DEVICE for a READ
 *
 * Maps @sg for DMA and builds the work requests; nothing is posted yet
 * (rdma_rw_ctx_post() or rdma_rw_ctx_wrs()).  Undo with
 * rdma_rw_ctx_destroy() after the completion.
 *
 * Context: Process context; may sleep (GFP_KERNEL allocations of the request
 * arrays). Takes the QP's mr_lock, interrupts saved, to take MRs from its
 * pool.
 *
 * Return: the number of send queue entries the requests take, or a
 * negative error: -EIO when @sg maps nothing or @sg_offset is past its
 * end, -EAGAIN when the QP's MR pool is empty, -ENOMEM.
 */
int rdma_rw_ctx_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct scatterlist *sg, u32 sg_cnt, u32 sg_offset,
		     u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	struct ib_device *dev = qp->pd->device;
	struct sg_table sgt = { .sgl = sg, .orig_nents = sg_cnt };
	int ret;

	if (unlikely(!sg_cnt))
		return -EIO;
	ret = ib_dma_map_sgtable_attrs(dev, &sgt, dir, 0);
	if (ret)
		return ret;
	sg_cnt = sgt.nents;

	/* start at the entry @sg_offset falls into */
	ret = -EIO;
	while (sg_offset >= sg_dma_len(sg)) {
		sg_offset -= sg_dma_len(sg);
		if (!--sg_cnt)
			goto err_unmap;
		sg = sg_next(sg);
	}

	if (rdma_rw_io_needs_mr(qp->device, port_num, dir, sg_cnt))
		ret = rdma_rw_init_mr_wrs(ctx, qp, port_num, sg, sg_cnt,
					  sg_offset, remote_addr, rkey, dir);
	else if (sg_cnt > 1)
		ret = rdma_rw_init_map_wrs(ctx, qp, sg, sg_cnt, sg_offset,
					   remote_addr, rkey, dir);
	else
		ret = rdma_rw_init_single_wr(ctx, qp, sg, sg_offset,
					     remote_addr, rkey, dir);
	if (ret < 0)
		goto err_unmap;
	return ret;

err_unmap:
	ib_dma_unmap_sgtable_attrs(dev, &sgt, dir, 0);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_ctx_init);

/**
 * rdma_rw_ctx_signature_init - prepare an RDMA READ or WRITE with
 *	integrity (T10-PI) offload
 * @ctx: the context to fill
 * @qp: the QP, created with IB_QP_CREATE_INTEGRITY_EN and max_rdma_ctxs
 * @port_num: the port the QP's connection is on
 * @sg: the data scatterlist, not yet DMA mapped
 * @sg_cnt: its entries
 * @prot_sg: the protection information scatterlist, or NULL
 * @prot_sg_cnt: its entries, 0 for none
 * @sig_attrs: what the MR checks and inserts
 * @remote_addr: the remote address (as @rkey names it)
 * @rkey: the remote key
 * @dir: %DMA_TO_DEVICE for an RDMA WRITE, %DMA_FROM_DEVICE for a READ
 *
 * One integrity MR from qp->sig_mrs covers data and protection
 * information; an IB_WR_REG_MR_INTEGRITY precedes the READ or WRITE.
 * Undo with rdma_rw_ctx_destroy_signature().
 *
 * Context: Process context; may sleep (GFP_KERNEL allocation). Takes the QP's
 * mr_lock, interrupts saved, to take an MR from its pool.
 *
 * Return: the number of send queue entries the requests take, or a
 * negative error: -EOPNOTSUPP when the QP has no integrity offload
 * (upstream returns -EAGAIN from the empty pool there), -EINVAL when a
 * list is longer than an MR maps, -EAGAIN when the pool is empty.
 */
int rdma_rw_ctx_signature_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			       u32 port_num, struct scatterlist *sg,
			       u32 sg_cnt, struct scatterlist *prot_sg,
			       u32 prot_sg_cnt, struct ib_sig_attrs *sig_attrs,
			       u64 remote_addr, u32 rkey,
			       enum dma_data_direction dir)
{
	struct ib_device *dev = qp->pd->device;
	u32 pages_per_mr = rdma_rw_fr_page_list_len(dev, qp->integrity_en);
	struct sg_table sgt = { .sgl = sg, .orig_nents = sg_cnt };
	struct sg_table prot_sgt = { .sgl = prot_sg,
				     .orig_nents = prot_sg_cnt };
	struct rdma_rw_reg_ctx *reg;
	int count, ret;

	if (!qp->integrity_en ||
	    !(dev->attrs.kernel_cap_flags & IBK_INTEGRITY_HANDOVER))
		return -EOPNOTSUPP;
	if (!sg_cnt || sg_cnt > pages_per_mr || prot_sg_cnt > pages_per_mr)
		return -EINVAL;

	ret = ib_dma_map_sgtable_attrs(dev, &sgt, dir, 0);
	if (ret)
		return ret;
	if (prot_sg_cnt) {
		ret = ib_dma_map_sgtable_attrs(dev, &prot_sgt, dir, 0);
		if (ret)
			goto err_unmap_sg;
	}

	reg = kzalloc(sizeof(*reg), GFP_KERNEL);
	if (!reg) {
		ret = -ENOMEM;
		goto err_unmap_prot;
	}
	reg->mr = ib_mr_pool_get(qp, &qp->sig_mrs);
	if (!reg->mr) {
		ret = -EAGAIN;
		goto err_free_reg;
	}

	count = rdma_rw_inv_key(reg);
	*reg->mr->sig_attrs = *sig_attrs;

	ret = ib_map_mr_sg_pi(reg->mr, sg, sgt.nents, NULL, prot_sg,
			      prot_sgt.nents, NULL, SZ_4K);
	if (unlikely(ret))
		goto err_put_mr;

	reg->reg_wr.wr.opcode = IB_WR_REG_MR_INTEGRITY;
	reg->reg_wr.access = IB_ACCESS_LOCAL_WRITE;
	if (rdma_protocol_iwarp(qp->device, port_num))
		reg->reg_wr.access |= IB_ACCESS_REMOTE_WRITE;
	reg->reg_wr.mr = reg->mr;
	reg->reg_wr.key = reg->mr->lkey;
	reg->reg_wr.wr.next = &reg->wr.wr;
	count++;

	/* without wire protection the remote side sees the data only */
	reg->sge.addr = reg->mr->iova;
	reg->sge.length = reg->mr->length;
	if (sig_attrs->wire.sig_type == IB_SIG_TYPE_NONE)
		reg->sge.length -= reg->mr->sig_attrs->meta_length;

	reg->wr.wr.sg_list = &reg->sge;
	reg->wr.wr.num_sge = 1;
	reg->wr.wr.opcode = dir == DMA_TO_DEVICE ? IB_WR_RDMA_WRITE :
						   IB_WR_RDMA_READ;
	reg->wr.remote_addr = remote_addr;
	reg->wr.rkey = rkey;
	count++;

	ctx->type = RDMA_RW_SIG_MR;
	ctx->nr_ops = 1;
	ctx->reg = reg;
	return count;

err_put_mr:
	ib_mr_pool_put(qp, &qp->sig_mrs, reg->mr);
err_free_reg:
	kfree(reg);
err_unmap_prot:
	if (prot_sg_cnt)
		ib_dma_unmap_sgtable_attrs(dev, &prot_sgt, dir, 0);
err_unmap_sg:
	ib_dma_unmap_sgtable_attrs(dev, &sgt, dir, 0);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_ctx_signature_init);

/**
 * rdma_rw_ctx_wrs - the work request chain of a context
 * @ctx: a context from rdma_rw_ctx_init() or rdma_rw_ctx_signature_init()
 * @qp: its QP
 * @port_num: its port
 * @cqe: completion of the last READ/WRITE, used when @chain_wr is NULL
 * @chain_wr: requests to run after the context's, or NULL
 *
 * Gives every MR a fresh key.  With @chain_wr the context's requests are
 * followed by it and none is signaled (the caller signals its own);
 * without, the last request is signaled to @cqe.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the first request, to post with ib_post_send().
 */
struct ib_send_wr *rdma_rw_ctx_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct ib_cqe *cqe,
				   struct ib_send_wr *chain_wr)
{
	struct ib_send_wr *first_wr, *last_wr;
	u32 i;

	switch (ctx->type) {
	case RDMA_RW_SIG_MR:
	case RDMA_RW_MR:
		for (i = 0; i < ctx->nr_ops; i++) {
			struct rdma_rw_reg_ctx *reg = &ctx->reg[i];

			/* a READ_WITH_INV leaves nothing to invalidate */
			rdma_rw_update_lkey(reg, reg->wr.wr.opcode !=
						 IB_WR_RDMA_READ_WITH_INV);
		}
		first_wr = ctx->reg[0].inv_wr.next ? &ctx->reg[0].inv_wr :
						     &ctx->reg[0].reg_wr.wr;
		last_wr = &ctx->reg[ctx->nr_ops - 1].wr.wr;
		break;
	case RDMA_RW_MULTI_WR:
		first_wr = &ctx->map.wrs[0].wr;
		last_wr = &ctx->map.wrs[ctx->nr_ops - 1].wr;
		break;
	case RDMA_RW_SINGLE_WR:
		first_wr = &ctx->single.wr.wr;
		last_wr = &ctx->single.wr.wr;
		break;
	default:
		WARN_ONCE(1, "rdma_rw: context of unknown type %u\n", ctx->type);
		return NULL;
	}

	if (chain_wr) {
		last_wr->next = chain_wr;
	} else {
		last_wr->wr_cqe = cqe;
		last_wr->send_flags |= IB_SEND_SIGNALED;
	}
	return first_wr;
}
EXPORT_SYMBOL(rdma_rw_ctx_wrs);

/**
 * rdma_rw_ctx_post - post the work requests of a context
 * @ctx: a context from rdma_rw_ctx_init() or rdma_rw_ctx_signature_init()
 * @qp: its QP
 * @port_num: its port
 * @cqe: completion of the last READ/WRITE, used when @chain_wr is NULL
 * @chain_wr: requests to post after the context's, or NULL
 *
 * Context: Any context; does not sleep. ib_post_send() takes the driver's send
 * queue lock.
 *
 * Return: 0 or the ib_post_send() error.
 */
int rdma_rw_ctx_post(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct ib_cqe *cqe, struct ib_send_wr *chain_wr)
{
	struct ib_send_wr *first_wr;

	first_wr = rdma_rw_ctx_wrs(ctx, qp, port_num, cqe, chain_wr);
	if (!first_wr)
		return -EINVAL;
	return ib_post_send(qp, first_wr, NULL);
}
EXPORT_SYMBOL(rdma_rw_ctx_post);

/**
 * rdma_rw_ctx_destroy - release a context from rdma_rw_ctx_init()
 * @ctx: the context; its requests have completed (or were never posted)
 * @qp: its QP
 * @port_num: its port
 * @sg: the scatterlist given to rdma_rw_ctx_init()
 * @sg_cnt: its entries, as given to rdma_rw_ctx_init()
 * @dir: the direction given to rdma_rw_ctx_init()
 *
 * Returns the MRs to the QP's pool and unmaps @sg.
 *
 * Context: Any context, e.g. a completion handler; does not sleep. Takes the
 * QP's mr_lock, interrupts saved, to return MRs to the pool.
 */
void rdma_rw_ctx_destroy(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			 enum dma_data_direction dir)
{
	u32 i;

	switch (ctx->type) {
	case RDMA_RW_MR:
		for (i = 0; i < ctx->nr_ops; i++)
			ib_mr_pool_put(qp, &qp->rdma_mrs, ctx->reg[i].mr);
		kfree(ctx->reg);
		break;
	case RDMA_RW_MULTI_WR:
		kfree(ctx->map.wrs);
		kfree(ctx->map.sges);
		break;
	case RDMA_RW_SINGLE_WR:
		break;
	default:
		WARN_ONCE(1, "rdma_rw: context of unknown type %u\n", ctx->type);
		return;
	}

	ib_dma_unmap_sg(qp->pd->device, sg, sg_cnt, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy);

/**
 * rdma_rw_ctx_destroy_signature - release a context from
 *	rdma_rw_ctx_signature_init()
 * @ctx: the context; its requests have completed (or were never posted)
 * @qp: its QP
 * @port_num: its port
 * @sg: the data scatterlist given at init
 * @sg_cnt: its entries
 * @prot_sg: the protection information scatterlist given at init
 * @prot_sg_cnt: its entries
 * @dir: the direction given at init
 *
 * Context: Any context, e.g. a completion handler; does not sleep. Takes the
 * QP's mr_lock, interrupts saved, to return the MR to the pool.
 */
void rdma_rw_ctx_destroy_signature(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct scatterlist *sg,
				   u32 sg_cnt, struct scatterlist *prot_sg,
				   u32 prot_sg_cnt,
				   enum dma_data_direction dir)
{
	if (WARN_ON_ONCE(ctx->type != RDMA_RW_SIG_MR))
		return;

	ib_mr_pool_put(qp, &qp->sig_mrs, ctx->reg->mr);
	kfree(ctx->reg);

	if (prot_sg_cnt)
		ib_dma_unmap_sg(qp->pd->device, prot_sg, prot_sg_cnt, dir);
	ib_dma_unmap_sg(qp->pd->device, sg, sg_cnt, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy_signature);

/**
 * rdma_rw_mr_factor - rdma_rw contexts (MRs or READ requests) one
 *	transfer of @maxpages pages may need
 * @device: the device
 * @port_num: its port
 * @maxpages: the largest transfer in pages
 *
 * ULPs multiply their queue depth by this to size max_rdma_ctxs.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the factor, at least 1 for @maxpages > 0.
 */
unsigned int rdma_rw_mr_factor(struct ib_device *device, u32 port_num,
			       unsigned int maxpages)
{
	unsigned int mr_pages;

	if (rdma_rw_can_use_mr(device, port_num))
		mr_pages = rdma_rw_fr_page_list_len(device, false);
	else
		mr_pages = device->attrs.max_sge_rd;
	return DIV_ROUND_UP(maxpages, mr_pages);
}
EXPORT_SYMBOL(rdma_rw_mr_factor);

/*
 * Send queue entries one rdma_rw context may take: its READ or WRITE,
 * plus a registration and an invalidation where MRs may be used.
 */
static u32 rdma_rw_wrs_per_ctx(struct ib_device *dev, u32 port_num,
			       u32 create_flags)
{
	if (create_flags & IB_QP_CREATE_INTEGRITY_EN ||
	    rdma_rw_can_use_mr(dev, port_num))
		return 3;	/* REG_MR + READ/WRITE + LOCAL_INV */
	return 1;
}

/**
 * rdma_rw_max_send_wr - send queue entries @max_rdma_ctxs contexts need
 * @dev: the device the QP will be on
 * @port_num: the port it will use
 * @max_rdma_ctxs: rdma_rw contexts the ULP keeps in flight
 * @create_flags: the QP's create flags (IB_QP_CREATE_INTEGRITY_EN counts)
 *
 * ULPs size their send queue and send CQ with this before creating the
 * QP.  Unlike rdma_rw_init_qp() the result is not capped at the device's
 * max_qp_wr.
 *
 * Context: any.
 * Return: the number of work requests, UINT_MAX if it overflows.
 */
unsigned int rdma_rw_max_send_wr(struct ib_device *dev, u32 port_num,
				 unsigned int max_rdma_ctxs, u32 create_flags)
{
	unsigned int wrs;

	if (check_mul_overflow(rdma_rw_wrs_per_ctx(dev, port_num,
						   create_flags),
			       max_rdma_ctxs, &wrs))
		return UINT_MAX;
	return wrs;
}
EXPORT_SYMBOL(rdma_rw_max_send_wr);

/**
 * rdma_rw_init_qp - add the send queue entries rdma_rw contexts need
 * @dev: the device the QP will be on
 * @attr: its creation attributes; cap.max_rdma_ctxs contexts and
 *	port_num must be set
 *
 * Every context takes one READ or WRITE, plus a registration and an
 * invalidation where MRs may be used.  cap.max_send_wr grows by that,
 * but not beyond the device's max_qp_wr.  ib_create_qp() calls this.
 *
 * Context: Any context; takes no lock and does not sleep.
 */
void rdma_rw_init_qp(struct ib_device *dev, struct ib_qp_init_attr *attr)
{
	u32 factor;

	WARN_ON_ONCE(!attr->port_num);

	factor = rdma_rw_wrs_per_ctx(dev, attr->port_num, attr->create_flags);
	attr->cap.max_send_wr += factor * attr->cap.max_rdma_ctxs;
	attr->cap.max_send_wr = min_t(u32, attr->cap.max_send_wr,
				      dev->attrs.max_qp_wr);
}
EXPORT_SYMBOL(rdma_rw_init_qp);

/**
 * rdma_rw_init_mrs - fill the MR pools of a new QP for rdma_rw
 * @qp: the QP
 * @attr: its creation attributes (cap.max_rdma_ctxs, create_flags,
 *	port_num)
 *
 * One MR per context in qp->rdma_mrs when rdma_rw may use MRs on the
 * port, and one integrity MR per context in qp->sig_mrs for
 * IB_QP_CREATE_INTEGRITY_EN.  ib_create_qp() calls this.
 *
 * Context: Process context; sleeps (ib_mr_pool_init() allocates the MRs).
 *
 * Return: 0, or an error after which both pools are empty.
 */
int rdma_rw_init_mrs(struct ib_qp *qp, struct ib_qp_init_attr *attr)
{
	struct ib_device *dev = qp->pd->device;
	u32 nr_mrs = 0, nr_sig_mrs = 0, max_num_sg = 0;
	int ret;

	if (attr->create_flags & IB_QP_CREATE_INTEGRITY_EN) {
		nr_sig_mrs = attr->cap.max_rdma_ctxs;
		nr_mrs = attr->cap.max_rdma_ctxs;
		max_num_sg = rdma_rw_fr_page_list_len(dev, true);
	} else if (rdma_rw_can_use_mr(dev, attr->port_num)) {
		nr_mrs = attr->cap.max_rdma_ctxs;
		max_num_sg = rdma_rw_fr_page_list_len(dev, false);
	}

	if (nr_mrs) {
		ret = ib_mr_pool_init(qp, &qp->rdma_mrs, nr_mrs,
				      IB_MR_TYPE_MEM_REG, max_num_sg, 0);
		if (ret) {
			pr_err("%s: failed to allocate %u MRs: %d\n",
			       dev_name(&dev->dev), nr_mrs, ret);
			return ret;
		}
	}

	if (nr_sig_mrs) {
		ret = ib_mr_pool_init(qp, &qp->sig_mrs, nr_sig_mrs,
				      IB_MR_TYPE_INTEGRITY, max_num_sg,
				      max_num_sg);
		if (ret) {
			pr_err("%s: failed to allocate %u integrity MRs: %d\n",
			       dev_name(&dev->dev), nr_sig_mrs, ret);
			goto err_destroy_rdma_mrs;
		}
	}
	return 0;

err_destroy_rdma_mrs:
	ib_mr_pool_destroy(qp, &qp->rdma_mrs);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_init_mrs);

/**
 * rdma_rw_cleanup_mrs - free the rdma_rw MR pools of a QP
 * @qp: the QP; every MR must be back in its pool
 *
 * ib_destroy_qp() calls this for kernel QPs.
 *
 * Context: Process context; sleeps (ib_mr_pool_destroy() deregisters the MRs).
 */
void rdma_rw_cleanup_mrs(struct ib_qp *qp)
{
	ib_mr_pool_destroy(qp, &qp->sig_mrs);
	ib_mr_pool_destroy(qp, &qp->rdma_mrs);
}
EXPORT_SYMBOL(rdma_rw_cleanup_mrs);
