// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The CM's counters in sysfs, as Linux 6.12 shows them: four groups in
 * each port's folder of the device,
 *   /sys/class/infiniband/DEV/ports/N/{cm_tx_msgs,cm_tx_retries,
 *					cm_rx_msgs,cm_rx_duplicates}/
 * each with one file per message type (req, mra, rej, rep, rtu, dreq,
 * drep, sidr_req, sidr_rep, lap, apr).
 */

#include <linux/sysfs.h>

#include "cm_priv.h"

struct cm_counter_attribute {
	struct ib_port_attribute	attr;
	unsigned short			group;
	unsigned short			index;
};

static ssize_t cm_show_counter(struct ib_device *ibdev, u32 port_num,
			       struct ib_port_attribute *attr, char *buf)
{
	struct cm_counter_attribute *cm_attr =
		container_of(attr, struct cm_counter_attribute, attr);
	struct cm_device *cm_dev = ib_get_client_data(ibdev, &cm_client);

	if (WARN_ON(!cm_dev))
		return -EINVAL;
	return sysfs_emit(buf, "%ld\n",
			  atomic_long_read(&cm_dev->port[port_num - 1]->counters
					   [cm_attr->group][cm_attr->index]));
}

#define CM_COUNTER(_name, _group, _index)				\
	{ .attr = __ATTR(_name, 0444, cm_show_counter, NULL),		\
	  .group = (_group), .index = (_index) }

#define CM_COUNTER_GROUP(_group, _name)					\
static struct cm_counter_attribute cm_counters_##_group[] = {		\
	CM_COUNTER(req, _group, CM_REQ_COUNTER),			\
	CM_COUNTER(mra, _group, CM_MRA_COUNTER),			\
	CM_COUNTER(rej, _group, CM_REJ_COUNTER),			\
	CM_COUNTER(rep, _group, CM_REP_COUNTER),			\
	CM_COUNTER(rtu, _group, CM_RTU_COUNTER),			\
	CM_COUNTER(dreq, _group, CM_DREQ_COUNTER),			\
	CM_COUNTER(drep, _group, CM_DREP_COUNTER),			\
	CM_COUNTER(sidr_req, _group, CM_SIDR_REQ_COUNTER),		\
	CM_COUNTER(sidr_rep, _group, CM_SIDR_REP_COUNTER),		\
	CM_COUNTER(lap, _group, CM_LAP_COUNTER),			\
	CM_COUNTER(apr, _group, CM_APR_COUNTER),			\
};									\
static struct attribute *cm_counter_attrs_##_group[] = {		\
	&cm_counters_##_group[0].attr.attr,				\
	&cm_counters_##_group[1].attr.attr,				\
	&cm_counters_##_group[2].attr.attr,				\
	&cm_counters_##_group[3].attr.attr,				\
	&cm_counters_##_group[4].attr.attr,				\
	&cm_counters_##_group[5].attr.attr,				\
	&cm_counters_##_group[6].attr.attr,				\
	&cm_counters_##_group[7].attr.attr,				\
	&cm_counters_##_group[8].attr.attr,				\
	&cm_counters_##_group[9].attr.attr,				\
	&cm_counters_##_group[10].attr.attr,				\
	NULL,								\
};									\
static const struct attribute_group cm_counter_group_##_group = {		\
	.name = _name,							\
	.attrs = cm_counter_attrs_##_group,				\
}

CM_COUNTER_GROUP(CM_XMIT, "cm_tx_msgs");
CM_COUNTER_GROUP(CM_XMIT_RETRIES, "cm_tx_retries");
CM_COUNTER_GROUP(CM_RECV, "cm_rx_msgs");
CM_COUNTER_GROUP(CM_RECV_DUPLICATES, "cm_rx_duplicates");

const struct attribute_group *cm_counter_groups[] = {
	&cm_counter_group_CM_XMIT,
	&cm_counter_group_CM_XMIT_RETRIES,
	&cm_counter_group_CM_RECV,
	&cm_counter_group_CM_RECV_DUPLICATES,
	NULL,
};
