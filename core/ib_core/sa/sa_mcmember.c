// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MCMemberRecord (IBTA 15.2.5.17): the wire layout, the SA query that
 * sets (joins), deletes (leaves) or reads a port's membership of a
 * multicast group, and the address handle attributes that send to a
 * group.  The join state machine on top is sa_mcast.c.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_pack.h>
#include "sa_priv.h"

/*
 * Bits @bits at bit @bit of 32-bit word @word: the member given last
 * (variadic only so that checkpatch sees it used once).
 */
#define MC(word, bit, bits, ...)					\
	{ .struct_offset_bytes = offsetof(struct ib_sa_mcmember_rec, __VA_ARGS__),	\
	  .struct_size_bytes = sizeof_field(struct ib_sa_mcmember_rec, __VA_ARGS__),	\
	  .field_name = "sa_mcmember_rec:" #__VA_ARGS__,			\
	  .offset_words = (word), .offset_bits = (bit), .size_bits = (bits) }
#define MC_RESERVED(word, bit, bits)					\
	{ RESERVED, .offset_words = (word), .offset_bits = (bit),	\
	  .size_bits = (bits) }

/* MCMemberRecord, 52 bytes. */
static const struct ib_field sa_mcmember_fields[] = {
	MC(0, 0, 128, mgid),
	MC(4, 0, 128, port_gid),
	MC(8, 0, 32, qkey),
	MC(9, 0, 16, mlid),
	MC(9, 16, 2, mtu_selector),
	MC(9, 18, 6, mtu),
	MC(9, 24, 8, traffic_class),
	MC(10, 0, 16, pkey),
	MC(10, 16, 2, rate_selector),
	MC(10, 18, 6, rate),
	MC(10, 24, 2, packet_life_time_selector),
	MC(10, 26, 6, packet_life_time),
	MC(11, 0, 4, sl),
	MC(11, 4, 20, flow_label),
	MC(11, 24, 8, hop_limit),
	MC(12, 0, 4, scope),
	MC(12, 4, 4, join_state),
	MC(12, 8, 1, proxy_join),
	MC_RESERVED(12, 9, 23),
};

/**
 * ib_sa_pack_mcmember - a struct ib_sa_mcmember_rec into its wire form
 * @rec: the record
 * @attribute: the 52 bytes of the MAD's data it goes to
 *
 * Context: Any context.
 * Return: nothing.
 */
VISIBLE_IF_KUNIT void ib_sa_pack_mcmember(const struct ib_sa_mcmember_rec *rec,
					  void *attribute)
{
	ib_pack(sa_mcmember_fields, ARRAY_SIZE(sa_mcmember_fields),
		(void *)rec, attribute);
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_pack_mcmember);

/**
 * ib_sa_unpack_mcmember - a wire MCMemberRecord into its structure
 * @attribute: the 52 bytes of the record
 * @rec: filled
 *
 * Context: Any context.
 * Return: nothing.
 */
VISIBLE_IF_KUNIT void ib_sa_unpack_mcmember(const void *attribute,
					    struct ib_sa_mcmember_rec *rec)
{
	ib_unpack(sa_mcmember_fields, ARRAY_SIZE(sa_mcmember_fields),
		  (void *)attribute, rec);
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_unpack_mcmember);

struct sa_mcmember_query {
	void (*callback)(int status, struct ib_sa_mcmember_rec *rec,
			 void *context);
	void *context;
	struct ib_sa_query sa_query;
};

static void sa_mcmember_callback(struct ib_sa_query *sa_query, int status,
				 struct ib_sa_mad *mad)
{
	struct sa_mcmember_query *query =
		container_of(sa_query, struct sa_mcmember_query, sa_query);
	struct ib_sa_mcmember_rec rec;

	if (!mad) {
		query->callback(status, NULL, query->context);
		return;
	}
	ib_sa_unpack_mcmember(mad->data, &rec);
	query->callback(status, &rec, query->context);
}

static void sa_mcmember_release(struct ib_sa_query *sa_query)
{
	kfree(container_of(sa_query, struct sa_mcmember_query, sa_query));
}

/**
 * ib_sa_mcmember_rec_query - set, delete or read an MCMemberRecord
 * @client: the caller's SA client
 * @device: the device
 * @port_num: the port to ask through
 * @method: IB_MGMT_METHOD_SET (join), IB_SA_METHOD_DELETE (leave) or
 *	IB_MGMT_METHOD_GET
 * @rec: the record (the fields @comp_mask names)
 * @comp_mask: IB_SA_MCMEMBER_REC_* of the fields that count
 * @timeout_ms: how long to wait for the SA in all (in ten tries)
 * @gfp_mask: for the allocations
 * @callback: called once: status 0 with the SA's record; -EINVAL, with
 *	the record, when the SA answered with an error status;
 *	-ETIMEDOUT, -EINTR (cancelled, device gone) or -EIO with NULL
 * @context: passed to @callback
 * @sa_query: set to the query, for ib_sa_cancel_query()
 *
 * Internal to ib_core (the multicast joins of sa_mcast.c use it).
 *
 * Context: Any context @gfp_mask allows; @callback runs in process
 * context, maybe before this returns.
 * Return: the query's id (>= 0); -ENODEV when the port has no SA;
 * -EINVAL for another method; -EAGAIN while the port has no SA address
 * handle; -ENOMEM.
 */
int ib_sa_mcmember_rec_query(struct ib_sa_client *client,
			     struct ib_device *device, u32 port_num, u8 method,
			     struct ib_sa_mcmember_rec *rec,
			     ib_sa_comp_mask comp_mask,
			     unsigned long timeout_ms, gfp_t gfp_mask,
			     void (*callback)(int status,
					      struct ib_sa_mcmember_rec *resp,
					      void *context),
			     void *context, struct ib_sa_query **sa_query)
{
	struct ib_sa_port *port = ib_sa_find_port(device, port_num);
	struct sa_mcmember_query *query;
	int ret;

	if (!port)
		return -ENODEV;
	if (method != IB_MGMT_METHOD_GET && method != IB_MGMT_METHOD_SET &&
	    method != IB_SA_METHOD_DELETE)
		return -EINVAL;

	query = kzalloc(sizeof(*query), gfp_mask);
	if (!query)
		return -ENOMEM;
	query->sa_query.port = port;
	query->callback = callback;
	query->context = context;
	query->sa_query.callback = callback ? sa_mcmember_callback : NULL;
	query->sa_query.release = sa_mcmember_release;
	ret = ib_sa_query_prepare(&query->sa_query, client, method,
				  IB_SA_ATTR_MC_MEMBER_REC, comp_mask, gfp_mask);
	if (ret)
		goto err_free;
	ib_sa_pack_mcmember(rec, ib_sa_query_data(&query->sa_query));

	ret = ib_sa_query_start(&query->sa_query, timeout_ms, gfp_mask,
				sa_query);
	if (ret < 0)
		goto err_free;
	return ret;

err_free:
	kfree(query);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_mcmember_rec_query);

/**
 * ib_init_ah_from_mcmember - address handle attributes that send to a group
 * @device: the device
 * @port_num: the port the group was joined on
 * @rec: the group's record (the SA's answer to the join)
 * @ndev: on RoCE, the net device of the source GID; ignored on IB
 * @gid_type: the type of the source GID
 * @ah_attr: set: DLID the MLID, SL, rate, port, and a GRH to the MGID
 *	from the port's GID @rec->port_gid
 *
 * On success @ah_attr holds a reference to the source GID entry; the
 * caller drops it with rdma_destroy_ah_attr().
 *
 * Context: Any context; takes the GID table's read lock.
 * Return: 0; -EINVAL when the port is neither IB nor RoCE; the errno of
 * the GID lookup (-ENOENT: @rec->port_gid is not the port's).
 */
int ib_init_ah_from_mcmember(struct ib_device *device, u32 port_num,
			     struct ib_sa_mcmember_rec *rec,
			     struct net_device *ndev,
			     enum ib_gid_type gid_type,
			     struct rdma_ah_attr *ah_attr)
{
	const struct ib_gid_attr *sgid_attr;

	/* an IB port's GID table has no net devices */
	if (rdma_protocol_ib(device, port_num))
		ndev = NULL;
	else if (!rdma_protocol_roce(device, port_num))
		return -EINVAL;

	sgid_attr = rdma_find_gid_by_port(device, &rec->port_gid, gid_type,
					  port_num, ndev);
	if (IS_ERR(sgid_attr))
		return PTR_ERR(sgid_attr);

	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = rdma_ah_find_type(device, port_num);
	rdma_ah_set_dlid(ah_attr, be16_to_cpu(rec->mlid));
	rdma_ah_set_sl(ah_attr, rec->sl);
	rdma_ah_set_port_num(ah_attr, port_num);
	rdma_ah_set_static_rate(ah_attr, rec->rate);
	rdma_move_grh_sgid_attr(ah_attr, &rec->mgid,
				be32_to_cpu(rec->flow_label), rec->hop_limit,
				rec->traffic_class, sgid_attr);
	return 0;
}
EXPORT_SYMBOL(ib_init_ah_from_mcmember);
