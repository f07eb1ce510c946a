// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The subnet management agent (SMA) of an rdmavt channel adapter: the
 * answers to SubnGet() and SubnSet() (LID-routed class 0x01 and
 * directed-route class 0x81, IBTA vol. 1 14.2) for the attributes a CA
 * has, and the M_Key check before them (14.2.4).  PortInfo has a file of
 * its own (mad_portinfo.c).
 *
 *   NodeDescription    Get
 *   NodeInfo           Get
 *   GUIDInfo           Get; Set stores entries 1..7 of block 0 (entry 0
 *                      is the port GUID and stays)
 *   PortInfo           Get, Set
 *   P_KeyTable         Get, Set (32 entries a block, block in attr_mod)
 *   SLtoVLMappingTable Get, Set (stored: the engine has one VL)
 *   VLArbitrationTable Get, Set of blocks 1 and 3 (stored)
 *   SMInfo             left to a subnet manager on the port (IsSM)
 *   Notice             TrapRepress is taken silently (traps are not sent)
 *   anything else      status 0x000c; unknown methods 0x0008
 *
 * Every answer is the request turned into a GetResp (rvt_mad_reply());
 * a Set that is refused changes nothing and answers the current values
 * with status 0x001c.  Traps are not generated.
 */

#include <linux/jiffies.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "mad.h"

#define RVT_PKEYS_PER_BLOCK	32
#define RVT_GUIDS_PER_BLOCK	8

/* VLArbitrationTable blocks (attr_mod upper 16 bits) rdmavt keeps */
#define RVT_VLARB_LOW_0_31	1
#define RVT_VLARB_HIGH_0_31	3

/*
 * The M_Key check of IBTA 14.2.4 for a Get, Set or TrapRepress reaching
 * port @ibp.  The key is good when the caller says so
 * (IB_MAD_IGNORE_MKEY), when the port's M_Key is 0 or when they match;
 * a good key stops a running lease.  A bad key is a violation for a Set
 * or TrapRepress, and for a Get from protection level 2 on; a violation
 * is counted, starts the lease (when the period is not 0) and drops the
 * MAD.  When a lease ran out, the protection level went back to 0.
 *
 * Return: true when the MAD may be processed.
 */
bool rvt_mkey_check(struct rvt_ibport *ibp, struct ib_smp *smp, int mad_flags)
{
	unsigned long flags;
	bool good, ok = true;

	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	if (ibp->mkey_lease_timeout &&
	    time_after_eq(jiffies, ibp->mkey_lease_timeout)) {
		ibp->mkey_lease_timeout = 0;
		ibp->mkeyprot = 0;
	}
	good = (mad_flags & IB_MAD_IGNORE_MKEY) || !ibp->mkey ||
	       ibp->mkey == smp->mkey;
	if (good) {
		ibp->mkey_lease_timeout = 0;
	} else if (smp->method != IB_MGMT_METHOD_GET || ibp->mkeyprot >= 2) {
		ok = false;
		if (ibp->mkey_violations != 0xffff)
			ibp->mkey_violations++;
		if (!ibp->mkey_lease_timeout && ibp->mkey_lease_period)
			ibp->mkey_lease_timeout = jiffies +
				ibp->mkey_lease_period * HZ ?: 1;
	}
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return ok;
}

static int rvt_sma_invalid(struct ib_smp *smp)
{
	smp->status |= RVT_MAD_INVALID_FIELD;
	return rvt_mad_reply((struct ib_mad_hdr *)smp);
}

static int rvt_get_nodedesc(struct ib_smp *smp, struct rvt_dev_info *rdi)
{
	if (smp->attr_mod)
		return rvt_sma_invalid(smp);
	memcpy(smp->data, rdi->ibdev.node_desc, sizeof(smp->data));
	return rvt_mad_reply((struct ib_mad_hdr *)smp);
}

static int rvt_get_nodeinfo(struct ib_smp *smp, struct rvt_dev_info *rdi,
			    u32 port)
{
	struct ib_node_info *ni = (struct ib_node_info *)smp->data;
	const struct ib_device_attr *props = &rdi->dparms.props;

	memset(smp->data, 0, sizeof(smp->data));
	if (smp->attr_mod)
		return rvt_sma_invalid(smp);
	ni->base_version = IB_MGMT_BASE_VERSION;
	ni->class_version = 1;
	ni->node_type = RDMA_NODE_IB_CA;
	ni->num_ports = rdi->dparms.nports;
	ni->sys_guid = props->sys_image_guid;
	ni->node_guid = rdi->ibdev.node_guid;
	ni->port_guid = rvt_port_guid(rdi, port);
	ni->partition_cap = cpu_to_be16(rvt_npkeys(rdi));
	ni->device_id = cpu_to_be16(props->vendor_part_id);
	ni->revision = cpu_to_be32(props->hw_ver);
	ni->local_port_num = port;
	ni->vendor_id[0] = props->vendor_id >> 16;
	ni->vendor_id[1] = props->vendor_id >> 8;
	ni->vendor_id[2] = props->vendor_id;
	return rvt_mad_reply((struct ib_mad_hdr *)smp);
}

static int rvt_get_guidinfo(struct ib_smp *smp, struct rvt_dev_info *rdi,
			    u32 port)
{
	struct rvt_ibport *ibp = rvt_ibport(rdi, port);
	__be64 *g = (__be64 *)smp->data;
	unsigned long flags;

	memset(smp->data, 0, sizeof(smp->data));
	/* one block of eight */
	if (smp->attr_mod)
		return rvt_sma_invalid(smp);
	g[0] = rvt_port_guid(rdi, port);
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	memcpy(&g[1], ibp->guids, sizeof(ibp->guids));
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return rvt_mad_reply((struct ib_mad_hdr *)smp);
}

static int rvt_set_guidinfo(struct ib_smp *smp, struct rvt_dev_info *rdi,
			    u32 port)
{
	struct rvt_ibport *ibp = rvt_ibport(rdi, port);
	__be64 *g = (__be64 *)smp->data;
	unsigned long flags;

	if (smp->attr_mod) {
		smp->status |= RVT_MAD_INVALID_FIELD;
		return rvt_get_guidinfo(smp, rdi, port);
	}
	/* entry 0 is the port GUID, read-only: what it says is ignored */
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	memcpy(ibp->guids, &g[1], sizeof(ibp->guids));
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return rvt_get_guidinfo(smp, rdi, port);
}

/* The P_Key table block of a SMP and the entries of the table in it. */
static bool rvt_pkey_block(struct ib_smp *smp, struct rvt_dev_info *rdi,
			   u32 *first, u32 *n)
{
	u32 block = be32_to_cpu(smp->attr_mod) & 0xffff;
	u32 npkeys = rvt_npkeys(rdi);

	/* bits 16..31 name a switch's port; a CA has them 0 */
	if (be32_to_cpu(smp->attr_mod) >> 16 ||
	    block >= DIV_ROUND_UP(npkeys, RVT_PKEYS_PER_BLOCK))
		return false;
	*first = block * RVT_PKEYS_PER_BLOCK;
	*n = min_t(u32, npkeys - *first, RVT_PKEYS_PER_BLOCK);
	return true;
}

static int rvt_get_pkeytable(struct ib_smp *smp, struct rvt_dev_info *rdi,
			     u32 port)
{
	struct rvt_ibport *ibp = rvt_ibport(rdi, port);
	__be16 *p = (__be16 *)smp->data;
	unsigned long flags;
	u32 first, n, i;

	memset(smp->data, 0, sizeof(smp->data));
	if (!rvt_pkey_block(smp, rdi, &first, &n))
		return rvt_sma_invalid(smp);
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	for (i = 0; i < n; i++)
		p[i] = cpu_to_be16(ibp->pkey_table[first + i]);
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return rvt_mad_reply((struct ib_mad_hdr *)smp);
}

static int rvt_set_pkeytable(struct ib_smp *smp, struct rvt_dev_info *rdi,
			     u32 port)
{
	struct rvt_ibport *ibp = rvt_ibport(rdi, port);
	__be16 *p = (__be16 *)smp->data;
	bool changed = false;
	unsigned long flags;
	u32 first, n, i;
	u16 key;

	if (!rvt_pkey_block(smp, rdi, &first, &n))
		return rvt_sma_invalid(smp);
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	for (i = 0; i < n; i++) {
		key = be16_to_cpu(p[i]);
		if (ibp->pkey_table[first + i] == key)
			continue;
		ibp->pkey_table[first + i] = key;
		changed = true;
	}
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	if (changed)
		rvt_port_dispatch(rdi, port, BIT(IB_EVENT_PKEY_CHANGE));
	return rvt_get_pkeytable(smp, rdi, port);
}

/* SLtoVLMappingTable: 16 VLs of 4 bits, SL 0 in the upper half of byte 0 */
static int rvt_get_sl_to_vl(struct ib_smp *smp, struct rvt_ibport *ibp)
{
	unsigned long flags;
	int i;

	memset(smp->data, 0, sizeof(smp->data));
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	for (i = 0; i < ARRAY_SIZE(ibp->sl_to_vl); i += 2)
		smp->data[i / 2] = ibp->sl_to_vl[i] << 4 | ibp->sl_to_vl[i + 1];
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return rvt_mad_reply((struct ib_mad_hdr *)smp);
}

static int rvt_set_sl_to_vl(struct ib_smp *smp, struct rvt_ibport *ibp)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	for (i = 0; i < ARRAY_SIZE(ibp->sl_to_vl); i += 2) {
		ibp->sl_to_vl[i] = smp->data[i / 2] >> 4;
		ibp->sl_to_vl[i + 1] = smp->data[i / 2] & 0xf;
	}
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return rvt_get_sl_to_vl(smp, ibp);
}

/* The VLArbitrationTable block of a SMP: 0 low, 1 high, -1 none of ours. */
static int rvt_vl_arb_table(struct ib_smp *smp)
{
	switch (be32_to_cpu(smp->attr_mod) >> 16) {
	case RVT_VLARB_LOW_0_31:
		return 0;
	case RVT_VLARB_HIGH_0_31:
		return 1;
	default:
		/* entries 32..63 are beyond VLArbitration{Low,High}Cap */
		return -1;
	}
}

static int rvt_get_vl_arb(struct ib_smp *smp, struct rvt_ibport *ibp)
{
	int t = rvt_vl_arb_table(smp);
	unsigned long flags;

	memset(smp->data, 0, sizeof(smp->data));
	if (t < 0)
		return rvt_sma_invalid(smp);
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	memcpy(smp->data, ibp->vl_arb[t], sizeof(ibp->vl_arb[t]));
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return rvt_mad_reply((struct ib_mad_hdr *)smp);
}

static int rvt_set_vl_arb(struct ib_smp *smp, struct rvt_ibport *ibp)
{
	int t = rvt_vl_arb_table(smp);
	unsigned long flags;

	if (t < 0)
		return rvt_get_vl_arb(smp, ibp);
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	memcpy(ibp->vl_arb[t], smp->data, sizeof(ibp->vl_arb[t]));
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return rvt_get_vl_arb(smp, ibp);
}

/*
 * SMInfo belongs to a subnet manager: one running on this port (IsSM)
 * gets the MAD from the MAD layer; with SMDisabled it is dropped;
 * otherwise there is nobody to answer.
 */
static int rvt_sminfo(struct ib_smp *smp, struct rvt_ibport *ibp)
{
	unsigned long flags;
	u32 cap;

	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	cap = ibp->port_cap_flags;
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	if (cap & IB_PORT_SM_DISABLED)
		return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_CONSUMED;
	if (cap & IB_PORT_SM)
		return IB_MAD_RESULT_SUCCESS;
	smp->status |= RVT_MAD_UNSUP_ATTR;
	return rvt_mad_reply((struct ib_mad_hdr *)smp);
}

static int rvt_sma_get(struct ib_smp *smp, struct rvt_dev_info *rdi,
		       u32 port, int mad_flags)
{
	struct rvt_ibport *ibp = rvt_ibport(rdi, port);

	switch (smp->attr_id) {
	case IB_SMP_ATTR_NODE_DESC:
		return rvt_get_nodedesc(smp, rdi);
	case IB_SMP_ATTR_NODE_INFO:
		return rvt_get_nodeinfo(smp, rdi, port);
	case IB_SMP_ATTR_GUID_INFO:
		return rvt_get_guidinfo(smp, rdi, port);
	case IB_SMP_ATTR_PORT_INFO:
		return rvt_sma_get_portinfo(smp, rdi, port, mad_flags);
	case IB_SMP_ATTR_PKEY_TABLE:
		return rvt_get_pkeytable(smp, rdi, port);
	case IB_SMP_ATTR_SL_TO_VL_TABLE:
		return rvt_get_sl_to_vl(smp, ibp);
	case IB_SMP_ATTR_VL_ARB_TABLE:
		return rvt_get_vl_arb(smp, ibp);
	case IB_SMP_ATTR_SM_INFO:
		return rvt_sminfo(smp, ibp);
	default:
		smp->status |= RVT_MAD_UNSUP_ATTR;
		return rvt_mad_reply((struct ib_mad_hdr *)smp);
	}
}

static int rvt_sma_set(struct ib_smp *smp, struct rvt_dev_info *rdi,
		       u32 port, int mad_flags)
{
	struct rvt_ibport *ibp = rvt_ibport(rdi, port);

	switch (smp->attr_id) {
	case IB_SMP_ATTR_GUID_INFO:
		return rvt_set_guidinfo(smp, rdi, port);
	case IB_SMP_ATTR_PORT_INFO:
		return rvt_sma_set_portinfo(smp, rdi, port, mad_flags);
	case IB_SMP_ATTR_PKEY_TABLE:
		return rvt_set_pkeytable(smp, rdi, port);
	case IB_SMP_ATTR_SL_TO_VL_TABLE:
		return rvt_set_sl_to_vl(smp, ibp);
	case IB_SMP_ATTR_VL_ARB_TABLE:
		return rvt_set_vl_arb(smp, ibp);
	case IB_SMP_ATTR_SM_INFO:
		return rvt_sminfo(smp, ibp);
	default:
		smp->status |= RVT_MAD_UNSUP_ATTR;
		return rvt_mad_reply((struct ib_mad_hdr *)smp);
	}
}

/*
 * A PortInfo naming another port of the device (attr_mod) is checked
 * against that port's M_Key as well, after the receiving port's.
 */
static bool rvt_sma_mkey_ok(struct rvt_dev_info *rdi, struct ib_smp *smp,
			    u32 port, int mad_flags)
{
	u32 other = be32_to_cpu(smp->attr_mod) & RVT_PI_MOD_PORT;

	if (!rvt_mkey_check(rvt_ibport(rdi, port), smp, mad_flags))
		return false;
	if (smp->attr_id != IB_SMP_ATTR_PORT_INFO || !other ||
	    other == port || other > rdi->dparms.nports)
		return true;
	return rvt_mkey_check(rvt_ibport(rdi, other), smp, mad_flags);
}

/*
 * rvt_sma_process - a subnet management packet reaching port @port.
 * Returns enum ib_mad_result bits, as rvt_process_mad().
 */
int rvt_sma_process(struct ib_device *ibdev, int mad_flags, u32 port,
		    const struct ib_mad *in_mad, struct ib_mad *out_mad)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibdev);
	struct ib_smp *smp = (struct ib_smp *)out_mad;

	*out_mad = *in_mad;
	if (smp->class_version != 1) {
		smp->status |= RVT_MAD_BAD_VERSION;
		return rvt_mad_reply((struct ib_mad_hdr *)smp);
	}

	switch (smp->method) {
	case IB_MGMT_METHOD_GET:
	case IB_MGMT_METHOD_SET:
	case IB_MGMT_METHOD_TRAP_REPRESS:
		/* a violation is dropped without an answer */
		if (!rvt_sma_mkey_ok(rdi, smp, port, mad_flags))
			return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_CONSUMED;
		break;
	}

	switch (smp->method) {
	case IB_MGMT_METHOD_GET:
		return rvt_sma_get(smp, rdi, port, mad_flags);
	case IB_MGMT_METHOD_SET:
		return rvt_sma_set(smp, rdi, port, mad_flags);
	case IB_MGMT_METHOD_TRAP_REPRESS:
		/* no trap was sent, so none is repeated: nothing to answer */
		if (smp->attr_id == IB_SMP_ATTR_NOTICE)
			return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_CONSUMED;
		smp->status |= RVT_MAD_UNSUP_ATTR;
		return rvt_mad_reply((struct ib_mad_hdr *)smp);
	case IB_MGMT_METHOD_REPORT:
	case IB_MGMT_METHOD_SEND:
		/*
		 * for an agent (the SM), not the SMA; answers and traps
		 * never come here (rvt_process_mad())
		 */
		return IB_MAD_RESULT_SUCCESS;
	default:
		smp->status |= RVT_MAD_UNSUP_METHOD;
		return rvt_mad_reply((struct ib_mad_hdr *)smp);
	}
}
