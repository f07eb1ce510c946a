/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * PLACEHOLDER (branch cma): only the path record that rdma_cm's route
 * carries.  The full SA client API (queries, multicast, ib_sa_pack_path)
 * comes with branch ulphdr, whose ib_sa.h replaces this file at merge.
 */
#ifndef IB_SA_H
#define IB_SA_H

#include <linux/etherdevice.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_addr.h>

/* Which member of the union of struct sa_path_rec is valid. */
enum sa_path_rec_type {
	SA_PATH_REC_TYPE_IB,
	SA_PATH_REC_TYPE_ROCE_V1,
	SA_PATH_REC_TYPE_ROCE_V2,
	SA_PATH_REC_TYPE_OPA
};

struct sa_path_rec_ib {
	__be16	dlid;
	__be16	slid;
	u8	raw_traffic;
};

/* @route_resolved: the destination MAC was looked up by rdma_cm */
struct sa_path_rec_roce {
	bool	route_resolved;
	u8	dmac[ETH_ALEN];
};

struct sa_path_rec_opa {
	__be32	dlid;
	__be32	slid;
	u8	raw_traffic;
	u8	l2_8B;
	u8	l2_10B;
	u8	l2_9B;
	u8	l2_16B;
	u8	qos_type;
	u8	qos_priority;
};

/* A path record (IBTA 15.2.5.16) in host form, plus the RoCE extras. */
struct sa_path_rec {
	union ib_gid	dgid;
	union ib_gid	sgid;
	__be64		service_id;
	__be32		flow_label;
	u8		hop_limit;
	u8		traffic_class;
	u8		reversible;
	u8		numb_path;
	__be16		pkey;
	__be16		qos_class;
	u8		sl;
	u8		mtu_selector;
	u8		mtu;
	u8		rate_selector;
	u8		rate;
	u8		packet_life_time_selector;
	u8		packet_life_time;
	u8		preference;
	union {
		struct sa_path_rec_ib ib;
		struct sa_path_rec_roce roce;
		struct sa_path_rec_opa opa;
	};
	enum sa_path_rec_type rec_type;
	u32		flags;
};

static inline bool sa_path_is_roce(struct sa_path_rec *rec)
{
	return rec->rec_type == SA_PATH_REC_TYPE_ROCE_V1 ||
	       rec->rec_type == SA_PATH_REC_TYPE_ROCE_V2;
}

static inline enum sa_path_rec_type
sa_conv_gid_to_pathrec_type(enum ib_gid_type type)
{
	if (type == IB_GID_TYPE_ROCE)
		return SA_PATH_REC_TYPE_ROCE_V1;
	if (type == IB_GID_TYPE_ROCE_UDP_ENCAP)
		return SA_PATH_REC_TYPE_ROCE_V2;
	return SA_PATH_REC_TYPE_IB;
}

static inline enum ib_gid_type
sa_conv_pathrec_to_gid_type(struct sa_path_rec *rec)
{
	if (rec->rec_type == SA_PATH_REC_TYPE_ROCE_V1)
		return IB_GID_TYPE_ROCE;
	if (rec->rec_type == SA_PATH_REC_TYPE_ROCE_V2)
		return IB_GID_TYPE_ROCE_UDP_ENCAP;
	return IB_GID_TYPE_IB;
}

static inline void sa_path_set_dmac(struct sa_path_rec *rec, u8 *dmac)
{
	if (sa_path_is_roce(rec))
		memcpy(rec->roce.dmac, dmac, ETH_ALEN);
}

static inline u8 *sa_path_get_dmac(struct sa_path_rec *rec)
{
	return sa_path_is_roce(rec) ? rec->roce.dmac : NULL;
}

#endif /* IB_SA_H */
