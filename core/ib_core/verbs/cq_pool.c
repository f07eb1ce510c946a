// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The CQ pool: CQ API CQs shared by several users (ULP queue pairs).
 *
 * A device keeps one list of shared CQs per poll context (DIRECT has
 * none).  ib_cq_pool_get() hands out room for nr_cqe completions on a
 * CQ of the wanted completion vector, growing the pool by one CQ per
 * vector when no CQ has room; ib_cq_pool_put() gives the room back.
 * Pool CQs live until the device is unregistered.
 */

#include <linux/export.h>
#include <rdma/ib_verbs.h>

#include "verbs_priv.h"

/* Entries of a pool CQ, unless a single request needs more. */
#define IB_MAX_SHARED_CQ_SZ	4096U

static int ib_alloc_cqs(struct ib_device *dev, unsigned int nr_cqes,
			enum ib_poll_context poll_ctx)
{
	unsigned int nr_cqs, i;
	struct ib_cq *cq, *n;
	LIST_HEAD(tmp_list);
	int ret;

	if (poll_ctx > IB_POLL_LAST_POOL_TYPE) {
		WARN_ON_ONCE(poll_ctx > IB_POLL_LAST_POOL_TYPE);
		return -EINVAL;
	}

	nr_cqes = min_t(unsigned int, dev->attrs.max_cqe,
			max(nr_cqes, IB_MAX_SHARED_CQ_SZ));
	nr_cqs = min_t(unsigned int, max(dev->num_comp_vectors, 1),
		       num_online_cpus());
	for (i = 0; i < nr_cqs; i++) {
		cq = ib_alloc_cq(dev, NULL, nr_cqes, i, poll_ctx);
		if (IS_ERR(cq)) {
			ret = PTR_ERR(cq);
			goto out_free_cqs;
		}
		cq->shared = true;
		list_add_tail(&cq->pool_entry, &tmp_list);
	}

	spin_lock_irq(&dev->cq_pools_lock);
	list_splice(&tmp_list, &dev->cq_pools[poll_ctx]);
	spin_unlock_irq(&dev->cq_pools_lock);
	return 0;

out_free_cqs:
	list_for_each_entry_safe(cq, n, &tmp_list, pool_entry) {
		cq->shared = false;
		ib_free_cq(cq);
	}
	return ret;
}

/**
 * ib_cq_pool_cleanup - free the CQ pool of a device
 * @dev: the device, on its way out of registration
 *
 * Every user must have put its CQs back by now.
 */
void ib_cq_pool_cleanup(struct ib_device *dev)
{
	struct ib_cq *cq, *n;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dev->cq_pools); i++) {
		list_for_each_entry_safe(cq, n, &dev->cq_pools[i],
					 pool_entry) {
			WARN_ON(cq->cqe_used);
			list_del(&cq->pool_entry);
			cq->shared = false;
			cq->cqe_used = 0;
			ib_free_cq(cq);
		}
	}
}

/**
 * ib_cq_pool_get - take room for completions on a shared CQ
 * @dev: the device
 * @nr_cqe: completions the caller may have outstanding
 * @comp_vector_hint: preferred completion vector; negative lets the core
 *	spread callers over the vectors
 * @poll_ctx: poll context (not IB_POLL_DIRECT)
 *
 * The CQ is shared: it must not be freed, resized or moderated by the
 * caller, only returned with ib_cq_pool_put() and the same @nr_cqe.
 *
 * Context: Process context; may sleep (when the pool grows it allocates CQs
 * with ib_alloc_cq()). Takes the device's cq_pools_lock with interrupts
 * disabled while it picks a CQ.
 *
 * Return: the CQ or an ERR_PTR().
 */
struct ib_cq *ib_cq_pool_get(struct ib_device *dev, unsigned int nr_cqe,
			     int comp_vector_hint,
			     enum ib_poll_context poll_ctx)
{
	static unsigned int default_comp_vector;
	unsigned int vector, num_comp_vectors;
	struct ib_cq *cq, *found = NULL;
	int ret;

	if (poll_ctx > IB_POLL_LAST_POOL_TYPE) {
		WARN_ON_ONCE(poll_ctx > IB_POLL_LAST_POOL_TYPE);
		return ERR_PTR(-EINVAL);
	}
	/* a CQ that can never hold the request would make us loop */
	if (!nr_cqe || nr_cqe > dev->attrs.max_cqe)
		return ERR_PTR(-EINVAL);

	num_comp_vectors = min_t(unsigned int, max(dev->num_comp_vectors, 1),
				 num_online_cpus());
	if (comp_vector_hint < 0)
		comp_vector_hint = (READ_ONCE(default_comp_vector) + 1) %
			num_comp_vectors;
	WRITE_ONCE(default_comp_vector, comp_vector_hint);
	vector = comp_vector_hint % num_comp_vectors;

	/*
	 * Find the least used CQ of the vector with enough room; grow the
	 * pool once when there is none and look again.
	 */
	while (!found) {
		spin_lock_irq(&dev->cq_pools_lock);
		list_for_each_entry(cq, &dev->cq_pools[poll_ctx], pool_entry) {
			if (vector != cq->comp_vector)
				continue;
			if (cq->cqe_used + nr_cqe > cq->cqe)
				continue;
			if (!found || cq->cqe_used < found->cqe_used)
				found = cq;
		}
		if (found)
			found->cqe_used += nr_cqe;
		spin_unlock_irq(&dev->cq_pools_lock);
		if (found)
			break;

		ret = ib_alloc_cqs(dev, nr_cqe, poll_ctx);
		if (ret)
			return ERR_PTR(ret);
	}
	return found;
}
EXPORT_SYMBOL(ib_cq_pool_get);

/**
 * ib_cq_pool_put - give back room taken with ib_cq_pool_get()
 * @cq: the shared CQ
 * @nr_cqe: what was taken
 *
 * Context: Process or softirq context with interrupts enabled; does not sleep.
 * Takes the device's cq_pools_lock with spin_lock_irq().
 */
void ib_cq_pool_put(struct ib_cq *cq, unsigned int nr_cqe)
{
	struct ib_device *dev = cq->device;

	if (WARN_ON_ONCE(nr_cqe > cq->cqe_used))
		return;

	spin_lock_irq(&dev->cq_pools_lock);
	cq->cqe_used -= nr_cqe;
	spin_unlock_irq(&dev->cq_pools_lock);
}
EXPORT_SYMBOL(ib_cq_pool_put);
