// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * GUIDInfoRecord (IBTA 15.2.5.18): a port's block of eight alias GUIDs
 * as the SA holds it, read, set or deleted (IPoIB's and mlx4's alias
 * GUID management use it).
 */

#include <linux/slab.h>
#include <rdma/ib_pack.h>
#include "sa_priv.h"

/*
 * Bits @bits at bit @bit of 32-bit word @word: the member given last
 * (variadic only so that checkpatch sees it used once).
 */
#define GI(word, bit, bits, ...)					\
	{ .struct_offset_bytes = offsetof(struct ib_sa_guidinfo_rec, __VA_ARGS__),	\
	  .struct_size_bytes = sizeof_field(struct ib_sa_guidinfo_rec, __VA_ARGS__),	\
	  .field_name = "sa_guidinfo_rec:" #__VA_ARGS__,			\
	  .offset_words = (word), .offset_bits = (bit), .size_bits = (bits) }

/* GUIDInfoRecord: LID, block, two reserved fields, eight GUIDs. */
static const struct ib_field sa_guidinfo_fields[] = {
	GI(0, 0, 16, lid),
	GI(0, 16, 8, block_num),
	GI(0, 24, 8, res1),
	GI(1, 0, 32, res2),
	GI(2, 0, 512, guid_info_list),
};

struct sa_guidinfo_query {
	void (*callback)(int status, struct ib_sa_guidinfo_rec *rec,
			 void *context);
	void *context;
	struct ib_sa_query sa_query;
};

static void sa_guidinfo_callback(struct ib_sa_query *sa_query, int status,
				 struct ib_sa_mad *mad)
{
	struct sa_guidinfo_query *query =
		container_of(sa_query, struct sa_guidinfo_query, sa_query);
	struct ib_sa_guidinfo_rec rec;

	if (!mad) {
		query->callback(status, NULL, query->context);
		return;
	}
	ib_unpack(sa_guidinfo_fields, ARRAY_SIZE(sa_guidinfo_fields),
		  mad->data, &rec);
	query->callback(status, &rec, query->context);
}

static void sa_guidinfo_release(struct ib_sa_query *sa_query)
{
	kfree(container_of(sa_query, struct sa_guidinfo_query, sa_query));
}

/**
 * ib_sa_guid_info_rec_query - read, set or delete a GUIDInfoRecord
 * @client: the caller's SA client
 * @device: the device
 * @port_num: the port to ask through
 * @rec: the record (the fields @comp_mask names)
 * @comp_mask: IB_SA_GUIDINFO_REC_* of the fields that count
 * @method: IB_MGMT_METHOD_GET, IB_MGMT_METHOD_SET or
 *	IB_SA_METHOD_DELETE
 * @timeout_ms: how long to wait for the SA in all (in ten tries)
 * @gfp_mask: for the allocations
 * @callback: called once: status 0 with the SA's record; -EINVAL, with
 *	the record, when the SA answered with an error status;
 *	-ETIMEDOUT, -EINTR (cancelled, device gone) or -EIO with NULL
 * @context: passed to @callback
 * @sa_query: set to the query, for ib_sa_cancel_query()
 *
 * Context: Any context @gfp_mask allows; @callback runs in process
 * context, maybe before this returns.
 * Return: the query's id (>= 0); -ENODEV when the port has no SA;
 * -EINVAL for another method; -EAGAIN while the port has no SA address
 * handle; -ENOMEM.
 */
int ib_sa_guid_info_rec_query(struct ib_sa_client *client,
			      struct ib_device *device, u32 port_num,
			      struct ib_sa_guidinfo_rec *rec,
			      ib_sa_comp_mask comp_mask, u8 method,
			      unsigned long timeout_ms, gfp_t gfp_mask,
			      void (*callback)(int status,
					       struct ib_sa_guidinfo_rec *resp,
					       void *context),
			      void *context, struct ib_sa_query **sa_query)
{
	struct ib_sa_port *port = ib_sa_find_port(device, port_num);
	struct sa_guidinfo_query *query;
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
	query->sa_query.callback = callback ? sa_guidinfo_callback : NULL;
	query->sa_query.release = sa_guidinfo_release;
	ret = ib_sa_query_prepare(&query->sa_query, client, method,
				  IB_SA_ATTR_GUID_INFO_REC, comp_mask, gfp_mask);
	if (ret)
		goto err_free;
	ib_pack(sa_guidinfo_fields, ARRAY_SIZE(sa_guidinfo_fields), rec,
		ib_sa_query_data(&query->sa_query));

	ret = ib_sa_query_start(&query->sa_query, timeout_ms, gfp_mask,
				sa_query);
	if (ret < 0)
		goto err_free;
	return ret;

err_free:
	kfree(query);
	return ret;
}
EXPORT_SYMBOL(ib_sa_guid_info_rec_query);
