// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder's RDMA WRITE, READ and FLUSH: the access the responder
 * QP grants its peer (InfiniBand and RoCE; on iWARP the STag alone
 * does, as upstream siw: librdmacm leaves an active side's user QP
 * without remote rights), the rkey check of the remote range (sge.c), and
 * the copy (a FLUSH: the barrier).  The in-memory delivery copies
 * between the requester's walk and the rkey'd region directly; a wire
 * driver places a tagged segment (rvt_write_place()) or fetches the
 * bytes of a READ response (rvt_read_fetch()) through the same checks.
 *
 * Context: any context but hard interrupts; nothing here sleeps.  The
 * checks read the responder's qp_access_flags without its state_lock: a
 * modify racing with a request is the request arriving before or after.
 */

#include <rdma/rdma_vt.h>

#include "vt.h"
#include "engine.h"

/*
 * Check a remote access to @len bytes at @vaddr under @rkey of the
 * responder @qp and make the walk @ss of it (referencing the MR).  A
 * zero length access checks the QP's access only: IBTA 9.4.4 lets it
 * name no valid rkey.
 */
static enum ib_wc_status rvt_resp_rkey(struct rvt_qp *qp,
				       struct rvt_sge_state *ss, u32 rkey,
				       u64 vaddr, u32 len, int acc)
{
	ss->sg_list = NULL;
	ss->num_sge = 0;
	ss->total_len = len;
	/* iWARP (RFC 5040): the STag carries the rights, the QP none */
	if (qp->rdi->ibdev.node_type != RDMA_NODE_RNIC &&
	    !(READ_ONCE(qp->qp_access_flags) & acc))
		return IB_WC_REM_ACCESS_ERR;
	if (!len)
		return IB_WC_SUCCESS;
	if (!rvt_rkey_ok(qp, &ss->sge, len, vaddr, rkey, acc))
		return IB_WC_REM_ACCESS_ERR;
	ss->num_sge = 1;
	return IB_WC_SUCCESS;
}

/**
 * rvt_write_place - place a tagged RDMA WRITE segment at the responder
 * @qp: the responder QP
 * @rkey: the steering tag of the segment
 * @vaddr: the tagged offset (the address the rkey's MR covers)
 * @data: the bytes, in kernel memory
 * @len: their number
 *
 * Checks that @qp grants IB_ACCESS_REMOTE_WRITE and that @rkey names a
 * valid registration of @qp's PD with remote write access covering the
 * whole range, then copies.  Nothing is copied when a check fails.
 *
 * Context: any context but hard interrupts; no QP lock needed (the key
 * table's lock, briefly; qp->s_lock on a miss).
 * Return: IB_WC_SUCCESS, or IB_WC_REM_ACCESS_ERR (the requester's status;
 * the responder QP goes to the error state: the driver reports it with
 * rvt_error_qp()), or RVT_WC_PAGE_MISS (a page of an on-demand paging
 * MR is being faulted in: the bytes before it may be placed, the segment
 * is to come again).
 */
enum ib_wc_status rvt_write_place(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				  const void *data, u32 len)
{
	struct rvt_sge_state ss;
	enum ib_wc_status status;

	status = rvt_resp_rkey(qp, &ss, rkey, vaddr, len,
			       IB_ACCESS_REMOTE_WRITE);
	if (status != IB_WC_SUCCESS || !len)
		return status;
	if (!rvt_copy_sge(qp, &ss, (void *)data, len, true, false))
		status = rvt_odp_miss_fault(qp, &ss.sge, true, true);
	rvt_put_ss(&ss);
	return status;
}
EXPORT_SYMBOL(rvt_write_place);

/**
 * rvt_read_fetch - read the bytes of an RDMA READ response
 * @qp: the responder QP
 * @rkey: the steering tag of the READ request's source
 * @vaddr: the source address
 * @buf: where the bytes go (the driver's response segment)
 * @len: their number
 *
 * The checks of rvt_write_place() with IB_ACCESS_REMOTE_READ.
 *
 * Context: any context but hard interrupts; no QP lock.
 * Return: IB_WC_SUCCESS, IB_WC_REM_ACCESS_ERR (nothing copied) or
 * RVT_WC_PAGE_MISS (see rvt_write_place()).
 */
enum ib_wc_status rvt_read_fetch(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				 void *buf, u32 len)
{
	struct rvt_sge_state ss;
	enum ib_wc_status status;
	struct rvt_mregion *mr;

	status = rvt_resp_rkey(qp, &ss, rkey, vaddr, len,
			       IB_ACCESS_REMOTE_READ);
	if (status != IB_WC_SUCCESS || !len)
		return status;
	mr = ss.sge.mr;
	if (!rvt_copy_from_sge(&ss, buf, len))
		status = rvt_odp_miss_fault(qp, &ss.sge, false, true);
	rvt_put_mr(mr);
	return status;
}
EXPORT_SYMBOL(rvt_read_fetch);

/**
 * rvt_read_source - check the source of an RDMA READ response and walk it
 * @qp: the responder QP
 * @rkey: the steering tag of the READ request's source
 * @vaddr: the source address
 * @len: bytes to read, more than 0
 * @ss: the walk to set: over the source, its MR referenced
 *
 * The checks of rvt_read_fetch(), for a driver that sends the response
 * from the source's memory itself (its pages to the socket) instead of
 * having the bytes copied out.  The driver walks @ss with
 * rvt_ss_piece() and rvt_update_sge() (release false) and drops the
 * reference with rvt_put_mr(@ss->sge.mr) when it no longer reads the
 * memory; a deregistration of the MR waits for that.  The pages of an
 * on-demand paging source are checked here, all of them: the driver
 * still reads each between rvt_sge_map() and rvt_sge_unmap(), and a page
 * an invalidation took meanwhile is a miss it answers as it would here
 * (rvt_odp_miss_fault()).
 *
 * Context: any context but hard interrupts; no QP lock.
 * Return: IB_WC_SUCCESS (@ss set), IB_WC_REM_ACCESS_ERR (no reference
 * taken) or RVT_WC_PAGE_MISS (see rvt_write_place(); no reference).
 */
enum ib_wc_status rvt_read_source(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				  u32 len, struct rvt_sge_state *ss)
{
	enum ib_wc_status st;
	struct rvt_sge_state look;

	if (WARN_ON_ONCE(!len))
		return IB_WC_REM_ACCESS_ERR;
	st = rvt_resp_rkey(qp, ss, rkey, vaddr, len, IB_ACCESS_REMOTE_READ);
	if (st != IB_WC_SUCCESS || !ss->sge.mr->odp)
		return st;
	look = *ss;
	if (rvt_ss_present(&look, len, false))
		return IB_WC_SUCCESS;
	st = rvt_odp_miss_fault(qp, &look.sge, false, true);
	rvt_put_mr(ss->sge.mr);
	return st;
}
EXPORT_SYMBOL(rvt_read_source);

/* The in-memory RDMA WRITE (also the data of WRITE_WITH_IMM) and READ. */
void rvt_deliver_rdma(struct rvt_delivery *d)
{
	bool write = d->wqe->wr.opcode != IB_WR_RDMA_READ;
	struct rvt_sge_state remote, *missed;
	struct rvt_mregion *mr;

	d->status = rvt_resp_rkey(d->dqp, &remote, d->wqe->rdma_wr.rkey,
				  d->wqe->rdma_wr.remote_addr, d->wqe->length,
				  write ? IB_ACCESS_REMOTE_WRITE :
				  IB_ACCESS_REMOTE_READ);
	if (d->status != IB_WC_SUCCESS) {
		d->dqp_err = true;
		return;
	}
	if (!remote.num_sge)
		return;
	mr = remote.sge.mr;
	if (write) {
		/* the walk drops the reference when it finishes */
		missed = rvt_ss_copy(d->dqp, &remote, &d->qp->s_sge,
				     d->wqe->length, true);
		/* the data goes again whole: writing it twice is harmless */
		if (missed)
			rvt_note_miss(d, missed, missed == &remote,
				      missed == &remote);
		rvt_put_ss(&remote);
	} else {
		/* a source walk never releases: the reference is ours */
		missed = rvt_ss_copy(d->qp, &d->qp->s_sge, &remote,
				     d->wqe->length, false);
		if (missed)
			rvt_note_miss(d, missed, missed != &remote,
				      missed == &remote);
		rvt_put_mr(mr);
	}
}

/**
 * rvt_flush_execute - a responder's RDMA FLUSH (IBA 1.5, annex A19)
 * @qp: the responder QP
 * @rkey: the steering tag of the range or region
 * @vaddr: the range's first byte (level IB_FLUSH_RANGE)
 * @len: its bytes (level IB_FLUSH_RANGE)
 * @type: the FETH's placement type (IB_FLUSH_GLOBAL, IB_FLUSH_PERSISTENT)
 * @level: the FETH's selectivity level (IB_FLUSH_RANGE, IB_FLUSH_MR)
 *
 * The checks are upstream rxe's: @qp must grant IB_ACCESS_FLUSH_GLOBAL
 * for a global flush and IB_ACCESS_FLUSH_PERSISTENT for a persistent
 * one (else an invalid request); @rkey must name a registration of
 * @qp's PD with those same access flags, holding the range (level
 * IB_FLUSH_RANGE; IB_FLUSH_MR flushes the whole region and names no
 * range).  Global visibility: what the QP placed before is visible to
 * every reader of the memory (a write barrier; the CPU placed it).
 * Persistence needs persistent memory, which no rdmavt region is (a
 * kernel region is ordinary memory; upstream rxe refuses to register
 * user memory for persistent flushes unless it is persistent memory, and
 * fails a persistent flush of a DMA region as a remote access error):
 * a persistent flush of a non-empty range fails the key check.
 *
 * Context: any context but hard interrupts; no QP lock needed.
 * Return: IB_WC_SUCCESS; IB_WC_REM_INV_REQ_ERR when @qp lacks the flush
 * access @type needs; IB_WC_REM_ACCESS_ERR when the key check failed or
 * the flush is persistent.
 */
enum ib_wc_status rvt_flush_execute(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				    u32 len, u32 type, u32 level)
{
	struct rvt_dev_info *rdi = ib_to_rvt(qp->ibqp.device);
	u32 qacc = READ_ONCE(qp->qp_access_flags);
	struct rvt_mregion *mr;
	struct rvt_sge sge;
	int acc = 0;

	if (type & IB_FLUSH_GLOBAL)
		acc |= IB_ACCESS_FLUSH_GLOBAL;
	if (type & IB_FLUSH_PERSISTENT)
		acc |= IB_ACCESS_FLUSH_PERSISTENT;
	if ((qacc & acc) != acc)
		return IB_WC_REM_INV_REQ_ERR;
	if (level == IB_FLUSH_MR) {
		/* the whole region: its key, checked at its own base */
		mr = rvt_mr_get(&rdi->lkey_table, rkey);
		if (!mr)
			return IB_WC_REM_ACCESS_ERR;
		vaddr = mr->user_base;
		len = 0;
		rvt_put_mr(mr);
	}
	if (!rvt_rkey_ok(qp, &sge, len, vaddr, rkey, acc))
		return IB_WC_REM_ACCESS_ERR;
	rvt_put_mr(sge.mr);
	/* nothing of ours is persistent memory: only an empty range is */
	if ((type & IB_FLUSH_PERSISTENT) && (len || level == IB_FLUSH_MR))
		return IB_WC_REM_ACCESS_ERR;
	/* the bytes placed before are seen before anything after this */
	wmb();
	return IB_WC_SUCCESS;
}
EXPORT_SYMBOL(rvt_flush_execute);
