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
 *
 * An on-demand paging MR (rvt_mregion.odp) has no map: its pages come
 * and go as the process's page tables change.  Whoever touches the
 * memory of an SGE does so between rvt_sge_map() and rvt_sge_unmap(),
 * one page at a time; a page that is not mapped makes rvt_sge_map()
 * fail and the caller has it faulted in (rvt_odp_fault()) before the
 * operation runs again.
 */
#ifndef RDMAVT_MR_H
#define RDMAVT_MR_H

#include <linux/bug.h>
#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

struct ib_umem_odp;
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

/* an implicit ODP MR's child umems: one per 2 MiB range the engine meets */
#define RVT_ODP_CHILD_SHIFT	21
#define RVT_ODP_CHILD_SIZE	BIT(RVT_ODP_CHILD_SHIFT)

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
 * @odp: an on-demand paging MR: the umem whose dma_list gives the
 *	pages (no @map; an SGE's vaddr is a user address and
 *	rvt_sge_map() finds the page under @odp_lock), or NULL
 * @odp_lock: held for reading around each access to a page of @odp
 *	(rvt_sge_map() to rvt_sge_unmap(), one page at most; readers only
 *	try it, so they never wait and may nest).  An invalidation, once
 *	it has unmapped its pages, takes it for writing (interrupts off):
 *	no access that found one of them is still going on when it
 *	returns.  Nothing is taken under it.
 * @odp_children: an implicit @odp's child umems (struct ib_umem_odp) by
 *	user address >> RVT_ODP_CHILD_SHIFT, made by faults and kept until
 *	the MR goes
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
	struct ib_umem_odp	*odp;
	rwlock_t		odp_lock;	/* see above */
	struct xarray		odp_children;
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
 * @vaddr: kernel address of the position; for an on-demand paging MR
 *	(@mr->odp) the user address, which rvt_sge_map() turns into a
 *	kernel address while the page is mapped
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
 * struct rvt_odp_miss - a range of an on-demand paging MR to fault in
 * @mr: the region, referenced (NULL: no miss)
 * @uva: user address of the first byte
 * @len: bytes
 * @write: the access that missed writes
 * @remote: the region is the responder's (else the requester's own)
 * @failed: a wire driver's miss whose fault failed: kept (@mr still
 *	referenced) so that the next miss in the range fails
 *	(rvt_odp_miss())
 */
struct rvt_odp_miss {
	struct rvt_mregion	*mr;
	u64			uva;
	u32			len;
	bool			write;
	bool			remote;
	bool			failed;
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
	} else if (!sge->length && sge->mr && sge->mr->odp) {
		/* the next page of an on-demand paging MR */
		sge->length = min_t(u32, sge->sge_length,
				    1U << sge->mr->page_shift);
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
 * rvt_mr_is_dma - is a region a DMA MR (all of kernel memory, no map)?
 * @mr: the region
 *
 * Return: true for a DMA MR, whose addresses are kernel addresses.
 */
static inline bool rvt_mr_is_dma(const struct rvt_mregion *mr)
{
	return !mr->mapsz && !mr->odp;
}

#if IS_ENABLED(CONFIG_INFINIBAND_ON_DEMAND_PAGING)
void *rvt_odp_map_sge(struct rvt_sge *sge, bool write);
void rvt_odp_unmap_sge(struct rvt_sge *sge);
int rvt_odp_fault(struct rvt_mregion *mr, u64 uva, u32 len, bool write);
#else
static inline void *rvt_odp_map_sge(struct rvt_sge *sge, bool write)
{
	return NULL;
}

static inline void rvt_odp_unmap_sge(struct rvt_sge *sge)
{
}

static inline int rvt_odp_fault(struct rvt_mregion *mr, u64 uva, u32 len,
				bool write)
{
	return -EOPNOTSUPP;
}
#endif

/**
 * rvt_sge_map - the kernel address of an SGE's position, for an access
 * @sge: the SGE; the access stays within rvt_get_sge_length() of it
 * @write: the access writes
 *
 * For an on-demand paging MR the page must be mapped (with write rights
 * for @write) and stays so until rvt_sge_unmap(): an invalidation of the
 * range waits.  Every other SGE's memory is always there.  Accesses may
 * nest (a copy between two SGEs of the same MR).
 *
 * Context: any context but hard interrupts; for an on-demand paging MR
 * holds its odp_lock for reading until rvt_sge_unmap() (a trylock: while
 * an invalidation waits for it, the page counts as missing).
 * Return: the kernel address, or NULL when the page of an on-demand
 * paging MR is not mapped (nothing to unmap; fault it in with
 * rvt_odp_fault()).
 */
static inline void *rvt_sge_map(struct rvt_sge *sge, bool write)
{
	if (likely(!sge->mr || !sge->mr->odp))
		return sge->vaddr;
	return rvt_odp_map_sge(sge, write);
}

/**
 * rvt_sge_unmap - end an access rvt_sge_map() allowed
 * @sge: the SGE, not moved since
 */
static inline void rvt_sge_unmap(struct rvt_sge *sge)
{
	if (unlikely(sge->mr && sge->mr->odp))
		rvt_odp_unmap_sge(sge);
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
bool rvt_copy_sge(struct rvt_qp *qp, struct rvt_sge_state *ss, void *data,
		  u32 length, bool release, bool copy_last);
u32 rvt_restart_sge(struct rvt_sge_state *ss, struct rvt_swqe *wqe, u32 len);
int rvt_fast_reg_mr(struct rvt_qp *qp, struct ib_mr *ibmr, u32 key,
		    int access);
int rvt_invalidate_rkey(struct rvt_qp *qp, u32 rkey);

#endif /* RDMAVT_MR_H */
