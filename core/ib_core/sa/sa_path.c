// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Path records: the wire PathRecord (IBTA 15.2.5.16) and struct
 * sa_path_rec, the PathRecord Get to the SA, and the address handle
 * attributes of a path.  RoCE paths never go to an SA: rdma_cm builds
 * them from address resolution, and ib_init_ah_attr_from_path()
 * resolves their route here.
 */

#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_pack.h>
#include <rdma/opa_addr.h>
#include "../core_priv.h"
#include "sa_priv.h"

/*
 * Bits @bits at bit @bit of 32-bit word @word: the member given last
 * (variadic only so that checkpatch sees it used once).
 */
#define PR(word, bit, bits, ...)					\
	{ .struct_offset_bytes = offsetof(struct sa_path_rec, __VA_ARGS__),	\
	  .struct_size_bytes = sizeof_field(struct sa_path_rec, __VA_ARGS__),	\
	  .field_name = "sa_path_rec:" #__VA_ARGS__,			\
	  .offset_words = (word), .offset_bits = (bit), .size_bits = (bits) }
#define PR_RESERVED(word, bit, bits)					\
	{ RESERVED, .offset_words = (word), .offset_bits = (bit),	\
	  .size_bits = (bits) }

/* PathRecord, 64 bytes; the IB flavour of struct sa_path_rec. */
static const struct ib_field sa_path_fields[] = {
	PR(0, 0, 64, service_id),
	PR(2, 0, 128, dgid),
	PR(6, 0, 128, sgid),
	PR(10, 0, 16, ib.dlid),
	PR(10, 16, 16, ib.slid),
	PR(11, 0, 1, ib.raw_traffic),
	PR_RESERVED(11, 1, 3),
	PR(11, 4, 20, flow_label),
	PR(11, 24, 8, hop_limit),
	PR(12, 0, 8, traffic_class),
	PR(12, 8, 1, reversible),
	PR(12, 9, 7, numb_path),
	PR(12, 16, 16, pkey),
	PR(13, 0, 12, qos_class),
	PR(13, 12, 4, sl),
	PR(13, 16, 2, mtu_selector),
	PR(13, 18, 6, mtu),
	PR(13, 24, 2, rate_selector),
	PR(13, 26, 6, rate),
	PR(14, 0, 2, packet_life_time_selector),
	PR(14, 2, 6, packet_life_time),
	PR(14, 8, 8, preference),
	PR_RESERVED(14, 16, 48),
};

/* A path query: the caller's callback and what a conversion needs. */
struct sa_path_query {
	void (*callback)(int status, struct sa_path_rec *rec,
			 unsigned int num_paths, void *context);
	void *context;
	struct ib_sa_query sa_query;
	struct sa_path_rec *conv_pr;	/* IB copy of an OPA request */
};

/**
 * ib_sa_unpack_path - a wire PathRecord into a struct sa_path_rec
 * @attribute: the 64 bytes of the record
 * @rec: filled: the common fields and the IB LIDs (@rec->rec_type is
 *	left as it is)
 *
 * Context: Any context.
 */
void ib_sa_unpack_path(void *attribute, struct sa_path_rec *rec)
{
	ib_unpack(sa_path_fields, ARRAY_SIZE(sa_path_fields), attribute, rec);
}
EXPORT_SYMBOL(ib_sa_unpack_path);

/**
 * ib_sa_pack_path - a struct sa_path_rec as a wire PathRecord
 * @rec: an IB path
 * @attribute: 64 bytes, written whole (reserved bits zero)
 *
 * Context: Any context.
 */
void ib_sa_pack_path(struct sa_path_rec *rec, void *attribute)
{
	ib_pack(sa_path_fields, ARRAY_SIZE(sa_path_fields), rec, attribute);
}
EXPORT_SYMBOL(ib_sa_pack_path);

static void sa_path_callback(struct ib_sa_query *sa_query, int status,
			     struct ib_sa_mad *mad)
{
	struct sa_path_query *query = container_of(sa_query,
						   struct sa_path_query,
						   sa_query);
	struct sa_path_rec rec = {}, opa = {};

	if (!mad) {
		query->callback(status, NULL, 0, query->context);
		return;
	}

	ib_sa_unpack_path(mad->data, &rec);
	rec.rec_type = SA_PATH_REC_TYPE_IB;
	sa_path_set_dmac_zero(&rec);
	if (query->conv_pr) {
		/* asked as OPA, answered by an IB SA */
		sa_convert_path_ib_to_opa(&opa, &rec);
		query->callback(status, &opa, 1, query->context);
		return;
	}
	query->callback(status, &rec, 1, query->context);
}

/*
 * Records a local service answered with (IB, unpacked); an OPA request
 * gets the first, converted back.
 */
static void sa_path_ls_callback(struct ib_sa_query *sa_query,
				struct sa_path_rec *recs,
				unsigned int num_recs)
{
	struct sa_path_query *query = container_of(sa_query,
						   struct sa_path_query,
						   sa_query);
	struct sa_path_rec opa = {};

	if (query->conv_pr) {
		sa_convert_path_ib_to_opa(&opa, &recs[0]);
		query->callback(0, &opa, 1, query->context);
		return;
	}
	query->callback(0, recs, num_recs, query->context);
}

static void sa_path_release(struct ib_sa_query *sa_query)
{
	struct sa_path_query *query = container_of(sa_query,
						   struct sa_path_query,
						   sa_query);

	kfree(query->conv_pr);
	kfree(query);
}

/*
 * Whether an OPA path can be asked for on @port: only as an IB query
 * here (the MAD layer has no OPA MADs), which needs an IB-sized LID.
 */
static int sa_opa_path_as_ib(struct ib_device *device, u32 port_num)
{
	struct ib_port_attr pa;

	if (ib_query_port(device, port_num, &pa))
		return -EINVAL;
	if (pa.lid >= be16_to_cpu(IB_MULTICAST_LID_BASE))
		return -EINVAL;
	return 0;
}

/**
 * ib_sa_path_rec_get - ask the SA for a path
 * @client: the caller's SA client
 * @device: the device
 * @port_num: the port to ask through
 * @rec: the request: the fields @comp_mask names (an IB or OPA path)
 * @comp_mask: IB_SA_PATH_REC_* of the fields that count
 * @timeout_ms: how long to wait for the SA in all (in ten tries)
 * @gfp_mask: for the allocations
 * @callback: called once: status 0 with the SA's path (@num_prs 1),
 *	or with the local service's (RDMA_NL_LS) paths (@num_prs 1 to 3);
 *	-EINVAL, with the record, when the SA answered with an error
 *	status; -ETIMEDOUT without an answer; -EINTR when cancelled or
 *	the device went; -EIO when the send failed (record NULL then)
 * @context: passed to @callback
 * @query: set to the query, for ib_sa_cancel_query()
 *
 * A PathRecord Get goes to the SA of the port; when a process listens
 * on RDMA_NL_GROUP_LS (ibacm), the request is offered to it first and
 * goes to the SA only when it fails or does not answer in time
 * (Documentation/core/sa.rst).  RoCE paths are not
 * asked for here: they are resolved locally (rdma_cm's address
 * resolution, ib_init_ah_attr_from_path()).
 *
 * Context: Any context @gfp_mask allows; @callback runs in process
 * context, maybe before this returns.
 * Return: the query's id (>= 0) for ib_sa_cancel_query(); -ENODEV when
 * the port has no SA; -EINVAL for a RoCE path or an OPA path that
 * cannot be asked; -EAGAIN while the port has no SA address handle
 * (no SM LID yet, or it is being rebuilt); -ENOMEM.
 */
int ib_sa_path_rec_get(struct ib_sa_client *client, struct ib_device *device,
		       u32 port_num, struct sa_path_rec *rec,
		       ib_sa_comp_mask comp_mask, unsigned long timeout_ms,
		       gfp_t gfp_mask,
		       void (*callback)(int status, struct sa_path_rec *resp,
					unsigned int num_prs, void *context),
		       void *context, struct ib_sa_query **query)
{
	struct ib_sa_port *port = ib_sa_find_port(device, port_num);
	struct sa_path_query *pq;
	int ret;

	if (!port)
		return -ENODEV;
	if (rec->rec_type != SA_PATH_REC_TYPE_IB &&
	    rec->rec_type != SA_PATH_REC_TYPE_OPA)
		return -EINVAL;

	pq = kzalloc(sizeof(*pq), gfp_mask);
	if (!pq)
		return -ENOMEM;
	pq->sa_query.port = port;

	if (rec->rec_type == SA_PATH_REC_TYPE_OPA) {
		ret = sa_opa_path_as_ib(device, port_num);
		if (ret)
			goto err_free;
		pq->conv_pr = kmalloc(sizeof(*pq->conv_pr), gfp_mask);
		if (!pq->conv_pr) {
			ret = -ENOMEM;
			goto err_free;
		}
		*pq->conv_pr = *rec;
		sa_convert_path_opa_to_ib(pq->conv_pr, rec);
	}

	pq->callback = callback;
	pq->context = context;
	pq->sa_query.callback = callback ? sa_path_callback : NULL;
	pq->sa_query.ls_callback = callback ? sa_path_ls_callback : NULL;
	pq->sa_query.release = sa_path_release;
	pq->sa_query.flags |= IB_SA_ENABLE_LOCAL_SERVICE;
	ret = ib_sa_query_prepare(&pq->sa_query, client, IB_MGMT_METHOD_GET,
				  IB_SA_ATTR_PATH_REC, comp_mask, gfp_mask);
	if (ret)
		goto err_free;
	ib_sa_pack_path(pq->conv_pr ? pq->conv_pr : rec,
			ib_sa_query_data(&pq->sa_query));
	/* the local service reads the request from here */
	pq->sa_query.mad_buf->context[1] = pq->conv_pr ? pq->conv_pr : rec;

	ret = ib_sa_query_start(&pq->sa_query, timeout_ms, gfp_mask, query);
	if (ret < 0)
		goto err_free;
	return ret;

err_free:
	kfree(pq->conv_pr);
	kfree(pq);
	return ret;
}
EXPORT_SYMBOL(ib_sa_path_rec_get);

/* The GRH of a path's AH: @sgid_attr, or the path's SGID's entry. */
static int sa_path_grh(struct ib_device *device, u32 port_num,
		       struct sa_path_rec *rec, struct rdma_ah_attr *ah_attr,
		       const struct ib_gid_attr *sgid_attr)
{
	if (sgid_attr) {
		rdma_hold_gid_attr(sgid_attr);
	} else {
		sgid_attr = rdma_find_gid_by_port(device, &rec->sgid,
						  sa_conv_pathrec_to_gid_type(rec),
						  port_num, NULL);
		if (IS_ERR(sgid_attr))
			return PTR_ERR(sgid_attr);
	}
	/* the reference moves into @ah_attr */
	rdma_move_grh_sgid_attr(ah_attr, &rec->dgid,
				be32_to_cpu(rec->flow_label), rec->hop_limit,
				rec->traffic_class, sgid_attr);
	return 0;
}

/**
 * ib_init_ah_attr_from_path - address handle attributes of a path
 * @device: the device
 * @port_num: the port the path leaves from
 * @rec: the path (IB, OPA or RoCE)
 * @ah_attr: written whole
 * @sgid_attr: the source GID entry, or NULL to look @rec->sgid up
 *
 * SL, port and static rate come from the path; IB and OPA paths give
 * the DLID and, from the SLID, the path bits the port's LMC allows; a
 * RoCE path has its route resolved (unless done already) and gives the
 * next hop's MAC.  A path with a hop limit, and every RoCE path, gets a
 * GRH that holds a reference to the source GID entry: the caller
 * releases it with rdma_destroy_ah_attr().
 *
 * Context: Process context for RoCE paths (route lookup); any context
 * otherwise.
 * Return: 0; -EINVAL or the errno of the route lookup for a RoCE path
 * without route; the errno of rdma_find_gid_by_port() when the SGID is
 * not in the port's table (-ENOENT).
 */
int ib_init_ah_attr_from_path(struct ib_device *device, u32 port_num,
			      struct sa_path_rec *rec,
			      struct rdma_ah_attr *ah_attr,
			      const struct ib_gid_attr *sgid_attr)
{
	int ret;

	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = rdma_ah_find_type(device, port_num);
	rdma_ah_set_sl(ah_attr, rec->sl);
	rdma_ah_set_port_num(ah_attr, port_num);
	rdma_ah_set_static_rate(ah_attr, rec->rate);

	if (sa_path_is_roce(rec)) {
		ret = roce_resolve_route_from_path(rec, sgid_attr);
		if (ret)
			return ret;
		memcpy(ah_attr->roce.dmac, sa_path_get_dmac(rec), ETH_ALEN);
	} else {
		rdma_ah_set_dlid(ah_attr, be32_to_cpu(sa_path_get_dlid(rec)));
		if (sa_path_is_opa(rec) &&
		    rdma_ah_get_dlid(ah_attr) ==
		    be16_to_cpu(IB_LID_PERMISSIVE))
			rdma_ah_set_make_grd(ah_attr, true);
		rdma_ah_set_path_bits(ah_attr,
				      be32_to_cpu(sa_path_get_slid(rec)) &
				      ib_sa_src_path_mask(device, port_num));
	}

	if (rec->hop_limit > 0 || sa_path_is_roce(rec))
		return sa_path_grh(device, port_num, rec, ah_attr, sgid_attr);
	return 0;
}
EXPORT_SYMBOL(ib_init_ah_attr_from_path);
