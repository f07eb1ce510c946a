// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MR pools: a QP keeps lists of ready fast registration MRs (qp->rdma_mrs,
 * qp->sig_mrs) so that the data path never allocates.  qp->mr_lock
 * protects the lists and qp->mrs_used, the number of MRs taken out.
 */

#include <linux/export.h>
#include <rdma/mr_pool.h>

/**
 * ib_mr_pool_get - take an MR from a pool
 * @qp: the QP owning the pool
 * @list: the pool
 *
 * Context: Any context; does not sleep. Takes the QP's mr_lock with interrupts
 * saved.
 *
 * Return: an MR, or NULL when the pool is empty.
 */
struct ib_mr *ib_mr_pool_get(struct ib_qp *qp, struct list_head *list)
{
	struct ib_mr *mr;
	unsigned long flags;

	spin_lock_irqsave(&qp->mr_lock, flags);
	mr = list_first_entry_or_null(list, struct ib_mr, qp_entry);
	if (mr) {
		list_del(&mr->qp_entry);
		qp->mrs_used++;
	}
	spin_unlock_irqrestore(&qp->mr_lock, flags);
	return mr;
}
EXPORT_SYMBOL(ib_mr_pool_get);

/**
 * ib_mr_pool_put - return an MR to its pool
 * @qp: the QP owning the pool
 * @list: the pool
 * @mr: an MR from ib_mr_pool_get() on the same pool
 *
 * Context: Any context; does not sleep. Takes the QP's mr_lock with interrupts
 * saved.
 */
void ib_mr_pool_put(struct ib_qp *qp, struct list_head *list,
		    struct ib_mr *mr)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->mr_lock, flags);
	list_add(&mr->qp_entry, list);
	qp->mrs_used--;
	spin_unlock_irqrestore(&qp->mr_lock, flags);
}
EXPORT_SYMBOL(ib_mr_pool_put);

/**
 * ib_mr_pool_init - fill a pool with MRs
 * @qp: the QP owning the pool; its PD gets the MRs
 * @list: the pool
 * @nr: how many MRs
 * @type: their type
 * @max_num_sg: their scatterlist size
 * @max_num_meta_sg: protection information scatterlist size
 *	(IB_MR_TYPE_INTEGRITY)
 *
 * Context: Process context; sleeps (each MR is allocated with ib_alloc_mr() or
 * ib_alloc_mr_integrity()). Takes the QP's mr_lock, interrupts saved, around
 * each list insertion only.
 *
 * Return: 0, or an error after which the pool is empty again.
 */
int ib_mr_pool_init(struct ib_qp *qp, struct list_head *list, int nr,
		    enum ib_mr_type type, u32 max_num_sg, u32 max_num_meta_sg)
{
	struct ib_mr *mr;
	unsigned long flags;
	int ret, i;

	for (i = 0; i < nr; i++) {
		if (type == IB_MR_TYPE_INTEGRITY)
			mr = ib_alloc_mr_integrity(qp->pd, max_num_sg,
						   max_num_meta_sg);
		else
			mr = ib_alloc_mr(qp->pd, type, max_num_sg);
		if (IS_ERR(mr)) {
			ret = PTR_ERR(mr);
			goto out;
		}

		spin_lock_irqsave(&qp->mr_lock, flags);
		list_add_tail(&mr->qp_entry, list);
		spin_unlock_irqrestore(&qp->mr_lock, flags);
	}
	return 0;
out:
	ib_mr_pool_destroy(qp, list);
	return ret;
}
EXPORT_SYMBOL(ib_mr_pool_init);

/**
 * ib_mr_pool_destroy - free every MR of a pool
 * @qp: the QP owning the pool
 * @list: the pool; MRs taken out must have been put back
 *
 * Context: Process context; sleeps (ib_dereg_mr() for each MR, called with the
 * QP's mr_lock released).
 */
void ib_mr_pool_destroy(struct ib_qp *qp, struct list_head *list)
{
	struct ib_mr *mr;
	unsigned long flags;

	spin_lock_irqsave(&qp->mr_lock, flags);
	while (!list_empty(list)) {
		mr = list_first_entry(list, struct ib_mr, qp_entry);
		list_del(&mr->qp_entry);

		/* deregistration may sleep */
		spin_unlock_irqrestore(&qp->mr_lock, flags);
		ib_dereg_mr(mr);
		spin_lock_irqsave(&qp->mr_lock, flags);
	}
	spin_unlock_irqrestore(&qp->mr_lock, flags);
}
EXPORT_SYMBOL(ib_mr_pool_destroy);
