/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdmavt memory regions and the SGE walking of the work request engine.
 *
 * A memory region (struct rvt_mregion) maps its bytes to kernel virtual
 * addresses through a two-level segment map: map[m]->segs[n] is one
 * contiguous piece.  A fast registration MR has one segment per page of
 * its page list; a DMA MR has no map and covers all of kernel memory
 * linearly.
 *
 * struct rvt_sge is a position in one SGE: the MR, the kernel address,
 * the bytes left in the SGE and in the current segment, and the segment
 * indices.  struct rvt_sge_state walks a list of them.  Each SGE of a
 * state references its MR (rvt_lkey_ok(), rvt_rkey_ok()); the walkers
 * drop the reference of an SGE they finish when asked to ("release"), and
 * rvt_put_ss() drops the rest.  An SGE with a NULL MR is plain kernel
 * memory (inline data) and holds no reference.
 */
#ifndef RDMAVT_MR_H
#define RDMAVT_MR_H

#include <linux/bug.h>
#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

struct rvt_pd;
struct rvt_qp;
struct rvt_swqe;

/**
 * struct rvt_seg - a contiguous piece of a memory region
 * @vaddr: its kernel virtual address
 * @length: its bytes
 */
struct rvt_seg {
	void	*vaddr;
	size_t	length;
};

/* segments in one block of the map: the block fills a page */
#define RVT_SEGSZ	(PAGE_SIZE / sizeof(struct rvt_seg))

/**
 * struct rvt_segarray - one block of a segment map
 * @segs: the segments
 */
struct rvt_segarray {
	struct rvt_seg	segs[RVT_SEGSZ];
};

/**
 * struct rvt_mregion - the part of an MR the engine works with
 * @pd: the MR's protection domain
 * @user_base: address (iova) of the first byte a key check allows
 * @iova: the registration's iova (as ibmr.iova)
 * @length: bytes registered
 * @lkey: key of the current registration.  For a fast registration MR
 *	the core may already have the next key in ibmr.lkey/rkey
 *	(ib_update_fast_reg_key()) until its IB_WR_REG_MR executes; key
 *	checks and invalidations go by this one.
 * @offset: bytes of the first segment before @user_base
 * @access_flags: IB access flags of the current registration
 * @max_segs: segments the map has room for
 * @mapsz: blocks in @map (0 for a DMA MR)
 * @lkey_invalid: nonzero while the MR is not registered (allocated, or
 *	invalidated and not registered again)
 * @page_shift: log2 of the segment size when all segments but the first
 *	and last are one page of that size, else 0
 * @refcount: users; the key table holds one
 * @comp: completed when @refcount drops to zero
 * @num_mw: memory windows bound to the MR (each holds a reference);
 *	changed under the key table's lock, and the MR is not
 *	deregistered while there are any
 * @map: the segment map, @mapsz blocks
 */
struct rvt_mregion {
	struct ib_pd		*pd;
	u64			user_base;
	u64			iova;
	size_t			length;
	u32			lkey;
	u32			offset;
	int			access_flags;
	u32			max_segs;
	u32			mapsz;
	atomic_t		lkey_invalid;
	u8			page_shift;
	refcount_t		refcount;
	struct completion	comp;
	atomic_t		num_mw;
	struct rvt_segarray	*map[];
};

/**
 * struct rvt_mr - an rdmavt memory region
 * @ibmr: the core's part
 * @umem: user memory behind it (user MRs only; NULL)
 * @mr: the engine's part, last (its map is a flexible array)
 */
struct rvt_mr {
	struct ib_mr		ibmr;
	struct ib_umem		*umem;
	struct rvt_mregion	mr;
};

/**
 * struct rvt_sge - a position in one scatter/gather element
 * @mr: the MR, referenced, or NULL for plain kernel memory
 * @vaddr: kernel address of the position
 * @sge_length: bytes left in the SGE
 * @length: bytes left in the current segment (at most @sge_length)
 * @m: block of the current segment in @mr's map
 * @n: segment in that block
 */
struct rvt_sge {
	struct rvt_mregion	*mr;
	void			*vaddr;
	u32			sge_length;
	u32			length;
	u16			m;
	u16			n;
};

/**
 * struct rvt_sge_state - a walk over a list of SGEs
 * @sg_list: the SGEs after the current one
 * @sge: the current SGE and the position in it
 * @total_len: bytes of the whole list
 * @num_sge: SGEs left, the current one included
 */
struct rvt_sge_state {
	struct rvt_sge		*sg_list;
	struct rvt_sge		sge;
	u32			total_len;
	u8			num_sge;
};

/**
 * struct rvt_lkey_table - the memory regions of a device by key
 * @table: struct rvt_mregion by key index (key >> 8); its lock (IRQ
 *	safe) covers lookups that take a reference
 * @next: where the allocation of key indices goes on
 *
 * A key is (index << 8) | key byte; fast registration changes the key
 * byte.  Index 0 is never allocated.
 */
struct rvt_lkey_table {
	struct xarray		table;
	u32			next;
};

/**
 * rvt_get_mr - take a reference on a memory region
 * @mr: the region; the caller already holds a reference
 */
static inline void rvt_get_mr(struct rvt_mregion *mr)
{
	refcount_inc(&mr->refcount);
}

/**
 * rvt_put_mr - drop a reference on a memory region
 * @mr: the region (NULL is allowed and ignored)
 */
static inline void rvt_put_mr(struct rvt_mregion *mr)
{
	if (mr && refcount_dec_and_test(&mr->refcount))
		complete(&mr->comp);
}

/**
 * rvt_put_ss - drop the references of the SGEs left in a walk
 * @ss: the walk; it ends empty
 */
static inline void rvt_put_ss(struct rvt_sge_state *ss)
{
	while (ss->num_sge) {
		rvt_put_mr(ss->sge.mr);
		if (--ss->num_sge)
			ss->sge = *ss->sg_list++;
	}
}

/**
 * rvt_get_sge_length - bytes that can be taken at once from an SGE
 * @sge: the SGE
 * @length: bytes wanted
 *
 * Return: @length limited to the contiguous bytes at @sge's position.
 */
static inline u32 rvt_get_sge_length(struct rvt_sge *sge, u32 length)
{
	return min3(length, sge->length, sge->sge_length);
}

/**
 * rvt_ss_piece - bytes that can be taken at once from a walk
 * @ss: the walk
 * @length: bytes wanted, more than 0
 *
 * Return: @length limited to the contiguous bytes at the walk's position;
 * 0, with a warning, when the walk holds nothing more.
 */
static inline u32 rvt_ss_piece(struct rvt_sge_state *ss, u32 length)
{
	u32 len = ss->num_sge ? rvt_get_sge_length(&ss->sge, length) : 0;

	WARN_ON_ONCE(!len);
	return len;
}

/**
 * rvt_update_sge - move a walk forward
 * @ss: the walk
 * @length: bytes done, at most rvt_get_sge_length() of the current SGE
 * @release: drop the reference of an SGE that this finishes
 */
static inline void rvt_update_sge(struct rvt_sge_state *ss, u32 length,
				  bool release)
{
	struct rvt_sge *sge = &ss->sge;

	sge->vaddr += length;
	sge->length -= length;
	sge->sge_length -= length;
	if (!sge->sge_length) {
		if (release)
			rvt_put_mr(sge->mr);
		if (--ss->num_sge)
			*sge = *ss->sg_list++;
	} else if (!sge->length && sge->mr && sge->mr->mapsz) {
		/* the next segment of the same MR */
		if (++sge->n >= RVT_SEGSZ) {
			if (++sge->m >= sge->mr->mapsz)
				return;
			sge->n = 0;
		}
		sge->vaddr = sge->mr->map[sge->m]->segs[sge->n].vaddr;
		sge->length = min_t(u32, sge->sge_length,
				    sge->mr->map[sge->m]->segs[sge->n].length);
	}
}

/**
 * struct rvt_mw - an rdmavt memory window (IBA 10.6.7)
 * @ibmw: the core's part; ibmw.rkey is the window's current rkey
 * @mr: the region it is bound to, referenced, or NULL (unbound)
 * @addr: first address of the window, an address of @mr (a remote
 *	access to a zero-based window names the offset from it)
 * @length: bytes of the window; 0 while unbound
 * @access: the remote access it grants (IB_ACCESS_REMOTE_*,
 *	IB_ZERO_BASED)
 * @qpn: a type 2 window: the QP it was bound through, the only one that
 *	may reach memory through it
 * @valid: a type 2 window is bound (a type 1 window is always valid:
 *	unbound, its length is 0)
 *
 * A window is in the device's key table beside the MRs (a tagged
 * entry); everything of it is read and written under the table's lock.
 */
struct rvt_mw {
	struct ib_mw		ibmw;
	struct rvt_mregion	*mr;
	u64			addr;
	u64			length;
	int			access;
	u32			qpn;
	bool			valid;
};

int rvt_lkey_ok(struct rvt_lkey_table *rkt, struct rvt_pd *pd,
		struct rvt_sge *isge, struct rvt_sge *last_sge,
		struct ib_sge *sge, int acc);
int rvt_rkey_ok(struct rvt_qp *qp, struct rvt_sge *sge, u32 len, u64 vaddr,
		u32 rkey, int acc);
void rvt_skip_sge(struct rvt_sge_state *ss, u32 length, bool release);
void rvt_copy_sge(struct rvt_qp *qp, struct rvt_sge_state *ss, void *data,
		  u32 length, bool release, bool copy_last);
u32 rvt_restart_sge(struct rvt_sge_state *ss, struct rvt_swqe *wqe, u32 len);
int rvt_fast_reg_mr(struct rvt_qp *qp, struct ib_mr *ibmr, u32 key,
		    int access);
int rvt_invalidate_rkey(struct rvt_qp *qp, u32 rkey);

#endif /* RDMAVT_MR_H */
