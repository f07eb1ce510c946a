// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Protection domains, and the small tables of the verbs API (rates,
 * completion status names).
 */

#include <linux/export.h>
#include <rdma/ib_verbs.h>

#include "../restrack.h"
#include "verbs_priv.h"

/**
 * __ib_alloc_pd - allocate a kernel protection domain
 * @device: the device
 * @flags: enum ib_pd_flags
 * @caller: owner's module name (ib_alloc_pd() passes KBUILD_MODNAME)
 *
 * Every PD gets a local_dma_lkey: the device's own when it has one
 * (IBK_LOCAL_DMA_LKEY), else the lkey of a DMA MR the core registers for
 * the PD.  With IB_PD_UNSAFE_GLOBAL_RKEY that MR also allows remote
 * access and its rkey is put in unsafe_global_rkey.
 *
 * Context: Process context; sleeps (GFP_KERNEL allocation, the driver's
 * alloc_pd and get_dma_mr ops, restrack insertion).
 *
 * Return: the PD or an ERR_PTR().
 */
struct ib_pd *__ib_alloc_pd(struct ib_device *device, unsigned int flags,
			    const char *caller)
{
	int mr_access_flags = 0;
	struct ib_pd *pd;
	int ret;

	pd = rdma_zalloc_drv_obj(device, ib_pd);
	if (!pd)
		return ERR_PTR(-ENOMEM);

	pd->device = device;
	pd->flags = flags;
	atomic_set(&pd->usecnt, 0);
	rdma_restrack_new(&pd->res, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&pd->res, caller);

	ret = device->ops.alloc_pd(pd, NULL);
	if (ret)
		goto err_free;
	rdma_restrack_add(&pd->res);

	if (device->attrs.kernel_cap_flags & IBK_LOCAL_DMA_LKEY)
		pd->local_dma_lkey = device->local_dma_lkey;
	else
		mr_access_flags |= IB_ACCESS_LOCAL_WRITE;

	if (flags & IB_PD_UNSAFE_GLOBAL_RKEY) {
		pr_warn("%s: %s enables an unsafe global rkey\n",
			dev_name(&device->dev), caller);
		mr_access_flags |= IB_ACCESS_REMOTE_READ |
				   IB_ACCESS_REMOTE_WRITE;
	}

	if (mr_access_flags) {
		struct ib_mr *mr;

		mr = device->ops.get_dma_mr ?
			device->ops.get_dma_mr(pd, mr_access_flags) :
			ERR_PTR(-EOPNOTSUPP);
		if (IS_ERR(mr)) {
			ib_dealloc_pd(pd);
			return ERR_CAST(mr);
		}
		mr->device = device;
		mr->pd = pd;
		mr->type = IB_MR_TYPE_DMA;
		mr->uobject = NULL;
		mr->need_inval = false;
		pd->__internal_mr = mr;

		if (!(device->attrs.kernel_cap_flags & IBK_LOCAL_DMA_LKEY))
			pd->local_dma_lkey = mr->lkey;
		if (flags & IB_PD_UNSAFE_GLOBAL_RKEY)
			pd->unsafe_global_rkey = mr->rkey;
	}
	return pd;

err_free:
	rdma_restrack_del(&pd->res);
	kfree(pd);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(__ib_alloc_pd);

/**
 * ib_dealloc_pd_user - free a protection domain
 * @pd: the PD; every object in it must be gone
 * @udata: user data, NULL for kernel PDs
 *
 * Context: Process context; sleeps (the driver's dereg_mr and dealloc_pd ops,
 * and rdma_restrack_del() waits for netlink readers of the PD).
 *
 * Return: 0, or the driver's error (user PDs only; kernel PDs must not
 * fail).
 */
int ib_dealloc_pd_user(struct ib_pd *pd, struct ib_udata *udata)
{
	int ret;

	if (pd->__internal_mr) {
		ret = pd->device->ops.dereg_mr(pd->__internal_mr, NULL);
		WARN_ON(ret);
		pd->__internal_mr = NULL;
	}

	/* Whatever is still in the PD refers to it: a caller bug. */
	WARN_ON(atomic_read(&pd->usecnt));

	ret = pd->device->ops.dealloc_pd(pd, udata);
	if (ret)
		return ret;

	rdma_restrack_del(&pd->res);
	kfree(pd);
	return 0;
}
EXPORT_SYMBOL(ib_dealloc_pd_user);

/*
 * ib_rate value -> multiple of 2.5 Gb/s (0: the rate is none, the
 * FDR and later encodings run at other lane speeds) and the rate in Mb/s
 */
static const struct {
	enum ib_rate	rate;
	int		mult;
	int		mbps;
} ib_rates[] = {
	{ IB_RATE_2_5_GBPS, 1, 2500 },
	{ IB_RATE_5_GBPS, 2, 5000 },
	{ IB_RATE_10_GBPS, 4, 10000 },
	{ IB_RATE_20_GBPS, 8, 20000 },
	{ IB_RATE_30_GBPS, 12, 30000 },
	{ IB_RATE_40_GBPS, 16, 40000 },
	{ IB_RATE_60_GBPS, 24, 60000 },
	{ IB_RATE_80_GBPS, 32, 80000 },
	{ IB_RATE_120_GBPS, 48, 120000 },
	{ IB_RATE_14_GBPS, 0, 14062 },
	{ IB_RATE_56_GBPS, 0, 56250 },
	{ IB_RATE_112_GBPS, 0, 112500 },
	{ IB_RATE_168_GBPS, 0, 168750 },
	{ IB_RATE_25_GBPS, 0, 25781 },
	{ IB_RATE_100_GBPS, 0, 103125 },
	{ IB_RATE_200_GBPS, 0, 206250 },
	{ IB_RATE_300_GBPS, 0, 309375 },
	{ IB_RATE_28_GBPS, 0, 28125 },
	{ IB_RATE_50_GBPS, 0, 53125 },
	{ IB_RATE_400_GBPS, 0, 425000 },
	{ IB_RATE_600_GBPS, 0, 637500 },
	{ IB_RATE_800_GBPS, 0, 850000 },
};

/**
 * ib_rate_to_mult - a rate as a multiple of 2.5 Gb/s
 * @rate: the rate
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the multiple, or -1 for IB_RATE_PORT_CURRENT and unknown rates.
 */
__attribute_const__ int ib_rate_to_mult(enum ib_rate rate)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ib_rates); i++)
		if (ib_rates[i].rate == rate)
			return ib_rates[i].mult ?: -1;
	return -1;
}
EXPORT_SYMBOL(ib_rate_to_mult);

/**
 * mult_to_ib_rate - the rate of a multiple of 2.5 Gb/s
 * @mult: the multiple
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the rate, IB_RATE_PORT_CURRENT when no rate has that multiple.
 */
__attribute_const__ enum ib_rate mult_to_ib_rate(int mult)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ib_rates); i++)
		if (mult > 0 && ib_rates[i].mult == mult)
			return ib_rates[i].rate;
	return IB_RATE_PORT_CURRENT;
}
EXPORT_SYMBOL(mult_to_ib_rate);

/**
 * ib_rate_to_mbps - a rate in Mb/s
 * @rate: the rate
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the data rate in Mb/s, or -1 for unknown rates.
 */
__attribute_const__ int ib_rate_to_mbps(enum ib_rate rate)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ib_rates); i++)
		if (ib_rates[i].rate == rate)
			return ib_rates[i].mbps;
	return -1;
}
EXPORT_SYMBOL(ib_rate_to_mbps);

static const char * const wc_status_names[] = {
	[IB_WC_SUCCESS] = "success",
	[IB_WC_LOC_LEN_ERR] = "local length error",
	[IB_WC_LOC_QP_OP_ERR] = "local QP operation error",
	[IB_WC_LOC_EEC_OP_ERR] = "local EE context operation error",
	[IB_WC_LOC_PROT_ERR] = "local protection error",
	[IB_WC_WR_FLUSH_ERR] = "WR flushed",
	[IB_WC_MW_BIND_ERR] = "memory bind operation error",
	[IB_WC_BAD_RESP_ERR] = "bad response error",
	[IB_WC_LOC_ACCESS_ERR] = "local access error",
	[IB_WC_REM_INV_REQ_ERR] = "remote invalid request error",
	[IB_WC_REM_ACCESS_ERR] = "remote access error",
	[IB_WC_REM_OP_ERR] = "remote operation error",
	[IB_WC_RETRY_EXC_ERR] = "transport retry counter exceeded",
	[IB_WC_RNR_RETRY_EXC_ERR] = "RNR retry counter exceeded",
	[IB_WC_LOC_RDD_VIOL_ERR] = "local RDD violation error",
	[IB_WC_REM_INV_RD_REQ_ERR] = "remote invalid RD request",
	[IB_WC_REM_ABORT_ERR] = "operation aborted",
	[IB_WC_INV_EECN_ERR] = "invalid EE context number",
	[IB_WC_INV_EEC_STATE_ERR] = "invalid EE context state",
	[IB_WC_FATAL_ERR] = "fatal error",
	[IB_WC_RESP_TIMEOUT_ERR] = "response timeout error",
	[IB_WC_GENERAL_ERR] = "general error",
};

/**
 * ib_wc_status_msg - the name of a completion status
 * @status: the status
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: a constant string; "unrecognized status" for unknown values.
 */
const char *__attribute_const__ ib_wc_status_msg(enum ib_wc_status status)
{
	size_t index = status;

	return (index < ARRAY_SIZE(wc_status_names) &&
		wc_status_names[index]) ?
		wc_status_names[index] : "unrecognized status";
}
EXPORT_SYMBOL(ib_wc_status_msg);
