/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit helpers of the suites that run the IB CM on two rdma_loop
 * devices (rdma_ib_cm, rdma_ib_cm_fault, rdma_cma_ib): the path between
 * two loop ports as an SA would give it, and a round of SIDR pings that
 * shows the fabric and the IB CM quiet between cases.
 *
 * Include it after core/ib_cm/cm_priv.h (a round ends with
 * ib_cm_flush_work(), visible to KUnit only).
 */
#ifndef KUNIT_RDMA_IB_CM_H
#define KUNIT_RDMA_IB_CM_H

#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/wait.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_loop.h>

/* The path from port 1 of @from to port 1 of @to, MTU 1024, P_Key 0xffff */
static inline int kt_cm_loop_path(struct sa_path_rec *path,
				  struct ib_device *from, struct ib_device *to)
{
	int ret;

	memset(path, 0, sizeof(*path));
	path->rec_type = SA_PATH_REC_TYPE_IB;
	ret = rdma_query_gid(from, 1, 0, &path->sgid);
	if (!ret)
		ret = rdma_query_gid(to, 1, 0, &path->dgid);
	sa_path_set_slid(path, rdma_loop_port_lid(from));
	sa_path_set_dlid(path, rdma_loop_port_lid(to));
	path->pkey = cpu_to_be16(0xffff);
	path->mtu = IB_MTU_1024;
	path->rate = IB_RATE_10_GBPS;
	path->reversible = 1;
	path->packet_life_time = 0;
	return ret;
}

/*
 * A ping: a SIDR REQ from a CM ID of one device to a listener of the
 * other, whose handler refuses it.  The IB CM then answers with a SIDR
 * REP (status reject) and destroys the CM ID it made, which waits until
 * that answer has been sent.
 */
struct kt_cm_ping {
	wait_queue_head_t	wq;
	bool			done;
	int			status;
};

static inline int kt_cm_ping_handler(struct ib_cm_id *id,
				     const struct ib_cm_event *e)
{
	struct kt_cm_ping *ping = id->context;

	switch (e->event) {
	case IB_CM_SIDR_REQ_RECEIVED:
		return -ECONNREFUSED;
	case IB_CM_SIDR_REP_RECEIVED:
		ping->status = e->param.sidr_rep_rcvd.status;
		break;
	case IB_CM_SIDR_REQ_ERROR:
		ping->status = -ETIMEDOUT;
		break;
	default:
		return 0;
	}
	WRITE_ONCE(ping->done, true);
	wake_up_all(&ping->wq);
	return 0;
}

/*
 * One round of pings on service @sid, each of @devs to the other at
 * once, each answered within @wait jiffies, then a flush of the IB CM's
 * work.  The loop fabric keeps the order of a port's QP1 sends (to
 * itself too) and the MAD layer hands a port's receives to the IB CM in
 * theirs: once a ping is answered, everything its sender sent before was
 * received, and the flush has it handled.  The pings' own CM IDs are
 * gone on both sides by the end.  A failure is the case's, "cleanup: ".
 */
static inline void kt_cm_ping_round(struct kunit *test,
				    struct ib_device *devs[2], __be64 sid,
				    unsigned long wait)
{
	struct ib_cm_sidr_req_param req = {
		.service_id = sid,
		.timeout_ms = 5000,
	};
	struct ib_cm_id *listen[2] = {}, *id[2] = {};
	struct kt_cm_ping ping[2] = {};
	struct sa_path_rec path[2];
	int i, ret;

	for (i = 0; i < 2; i++) {
		init_waitqueue_head(&ping[i].wq);
		listen[i] = ib_create_cm_id(devs[!i], kt_cm_ping_handler,
					    &ping[i]);
		id[i] = ib_create_cm_id(devs[i], kt_cm_ping_handler, &ping[i]);
		if (IS_ERR(listen[i]) || IS_ERR(id[i])) {
			KUNIT_FAIL(test, "cleanup: no CM ID for a ping");
			goto out;
		}
		ret = ib_cm_listen(listen[i], sid);
		if (!ret)
			ret = kt_cm_loop_path(&path[i], devs[i], devs[!i]);
		if (!ret) {
			req.path = &path[i];
			ret = ib_send_cm_sidr_req(id[i], &req);
		}
		if (ret) {
			KUNIT_FAIL(test, "cleanup: ping %d not sent: %d", i,
				   ret);
			goto out;
		}
	}
	for (i = 0; i < 2; i++) {
		wait_event_timeout(ping[i].wq, READ_ONCE(ping[i].done), wait);
		KUNIT_EXPECT_TRUE_MSG(test, READ_ONCE(ping[i].done),
				      "cleanup: ping %d not answered", i);
		KUNIT_EXPECT_EQ_MSG(test, ping[i].status, IB_SIDR_REJECT,
				    "cleanup: ping %d", i);
	}
out:
	for (i = 0; i < 2; i++) {
		if (!IS_ERR_OR_NULL(id[i]))
			ib_destroy_cm_id(id[i]);
		if (!IS_ERR_OR_NULL(listen[i]))
			ib_destroy_cm_id(listen[i]);
	}
	ib_cm_flush_work();
}

#endif
