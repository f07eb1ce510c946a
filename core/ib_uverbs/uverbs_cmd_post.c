// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Work requests through the kernel: POST_SEND, POST_RECV and
 * POST_SRQ_RECV, for providers that do not map their queues (and the
 * doorbells of those that do: a POST_SEND of no request).
 *
 * The request after the command's header is wr_count work requests of
 * wqe_size bytes each (at least the ABI's struct), then sge_count SGEs;
 * each request takes its num_sge SGEs in order.  Every count and size is
 * checked against what was written before anything is read.  The
 * response counts the requests up to and including the one the driver
 * refused.
 */
#include <linux/overflow.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

/* The user's arrays after the command's fixed part. */
struct uverbs_wr_arrays {
	const u8 __user *wrs;
	const struct ib_uverbs_sge __user *sges;
};

/*
 * Where the requests and SGEs are: they must lie in what was written
 * (-ENOSPC), and nothing non-zero may follow them (-EOPNOTSUPP).  A
 * request smaller than the ABI's is -EINVAL, checked before the arrays
 * (@size_first: receive requests) or after them (send requests), as
 * upstream's.
 */
static int uverbs_wr_arrays(struct uverbs_attr_bundle *attrs, size_t fixed,
			    u32 wr_count, u32 wqe_size, u32 sge_count,
			    size_t min_wqe, bool size_first,
			    struct uverbs_wr_arrays *a)
{
	size_t wrs, sges, end;

	if (size_first && wqe_size < min_wqe)
		return -EINVAL;
	if (check_mul_overflow((size_t)wr_count, (size_t)wqe_size, &wrs) ||
	    check_mul_overflow((size_t)sge_count,
			       sizeof(struct ib_uverbs_sge), &sges) ||
	    check_add_overflow(fixed, wrs, &end) ||
	    check_add_overflow(end, sges, &end) ||
	    end > attrs->ucore.inlen)
		return -ENOSPC;
	if (!ib_is_buffer_cleared(attrs->ucore.inbuf + end,
				  attrs->ucore.inlen - end))
		return -EOPNOTSUPP;
	if (wqe_size < min_wqe)
		return -EINVAL;
	a->wrs = attrs->ucore.inbuf + fixed;
	a->sges = attrs->ucore.inbuf + fixed + wrs;
	return 0;
}

/* A work request with room for @num_sge SGEs after it. */
static void *uverbs_alloc_wr(size_t size, u32 num_sge)
{
	size_t total;

	if (check_mul_overflow((size_t)num_sge, sizeof(struct ib_sge), &total) ||
	    check_add_overflow(total, ALIGN(size, sizeof(struct ib_sge)),
			       &total))
		return NULL;
	return kzalloc(total, GFP_KERNEL);
}

/* Read @n SGEs from @a's array at *@next into @sg. */
static int uverbs_read_sges(const struct uverbs_wr_arrays *a, u32 *next,
			    u32 n, u32 sge_count, struct ib_sge *sg)
{
	if (!n)
		return 0;
	if (n > sge_count - *next)
		return -EINVAL;
	/* struct ib_uverbs_sge and struct ib_sge have the same layout */
	BUILD_BUG_ON(sizeof(struct ib_uverbs_sge) != sizeof(struct ib_sge));
	if (copy_from_user(sg, a->sges + *next, n * sizeof(*sg)))
		return -EFAULT;
	*next += n;
	return 0;
}

/* Free a list of send requests and release the AHs their UD ones hold. */
static void uverbs_free_send_wrs(struct ib_send_wr *wr,
				 struct ib_uobject **ahs, u32 n)
{
	struct ib_send_wr *next;
	u32 i;

	for (i = 0; i < n; i++)
		uverbs_obj_put(ahs[i], UVERBS_LOOKUP_READ);
	for (; wr; wr = next) {
		next = wr->next;
		kfree(wr);
	}
}

/*
 * One send request of the user's, as the kernel's; *@ah is the AH a
 * datagram holds (shared) until the post is done.
 */
static struct ib_send_wr *
uverbs_send_wr(struct uverbs_attr_bundle *attrs, struct ib_qp *qp,
	       const struct ib_uverbs_send_wr *u, struct ib_uobject **ah)
{
	bool ud = qp->qp_type == IB_QPT_UD;
	struct ib_send_wr *wr;
	size_t size;

	*ah = NULL;
	if (ud) {
		if (u->opcode != IB_WR_SEND && u->opcode != IB_WR_SEND_WITH_IMM)
			return ERR_PTR(-EINVAL);
		size = sizeof(struct ib_ud_wr);
	} else {
		switch (u->opcode) {
		case IB_WR_RDMA_WRITE:
		case IB_WR_RDMA_WRITE_WITH_IMM:
		case IB_WR_RDMA_READ:
			size = sizeof(struct ib_rdma_wr);
			break;
		case IB_WR_ATOMIC_CMP_AND_SWP:
		case IB_WR_ATOMIC_FETCH_AND_ADD:
			size = sizeof(struct ib_atomic_wr);
			break;
		case IB_WR_SEND:
		case IB_WR_SEND_WITH_IMM:
		case IB_WR_SEND_WITH_INV:
			size = sizeof(struct ib_send_wr);
			break;
		default:
			return ERR_PTR(-EINVAL);
		}
	}
	wr = uverbs_alloc_wr(size, u->num_sge);
	if (!wr)
		return ERR_PTR(-ENOMEM);
	if (ud) {
		struct ib_ud_wr *w = container_of(wr, struct ib_ud_wr, wr);
		struct ib_uobject *uobj;

		uobj = uverbs_obj_get(attrs, &uverbs_type_ah, u->wr.ud.ah, UVERBS_LOOKUP_READ);
		if (IS_ERR(uobj)) {
			kfree(wr);
			return ERR_PTR(-EINVAL);
		}
		*ah = uobj;
		w->ah = uobj->object;
		w->remote_qpn = u->wr.ud.remote_qpn;
		w->remote_qkey = u->wr.ud.remote_qkey;
	} else if (u->opcode == IB_WR_RDMA_WRITE ||
		   u->opcode == IB_WR_RDMA_WRITE_WITH_IMM ||
		   u->opcode == IB_WR_RDMA_READ) {
		struct ib_rdma_wr *w = container_of(wr, struct ib_rdma_wr, wr);

		w->remote_addr = u->wr.rdma.remote_addr;
		w->rkey = u->wr.rdma.rkey;
	} else if (u->opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
		   u->opcode == IB_WR_ATOMIC_FETCH_AND_ADD) {
		struct ib_atomic_wr *w = container_of(wr, struct ib_atomic_wr,
						      wr);

		w->remote_addr = u->wr.atomic.remote_addr;
		w->compare_add = u->wr.atomic.compare_add;
		w->swap = u->wr.atomic.swap;
		w->rkey = u->wr.atomic.rkey;
	}
	if (u->opcode == IB_WR_SEND_WITH_IMM ||
	    u->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		wr->ex.imm_data = u->ex.imm_data;
	else if (u->opcode == IB_WR_SEND_WITH_INV)
		wr->ex.invalidate_rkey = u->ex.invalidate_rkey;
	wr->wr_id = u->wr_id;
	wr->num_sge = u->num_sge;
	wr->opcode = u->opcode;
	wr->send_flags = u->send_flags;
	wr->sg_list = u->num_sge ? (void *)wr + ALIGN(size, sizeof(struct ib_sge)) :
				   NULL;
	return wr;
}

/* How many requests up to and including @bad. */
static u32 uverbs_bad_wr_index(const void *first, const void *bad,
			       const void *(*next)(const void *))
{
	const void *wr;
	u32 n = 0;

	for (wr = first; wr; wr = next(wr)) {
		n++;
		if (wr == bad)
			break;
	}
	return n;
}

static const void *uverbs_next_send(const void *wr)
{
	return ((const struct ib_send_wr *)wr)->next;
}

static const void *uverbs_next_recv(const void *wr)
{
	return ((const struct ib_recv_wr *)wr)->next;
}

/**
 * uverbs_post_send - POST_SEND
 * @attrs: the command
 *
 * No request at all rings the driver's doorbell (siw's and rxe's
 * providers post into mapped queues and then call this).
 *
 * Context: process context, a command of the file.
 * Return: 0 with the response's bad_wr 0; the driver's error with
 * bad_wr counting up to the refused request; -ENOSPC for arrays past
 * what was written; -EOPNOTSUPP for non-zero bytes after them; -EINVAL
 * for a request smaller than the ABI's, more SGEs than sge_count, a
 * handle of no QP or AH, an opcode the QP type cannot post; -ENOMEM;
 * -EFAULT.
 */
int uverbs_post_send(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_post_send_resp resp = {};
	struct ib_send_wr *first = NULL, *last = NULL, *wr;
	const struct ib_send_wr *bad = NULL;
	struct ib_uobject **ahs = NULL, *uobj;
	struct ib_uverbs_send_wr *u = NULL;
	struct ib_uverbs_post_send cmd;
	struct uverbs_wr_arrays a;
	struct ib_device *dev;
	u32 i, nah = 0, sge = 0;
	int ret, ret2;

	dev = uverbs_ctx_request_head(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ret = uverbs_wr_arrays(attrs, sizeof(cmd), cmd.wr_count, cmd.wqe_size,
			       cmd.sge_count, sizeof(*u), false, &a);
	if (ret)
		return ret;
	uobj = uverbs_obj_get(attrs, &uverbs_type_qp, cmd.qp_handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	u = kmalloc(cmd.wqe_size, GFP_KERNEL);
	ahs = kcalloc(cmd.wr_count, sizeof(*ahs), GFP_KERNEL);
	if (!u || (cmd.wr_count && !ahs)) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < cmd.wr_count; i++) {
		if (copy_from_user(u, a.wrs + (size_t)i * cmd.wqe_size,
				   cmd.wqe_size)) {
			ret = -EFAULT;
			goto out;
		}
		if (u->num_sge > cmd.sge_count - sge) {
			ret = -EINVAL;
			goto out;
		}
		wr = uverbs_send_wr(attrs, uobj->object, u, &ahs[nah]);
		if (IS_ERR(wr)) {
			ret = PTR_ERR(wr);
			goto out;
		}
		if (ahs[nah])
			nah++;
		if (last)
			last->next = wr;
		else
			first = wr;
		last = wr;
		ret = uverbs_read_sges(&a, &sge, wr->num_sge, cmd.sge_count,
				       wr->sg_list);
		if (ret)
			goto out;
	}
	ret = dev->ops.post_send(((struct ib_qp *)uobj->object)->real_qp,
				 first, &bad);
	if (ret)
		resp.bad_wr = uverbs_bad_wr_index(first, bad, uverbs_next_send);
	ret2 = uverbs_response(attrs, &resp, sizeof(resp));
	if (!ret)
		ret = ret2;
out:
	uverbs_free_send_wrs(first, ahs, nah);
	kfree(ahs);
	kfree(u);
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	return ret;
}

/*
 * The receive requests of a POST_RECV or POST_SRQ_RECV as the kernel's,
 * or an ERR_PTR().
 */
static struct ib_recv_wr *uverbs_recv_wrs(struct uverbs_attr_bundle *attrs,
					  size_t fixed, u32 wr_count,
					  u32 wqe_size, u32 sge_count)
{
	struct ib_recv_wr *first = NULL, *last = NULL, *wr;
	struct ib_uverbs_recv_wr *u;
	struct uverbs_wr_arrays a;
	u32 i, sge = 0;
	int ret;

	ret = uverbs_wr_arrays(attrs, fixed, wr_count, wqe_size, sge_count,
			       sizeof(*u), true, &a);
	if (ret)
		return ERR_PTR(ret);
	u = kmalloc(wqe_size, GFP_KERNEL);
	if (!u)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < wr_count; i++) {
		ret = -EFAULT;
		if (copy_from_user(u, a.wrs + (size_t)i * wqe_size, wqe_size))
			goto err;
		ret = -EINVAL;
		if (u->num_sge > sge_count - sge)
			goto err;
		ret = -ENOMEM;
		wr = uverbs_alloc_wr(sizeof(*wr), u->num_sge);
		if (!wr)
			goto err;
		if (last)
			last->next = wr;
		else
			first = wr;
		last = wr;
		wr->wr_id = u->wr_id;
		wr->num_sge = u->num_sge;
		wr->sg_list = u->num_sge ?
			      (void *)wr + ALIGN(sizeof(*wr),
						 sizeof(struct ib_sge)) : NULL;
		ret = uverbs_read_sges(&a, &sge, u->num_sge, sge_count,
				       wr->sg_list);
		if (ret)
			goto err;
	}
	kfree(u);
	return first;

err:
	kfree(u);
	while (first) {
		wr = first->next;
		kfree(first);
		first = wr;
	}
	return ERR_PTR(ret);
}

static void uverbs_free_recv_wrs(struct ib_recv_wr *wr)
{
	struct ib_recv_wr *next;

	for (; wr; wr = next) {
		next = wr->next;
		kfree(wr);
	}
}

/* POST_RECV and POST_SRQ_RECV: @qp or @srq takes the requests. */
static int uverbs_post_recv_common(struct uverbs_attr_bundle *attrs,
				   const struct uverbs_api_object *type,
				   u32 handle, size_t fixed, u32 wr_count,
				   u32 wqe_size, u32 sge_count)
{
	struct ib_uverbs_post_recv_resp resp = {};
	const struct ib_recv_wr *bad = NULL;
	struct ib_uobject *uobj;
	struct ib_recv_wr *wrs;
	int ret, ret2;

	wrs = uverbs_recv_wrs(attrs, fixed, wr_count, wqe_size, sge_count);
	if (IS_ERR(wrs))
		return PTR_ERR(wrs);
	uobj = uverbs_obj_get(attrs, type, handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj)) {
		ret = PTR_ERR(uobj);
		goto out;
	}
	if (type == &uverbs_type_qp) {
		struct ib_qp *qp = ((struct ib_qp *)uobj->object)->real_qp;

		ret = qp->device->ops.post_recv(qp, wrs, &bad);
	} else {
		struct ib_srq *srq = uobj->object;

		ret = srq->device->ops.post_srq_recv(srq, wrs, &bad);
	}
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	if (ret)
		resp.bad_wr = uverbs_bad_wr_index(wrs, bad, uverbs_next_recv);
	ret2 = uverbs_response(attrs, &resp, sizeof(resp));
	if (!ret)
		ret = ret2;
out:
	uverbs_free_recv_wrs(wrs);
	return ret;
}

/**
 * uverbs_post_recv - POST_RECV
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: as uverbs_post_send(), for receive requests.
 */
int uverbs_post_recv(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_post_recv cmd;
	struct ib_device *dev;

	dev = uverbs_ctx_request_head(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	return uverbs_post_recv_common(attrs, &uverbs_type_qp, cmd.qp_handle,
				       sizeof(cmd), cmd.wr_count,
				       cmd.wqe_size, cmd.sge_count);
}

/**
 * uverbs_post_srq_recv - POST_SRQ_RECV
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: as uverbs_post_recv(), for an SRQ.
 */
int uverbs_post_srq_recv(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_post_srq_recv cmd;
	struct ib_device *dev;

	dev = uverbs_ctx_request_head(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	return uverbs_post_recv_common(attrs, &uverbs_type_srq, cmd.srq_handle,
				       sizeof(cmd), cmd.wr_count,
				       cmd.wqe_size, cmd.sge_count);
}
