// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SGE walk of rdmavt, the one place every data path goes through:
 * turning an ib_sge (lkey) or an rkey, address and length into engine
 * SGEs after the key and access checks against the device's key table,
 * and moving data into, out of and between walks (struct rvt_sge_state).
 *
 * Why one home: SEND placement, RDMA WRITE/READ, atomics, inline data
 * and a wire driver's segment placement all walk the same structure;
 * the MR reference rules (each SGE of a walk holds one; a walk finishing
 * an SGE drops it only when asked to "release") are easy to get wrong
 * and are kept here, next to the checks that take the references.
 *
 * The memory of an on-demand paging MR is touched a page at a time
 * between rvt_sge_map() and rvt_sge_unmap() (odp.c).  A copy that meets
 * a page not mapped stops there and says so; its walk then stands at
 * the missing page (rvt_note_miss() records it for the send work).
 *
 * Context: any context but hard interrupts; nothing here sleeps or takes
 * a lock other than the key table's xarray lock (IRQ safe, innermost)
 * and an on-demand paging MR's odp_lock (tried for reading, innermost).
 */

#include <rdma/rdma_vt.h>

#include "vt.h"
#include "engine.h"

/* ------------------------------------------------------------------
 * Key checks
 */

/*
 * Look @key up for @len bytes at @addr with access @acc from @pd:
 * the region, referenced, or NULL.
 */
static struct rvt_mregion *rvt_key_check(struct rvt_lkey_table *rkt,
					 struct ib_pd *pd, u32 key, u64 addr,
					 u32 len, int acc)
{
	struct rvt_mregion *mr;

	if (!key)
		return NULL;
	mr = rvt_mr_get(rkt, key);
	if (!mr)
		return NULL;
	if (READ_ONCE(mr->lkey) != key || atomic_read(&mr->lkey_invalid) ||
	    mr->pd != pd || (mr->access_flags & acc) != acc)
		goto bad;
	/* a DMA region covers all kernel memory */
	if (!rvt_mr_is_dma(mr) &&
	    (addr < mr->user_base || addr - mr->user_base > mr->length ||
	     len > mr->length - (addr - mr->user_base)))
		goto bad;
	return mr;
bad:
	rvt_put_mr(mr);
	return NULL;
}

/* Set @isge to @len bytes at @addr of @mr, which holds them. */
static void rvt_sge_init(struct rvt_sge *isge, struct rvt_mregion *mr,
			 u64 addr, u32 len)
{
	struct rvt_seg *seg;
	size_t off;
	u32 m = 0, n = 0;

	isge->mr = mr;
	isge->sge_length = len;
	isge->m = 0;
	isge->n = 0;
	if (mr->odp) {
		u64 uva = rvt_odp_user_addr(mr, addr);
		u32 psz = 1U << mr->page_shift;

		isge->vaddr = (void *)(uintptr_t)uva;
		isge->length = min_t(u32, psz - (uva & (psz - 1)), len);
		return;
	}
	if (!mr->mapsz || !len) {
		isge->vaddr = mr->mapsz ? NULL : (void *)(uintptr_t)addr;
		isge->length = len;
		return;
	}

	off = addr - mr->user_base + mr->offset;
	if (mr->page_shift) {
		size_t i = off >> mr->page_shift;

		off -= i << mr->page_shift;
		m = i / RVT_SEGSZ;
		n = i % RVT_SEGSZ;
	} else {
		while (off >= mr->map[m]->segs[n].length) {
			off -= mr->map[m]->segs[n].length;
			if (++n == RVT_SEGSZ) {
				m++;
				n = 0;
			}
		}
	}
	seg = &mr->map[m]->segs[n];
	isge->vaddr = seg->vaddr + off;
	isge->length = min_t(size_t, seg->length - off, len);
	isge->m = m;
	isge->n = n;
}

/**
 * rvt_lkey_ok - check a local SGE and make the engine's SGE of it
 * @rkt: the key table of the device
 * @pd: the PD of the QP using the SGE
 * @isge: where the new SGE goes
 * @last_sge: the SGE made before for the same list, or NULL
 * @sge: the SGE to check; a zero length one is the caller's to skip
 * @acc: access the operation needs (IB_ACCESS_LOCAL_WRITE or 0)
 *
 * The key must name a valid registration of @pd that allows @acc and
 * holds the whole range.  When @sge continues @last_sge in the same DMA
 * region, @last_sge grows instead and no new SGE is made.  A new SGE
 * references its region.
 *
 * Context: Any context but hard interrupts; takes the key table's xa_lock
 * (IRQ safe).
 *
 * Return: 1 when @isge was set, 0 when @last_sge took @sge, -EINVAL when
 * the check failed.
 */
int rvt_lkey_ok(struct rvt_lkey_table *rkt, struct rvt_pd *pd,
		struct rvt_sge *isge, struct rvt_sge *last_sge,
		struct ib_sge *sge, int acc)
{
	struct rvt_mregion *mr;

	mr = rvt_key_check(rkt, &pd->ibpd, sge->lkey, sge->addr, sge->length,
			   acc);
	if (!mr)
		return -EINVAL;
	if (last_sge && last_sge->mr == mr && rvt_mr_is_dma(mr) &&
	    last_sge->vaddr + last_sge->sge_length ==
	    (void *)(uintptr_t)sge->addr &&
	    last_sge->sge_length <= U32_MAX - sge->length) {
		last_sge->sge_length += sge->length;
		last_sge->length += sge->length;
		rvt_put_mr(mr);
		return 0;
	}
	rvt_sge_init(isge, mr, sge->addr, sge->length);
	return 1;
}
EXPORT_SYMBOL(rvt_lkey_ok);

/**
 * rvt_rkey_ok - check a remote access and make the engine's SGE of it
 * @qp: the responder QP; the key must be of its PD and device
 * @sge: where the SGE goes
 * @len: bytes
 * @vaddr: first address
 * @rkey: the remote key: an MR's, or a memory window's (mw.c)
 * @acc: IB_ACCESS_REMOTE_READ, _WRITE or _ATOMIC
 *
 * The SGE references its region (rvt_put_mr()) when this succeeds.
 *
 * Context: Any context but hard interrupts; takes the key table's xa_lock
 * (IRQ safe). Called under the responder's r_lock.
 *
 * Return: 1 when the access is allowed, else 0.
 */
int rvt_rkey_ok(struct rvt_qp *qp, struct rvt_sge *sge, u32 len, u64 vaddr,
		u32 rkey, int acc)
{
	struct rvt_dev_info *rdi = ib_to_rvt(qp->ibqp.device);
	struct rvt_mregion *mr;

	mr = rvt_key_check(&rdi->lkey_table, qp->ibqp.pd, rkey, vaddr, len,
			   acc);
	/* or a memory window's rkey, which leads to the MR it is bound to */
	if (!mr)
		mr = rvt_mw_rkey_ok(qp, rkey, &vaddr, len, acc);
	if (!mr)
		return 0;
	rvt_sge_init(sge, mr, vaddr, len);
	return 1;
}
EXPORT_SYMBOL(rvt_rkey_ok);

/**
 * rvt_skip_sge - move a walk forward without copying
 * @ss: the walk
 * @length: bytes to skip; the walk must hold them
 * @release: drop the reference of each SGE this finishes
 *
 * Context: Any context but hard interrupts; takes no lock.
 */
void rvt_skip_sge(struct rvt_sge_state *ss, u32 length, bool release)
{
	while (length) {
		u32 len = rvt_ss_piece(ss, length);

		if (!len)
			return;
		rvt_update_sge(ss, len, release);
		length -= len;
	}
}
EXPORT_SYMBOL(rvt_skip_sge);

/**
 * rvt_copy_sge - copy data into the memory of a walk
 * @qp: the QP the walk belongs to
 * @ss: the walk; it moves past the bytes written
 * @data: the data
 * @length: its bytes; the walk must hold them
 * @release: drop the reference of each SGE this finishes
 * @copy_last: write the last 8 bytes by themselves, after the rest (a
 *	consumer polling the end of the buffer then sees all of it)
 *
 * Context: Any context but hard interrupts; takes only an on-demand
 * paging MR's odp_lock (rvt_sge_map(), never waiting). The walk's memory is
 * kernel-mapped (no user copy, no fault).
 *
 * Return: true; false when a page of an on-demand paging MR was not
 * mapped: the walk stands at it, the bytes before it are copied.
 */
bool rvt_copy_sge(struct rvt_qp *qp, struct rvt_sge_state *ss, void *data,
		  u32 length, bool release, bool copy_last)
{
	void *to;

	if (copy_last && length > sizeof(u64)) {
		if (!rvt_copy_sge(qp, ss, data, length - sizeof(u64), release,
				  false))
			return false;
		data += length - sizeof(u64);
		length = sizeof(u64);
	}
	while (length) {
		u32 len = rvt_ss_piece(ss, length);

		if (!len)
			return true;
		to = rvt_sge_map(&ss->sge, true);
		if (!to)
			return false;
		memcpy(to, data, len);
		rvt_sge_unmap(&ss->sge);
		rvt_update_sge(ss, len, release);
		data += len;
		length -= len;
	}
	return true;
}
EXPORT_SYMBOL(rvt_copy_sge);

/**
 * rvt_restart_sge - rewind the SGE walk of a send request
 * @ss: the walk to set
 * @wqe: the request; its SGEs are checked (the engine did so)
 * @len: bytes of the request already done
 *
 * Context: Any context but hard interrupts; takes no lock. The caller
 * owns the request (the send engine, or under the QP's s_lock).
 *
 * Return: the bytes left after @len.
 */
u32 rvt_restart_sge(struct rvt_sge_state *ss, struct rvt_swqe *wqe, u32 len)
{
	ss->sge = wqe->sg_list[0];
	ss->sg_list = wqe->sg_list + 1;
	ss->num_sge = wqe->wr.num_sge;
	ss->total_len = wqe->length;
	rvt_skip_sge(ss, len, false);
	return wqe->length - len;
}
EXPORT_SYMBOL(rvt_restart_sge);

/* ------------------------------------------------------------------
 * Walks
 */

/*
 * Check the SGEs of @wqe as posted (wr.sg_list) into wqe->sg_list, with
 * @acc; zero length ones are dropped.  Returns 0 or -EINVAL.
 *
 * Keys are checked when the request first runs rather than at post
 * time: a REG_MR or LOCAL_INV posted ahead of it on the same queue may
 * change what the key names, and the check must see that change.  A
 * request that has to wait (RNR, retry) keeps its references and is
 * not checked again.
 */
int rvt_resolve_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe, int acc)
{
	struct rvt_pd *pd = container_of(qp->ibqp.pd, struct rvt_pd, ibpd);
	struct ib_sge *posted = wqe->wr.sg_list;
	int i, ret;
	u32 j = 0;

	if (wqe->resolved)
		return 0;
	for (i = 0; i < wqe->wr.num_sge; i++) {
		if (!posted[i].length)
			continue;
		ret = rvt_lkey_ok(&qp->rdi->lkey_table, pd, &wqe->sg_list[j],
				  j ? &wqe->sg_list[j - 1] : NULL, &posted[i],
				  acc);
		if (ret < 0)
			goto bad;
		j += ret;
	}
	wqe->wr.num_sge = j;
	wqe->resolved = true;
	return 0;
bad:
	while (j)
		rvt_put_mr(wqe->sg_list[--j].mr);
	return -EINVAL;
}

/**
 * rvt_put_swqe - drop the references of a send request: its SGEs' MRs
 *	and a user datagram's address handle
 * @wqe: the request
 */
void rvt_put_swqe(struct rvt_swqe *wqe)
{
	int i;

	if (wqe->ah) {
		atomic_dec(&wqe->ah->wqes);
		wqe->ah = NULL;
	}
	if (!wqe->resolved)
		return;
	for (i = 0; i < wqe->wr.num_sge; i++)
		rvt_put_mr(wqe->sg_list[i].mr);
	wqe->resolved = false;
}

/*
 * Copy @len bytes from the walk @src to the walk @dst (of @dqp); @release
 * as for rvt_copy_sge() on @dst.  The source never releases: its
 * references belong to the request and go when it completes.  Returns
 * NULL, or the walk that met a page of an on-demand paging MR not
 * mapped (the copy stopped there).
 */
struct rvt_sge_state *rvt_ss_copy(struct rvt_qp *dqp,
				  struct rvt_sge_state *dst,
				  struct rvt_sge_state *src, u32 len,
				  bool release)
{
	bool done;
	void *from;

	while (len) {
		u32 n = rvt_ss_piece(src, len);

		if (!n)
			return NULL;
		/* a source piece at a time (one page at most) */
		from = rvt_sge_map(&src->sge, false);
		if (!from)
			return src;
		done = rvt_copy_sge(dqp, dst, from, n, release, false);
		rvt_sge_unmap(&src->sge);
		if (!done)
			return dst;
		rvt_update_sge(src, n, false);
		len -= n;
	}
	return NULL;
}

/*
 * Copy @length bytes out of the walk @ss into @data (a READ response a
 * wire driver sends).  The walk's references stay: its owner drops them.
 * Returns false when it met a page of an on-demand paging MR not mapped.
 */
bool rvt_copy_from_sge(struct rvt_sge_state *ss, void *data, u32 length)
{
	void *from;

	while (length) {
		u32 n = rvt_ss_piece(ss, length);

		if (!n)
			return true;
		from = rvt_sge_map(&ss->sge, false);
		if (!from)
			return false;
		memcpy(data, from, n);
		rvt_sge_unmap(&ss->sge);
		rvt_update_sge(ss, n, false);
		data += n;
		length -= n;
	}
	return true;
}

/*
 * The delivery @d met a page not mapped in the walk @ss (@write: it was
 * writing there; @remote: the walk is the responder's): nothing of it
 * completes, and unless an earlier miss of the same request is still to
 * be faulted in, the requester's s_miss says what to fault in: the rest
 * of the SGE, RVT_ODP_FAULT_MAX bytes at most, so that one fault brings
 * in what the request goes on with.
 */
void rvt_note_miss(struct rvt_delivery *d, struct rvt_sge_state *ss,
		   bool write, bool remote)
{
	struct rvt_odp_miss *miss = &d->qp->s_miss;

	d->fault = true;
	if (miss->mr)
		return;
	rvt_get_mr(ss->sge.mr);
	miss->mr = ss->sge.mr;
	miss->uva = (uintptr_t)ss->sge.vaddr;
	miss->len = min_t(u32, ss->sge.sge_length, RVT_ODP_FAULT_MAX);
	miss->write = write;
	miss->remote = remote;
}

/*
 * Are the next @len bytes of the walk @ss there to be read (@write: and
 * written)?  Only pages of on-demand paging MRs can be missing; the walk
 * stops at the first such page not mapped (return false) or after the
 * bytes (true).  A look, not a hold: a delivery checks its source with
 * it before it takes a receive WQE, the scheduler a request's local
 * memory before a wire driver takes it, and the copy still checks each
 * page.
 */
bool rvt_ss_present(struct rvt_sge_state *ss, u32 len, bool write)
{
	while (len) {
		u32 n = rvt_ss_piece(ss, len);

		if (!n)
			return true;
		if (ss->sge.mr && ss->sge.mr->odp) {
			if (!rvt_sge_map(&ss->sge, write))
				return false;
			rvt_sge_unmap(&ss->sge);
		}
		rvt_update_sge(ss, n, false);
		len -= n;
	}
	return true;
}
