// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The verbs structures as the user ABI has them (<rdma/ib_marshall.h>):
 * address vectors and QP attributes for user space, path records both
 * ways.  rdma_ucm answers routes and QP attributes with them.
 *
 * An OPA address vector whose LID does not fit 16 bits goes to user
 * space as an IB one: the permissive LID and a GRH whose destination GID
 * carries the OPA LID (the form OPA-aware user space decodes); an OPA
 * path record likewise becomes an IB one.
 */
#include <linux/export.h>
#include <rdma/ib_marshall.h>
#include <rdma/opa_addr.h>

/* the subnet prefix of a converted address whose port cannot be read */
#define UVERBS_OPA_DEFAULT_PREFIX cpu_to_be64(0xfe80000000000000ULL)

/* @opa as an IB address vector with the LID in the GID; 0 or -EINVAL */
static int uverbs_opa_ah_to_ib(struct ib_device *dev, struct rdma_ah_attr *ib,
			       const struct rdma_ah_attr *opa)
{
	struct ib_port_attr port;
	int ret = 0;

	*ib = *opa;
	ib->type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_grh(ib, NULL, 0, 0, 1, 0);
	if (ib_query_port(dev, opa->port_num, &port)) {
		rdma_ah_set_subnet_prefix(ib, UVERBS_OPA_DEFAULT_PREFIX);
		ret = -EINVAL;
	} else {
		rdma_ah_set_subnet_prefix(ib, cpu_to_be64(port.subnet_prefix));
	}
	rdma_ah_set_interface_id(ib, OPA_MAKE_ID(rdma_ah_get_dlid(opa)));
	rdma_ah_set_dlid(ib, be16_to_cpu(IB_LID_PERMISSIVE));
	return ret;
}

/**
 * ib_copy_ah_attr_to_user - an address vector as user space sees it
 * @device: the device it is of
 * @dst: the user ABI's address vector
 * @ah_attr: the address vector
 *
 * Context: process context (an OPA vector's port is queried).
 */
void ib_copy_ah_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_ah_attr *dst,
			     struct rdma_ah_attr *ah_attr)
{
	const struct rdma_ah_attr *src = ah_attr;
	struct rdma_ah_attr ib;

	if (ah_attr->type == RDMA_AH_ATTR_TYPE_OPA &&
	    rdma_ah_get_dlid(ah_attr) > be16_to_cpu(IB_LID_PERMISSIVE) &&
	    !uverbs_opa_ah_to_ib(device, &ib, ah_attr))
		src = &ib;

	memset(dst, 0, sizeof(*dst));
	dst->dlid = rdma_ah_get_dlid(src);
	dst->sl = rdma_ah_get_sl(src);
	dst->src_path_bits = rdma_ah_get_path_bits(src);
	dst->static_rate = rdma_ah_get_static_rate(src);
	dst->is_global = !!(rdma_ah_get_ah_flags(src) & IB_AH_GRH);
	if (dst->is_global) {
		const struct ib_global_route *grh = rdma_ah_read_grh(src);

		memcpy(dst->grh.dgid, grh->dgid.raw, sizeof(dst->grh.dgid));
		dst->grh.flow_label = grh->flow_label;
		dst->grh.sgid_index = grh->sgid_index;
		dst->grh.hop_limit = grh->hop_limit;
		dst->grh.traffic_class = grh->traffic_class;
	}
	dst->port_num = rdma_ah_get_port_num(src);
}
EXPORT_SYMBOL(ib_copy_ah_attr_to_user);

/**
 * ib_copy_qp_attr_to_user - QP attributes as user space sees them
 * @device: the QP's device
 * @dst: the user ABI's attributes
 * @src: the attributes (ib_query_qp(), or rdma_cm's for a new QP)
 *
 * Context: process context.
 */
void ib_copy_qp_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_qp_attr *dst,
			     struct ib_qp_attr *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->qp_state = src->qp_state;
	dst->cur_qp_state = src->cur_qp_state;
	dst->path_mtu = src->path_mtu;
	dst->path_mig_state = src->path_mig_state;
	dst->qkey = src->qkey;
	dst->rq_psn = src->rq_psn;
	dst->sq_psn = src->sq_psn;
	dst->dest_qp_num = src->dest_qp_num;
	dst->qp_access_flags = src->qp_access_flags;
	dst->max_send_wr = src->cap.max_send_wr;
	dst->max_recv_wr = src->cap.max_recv_wr;
	dst->max_send_sge = src->cap.max_send_sge;
	dst->max_recv_sge = src->cap.max_recv_sge;
	dst->max_inline_data = src->cap.max_inline_data;
	ib_copy_ah_attr_to_user(device, &dst->ah_attr, &src->ah_attr);
	ib_copy_ah_attr_to_user(device, &dst->alt_ah_attr, &src->alt_ah_attr);
	dst->pkey_index = src->pkey_index;
	dst->alt_pkey_index = src->alt_pkey_index;
	dst->en_sqd_async_notify = src->en_sqd_async_notify;
	dst->sq_draining = src->sq_draining;
	dst->max_rd_atomic = src->max_rd_atomic;
	dst->max_dest_rd_atomic = src->max_dest_rd_atomic;
	dst->min_rnr_timer = src->min_rnr_timer;
	dst->port_num = src->port_num;
	dst->timeout = src->timeout;
	dst->retry_cnt = src->retry_cnt;
	dst->rnr_retry = src->rnr_retry;
	dst->alt_port_num = src->alt_port_num;
	dst->alt_timeout = src->alt_timeout;
}
EXPORT_SYMBOL(ib_copy_qp_attr_to_user);

/* The fields both directions copy as they are. */
#define UVERBS_PATH_FIELDS(d, s)					\
	do {								\
		(d)->flow_label = (s)->flow_label;			\
		(d)->hop_limit = (s)->hop_limit;			\
		(d)->traffic_class = (s)->traffic_class;		\
		(d)->reversible = (s)->reversible;			\
		(d)->numb_path = (s)->numb_path;			\
		(d)->pkey = (s)->pkey;					\
		(d)->sl = (s)->sl;					\
		(d)->mtu_selector = (s)->mtu_selector;			\
		(d)->mtu = (s)->mtu;					\
		(d)->rate_selector = (s)->rate_selector;		\
		(d)->rate = (s)->rate;					\
		(d)->packet_life_time = (s)->packet_life_time;		\
		(d)->preference = (s)->preference;			\
		(d)->packet_life_time_selector =			\
			(s)->packet_life_time_selector;			\
	} while (0)

/**
 * ib_copy_path_rec_to_user - a path record as user space sees it
 * @dst: the user ABI's path record (LIDs in network order, 16 bits)
 * @src: the path record; an OPA one goes as its IB form
 *
 * Context: any.
 */
void ib_copy_path_rec_to_user(struct ib_user_path_rec *dst,
			      struct sa_path_rec *src)
{
	struct sa_path_rec ib;

	if (src->rec_type == SA_PATH_REC_TYPE_OPA) {
		/* the conversion rewrites the LIDs and GIDs of a copy */
		ib = *src;
		sa_convert_path_opa_to_ib(&ib, src);
		src = &ib;
	}
	memset(dst, 0, sizeof(*dst));
	memcpy(dst->dgid, src->dgid.raw, sizeof(dst->dgid));
	memcpy(dst->sgid, src->sgid.raw, sizeof(dst->sgid));
	dst->dlid = htons(ntohl(sa_path_get_dlid(src)));
	dst->slid = htons(ntohl(sa_path_get_slid(src)));
	dst->raw_traffic = sa_path_get_raw_traffic(src);
	UVERBS_PATH_FIELDS(dst, src);
}
EXPORT_SYMBOL(ib_copy_path_rec_to_user);

/**
 * ib_copy_path_rec_from_user - a path record user space gave
 * @dst: the path record: an OPA one when either GID carries an OPA LID,
 *	else an IB one (no destination MAC)
 * @src: the user ABI's path record
 *
 * Context: any.
 */
void ib_copy_path_rec_from_user(struct sa_path_rec *dst,
				struct ib_user_path_rec *src)
{
	union ib_gid *sgid = (union ib_gid *)src->sgid;
	union ib_gid *dgid = (union ib_gid *)src->dgid;
	u32 slid, dlid;

	memset(dst, 0, sizeof(*dst));
	if (ib_is_opa_gid(sgid) || ib_is_opa_gid(dgid)) {
		dst->rec_type = SA_PATH_REC_TYPE_OPA;
		slid = opa_get_lid_from_gid(sgid);
		dlid = opa_get_lid_from_gid(dgid);
	} else {
		dst->rec_type = SA_PATH_REC_TYPE_IB;
		slid = ntohs(src->slid);
		dlid = ntohs(src->dlid);
	}
	memcpy(dst->dgid.raw, src->dgid, sizeof(dst->dgid));
	memcpy(dst->sgid.raw, src->sgid, sizeof(dst->sgid));
	sa_path_set_dlid(dst, dlid);
	sa_path_set_slid(dst, slid);
	sa_path_set_raw_traffic(dst, src->raw_traffic);
	UVERBS_PATH_FIELDS(dst, src);
	sa_path_set_dmac_zero(dst);
}
EXPORT_SYMBOL(ib_copy_path_rec_from_user);
