// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_ucm's commands on one id: addresses and routes, queries,
 * connections, QP attributes, options and multicast groups.  Each reads
 * its request structure whole from the bytes after the header (the
 * header's "in" is only checked against the write's length, except where
 * a command grew: CONNECT and ACCEPT take the form without ECE) and
 * writes its answer to the request's response address, at most "out"
 * bytes of it, with upstream's errors (Documentation/core/rdma_ucm.rst
 * lists them).
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_marshall.h>
#include <rdma/rdma_cm_ib.h>

#include "ucma_priv.h"

/* ------------------------------------------------------------------
 * Addresses and routes
 */

/**
 * ucma_cmd_bind_ip - RDMA_USER_CM_CMD_BIND_IP: bind to an IP address
 * @file: the file
 * @inbuf: struct rdma_ucm_bind_ip (an IPv4 or IPv6 address)
 * @in_len: its length from the header
 * @out_len: unused
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; -EINVAL for another family; the errors of
 * ucma_ctx_get() and rdma_bind_addr().
 */
ssize_t ucma_cmd_bind_ip(struct ucma_file *file, const char __user *inbuf,
			 int in_len, int out_len)
{
	struct rdma_ucm_bind_ip cmd;
	struct ucma_context *ctx;
	int ret;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	if (!rdma_addr_size_in6(&cmd.addr))
		return -EINVAL;
	ctx = ucma_ctx_get(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->mutex);
	ret = rdma_bind_addr(ctx->cm_id, (struct sockaddr *)&cmd.addr);
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_bind - RDMA_USER_CM_CMD_BIND: bind to an address of any family
 * @file: the file
 * @inbuf: struct rdma_ucm_bind (IPv4, IPv6 or AF_IB, its size given)
 * @in_len: its length from the header
 * @out_len: unused
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; -EINVAL for a reserved field set or a size that is
 * not the family's; the errors of ucma_ctx_get() and rdma_bind_addr().
 */
ssize_t ucma_cmd_bind(struct ucma_file *file, const char __user *inbuf,
		      int in_len, int out_len)
{
	struct rdma_ucm_bind cmd;
	struct ucma_context *ctx;
	int ret;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	if (cmd.reserved || !cmd.addr_size ||
	    cmd.addr_size != rdma_addr_size_kss(&cmd.addr))
		return -EINVAL;
	ctx = ucma_ctx_get(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->mutex);
	ret = rdma_bind_addr(ctx->cm_id, (struct sockaddr *)&cmd.addr);
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/* RESOLVE_IP and RESOLVE_ADDR, their addresses checked: id @id resolves. */
static int ucma_resolve(struct ucma_file *file, u32 id, struct sockaddr *src,
			struct sockaddr *dst, u32 timeout_ms)
{
	struct ucma_context *ctx;
	int ret;

	ctx = ucma_ctx_get(file, id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->mutex);
	ret = rdma_resolve_addr(ctx->cm_id, src, dst, timeout_ms);
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_resolve_ip - RDMA_USER_CM_CMD_RESOLVE_IP: resolve an IP address
 * @file: the file
 * @inbuf: struct rdma_ucm_resolve_ip (source optional: family 0)
 * @in_len: its length from the header
 * @out_len: unused
 *
 * The outcome comes as ADDR_RESOLVED or ADDR_ERROR.
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; -EINVAL for another family; the errors of
 * ucma_ctx_get() and rdma_resolve_addr().
 */
ssize_t ucma_cmd_resolve_ip(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len)
{
	struct rdma_ucm_resolve_ip cmd;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	if ((cmd.src_addr.sin6_family && !rdma_addr_size_in6(&cmd.src_addr)) ||
	    !rdma_addr_size_in6(&cmd.dst_addr))
		return -EINVAL;
	return ucma_resolve(file, cmd.id, (struct sockaddr *)&cmd.src_addr,
			    (struct sockaddr *)&cmd.dst_addr, cmd.timeout_ms);
}

/**
 * ucma_cmd_resolve_addr - RDMA_USER_CM_CMD_RESOLVE_ADDR: any family
 * @file: the file
 * @inbuf: struct rdma_ucm_resolve_addr (sizes given; source optional:
 *	size 0)
 * @in_len: its length from the header
 * @out_len: unused
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; -EINVAL for a reserved field set or a size that is
 * not its address's; the errors of ucma_ctx_get() and
 * rdma_resolve_addr().
 */
ssize_t ucma_cmd_resolve_addr(struct ucma_file *file,
			      const char __user *inbuf, int in_len,
			      int out_len)
{
	struct rdma_ucm_resolve_addr cmd;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	if (cmd.reserved ||
	    (cmd.src_size &&
	     cmd.src_size != rdma_addr_size_kss(&cmd.src_addr)) ||
	    !cmd.dst_size || cmd.dst_size != rdma_addr_size_kss(&cmd.dst_addr))
		return -EINVAL;
	return ucma_resolve(file, cmd.id, (struct sockaddr *)&cmd.src_addr,
			    (struct sockaddr *)&cmd.dst_addr, cmd.timeout_ms);
}

/**
 * ucma_cmd_resolve_route - RDMA_USER_CM_CMD_RESOLVE_ROUTE
 * @file: the file
 * @inbuf: struct rdma_ucm_resolve_route
 * @in_len: its length from the header
 * @out_len: unused
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; the errors of ucma_ctx_get_dev() and
 * rdma_resolve_route().
 */
ssize_t ucma_cmd_resolve_route(struct ucma_file *file,
			       const char __user *inbuf, int in_len,
			       int out_len)
{
	struct rdma_ucm_resolve_route cmd;
	struct ucma_context *ctx;
	int ret;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	ctx = ucma_ctx_get_dev(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->mutex);
	ret = rdma_resolve_route(ctx->cm_id, cmd.timeout_ms);
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/* ------------------------------------------------------------------
 * Queries
 */

/* An address in the 28 bytes of an IPv6 one: IPv4's 16, else 28. */
static void ucma_copy_in6(struct sockaddr_in6 *dst,
			  const struct sockaddr_storage *src)
{
	memcpy(dst, src, src->ss_family == AF_INET ?
	       sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
}

/* InfiniBand: the SA's paths, or the GIDs and P_Key without a path. */
static void ucma_route_ib(struct rdma_ucm_query_route_resp *resp,
			  struct rdma_route *route)
{
	struct rdma_dev_addr *dev_addr = &route->addr.dev_addr;

	resp->num_paths = route->num_pri_alt_paths;
	switch (route->num_pri_alt_paths) {
	case 0:
		rdma_addr_get_dgid(dev_addr,
				   (union ib_gid *)&resp->ib_route[0].dgid);
		rdma_addr_get_sgid(dev_addr,
				   (union ib_gid *)&resp->ib_route[0].sgid);
		resp->ib_route[0].pkey =
			cpu_to_be16(ib_addr_get_pkey(dev_addr));
		break;
	case 2:
		ib_copy_path_rec_to_user(&resp->ib_route[1],
					 &route->path_rec[1]);
		fallthrough;
	case 1:
		ib_copy_path_rec_to_user(&resp->ib_route[0],
					 &route->path_rec[0]);
		break;
	}
}

/* RoCE: the path, or GIDs made of the IP addresses and P_Key 0xffff. */
static void ucma_route_roce(struct rdma_ucm_query_route_resp *resp,
			    struct rdma_route *route)
{
	resp->num_paths = route->num_pri_alt_paths;
	switch (route->num_pri_alt_paths) {
	case 0:
		rdma_ip2gid((struct sockaddr *)&route->addr.dst_addr,
			    (union ib_gid *)&resp->ib_route[0].dgid);
		rdma_ip2gid((struct sockaddr *)&route->addr.src_addr,
			    (union ib_gid *)&resp->ib_route[0].sgid);
		resp->ib_route[0].pkey = cpu_to_be16(0xffff);
		break;
	case 2:
		ib_copy_path_rec_to_user(&resp->ib_route[1],
					 &route->path_rec[1]);
		fallthrough;
	case 1:
		ib_copy_path_rec_to_user(&resp->ib_route[0],
					 &route->path_rec[0]);
		break;
	}
}

/* iWARP: the GIDs of the link-layer addresses, no path. */
static void ucma_route_iw(struct rdma_ucm_query_route_resp *resp,
			  struct rdma_route *route)
{
	struct rdma_dev_addr *dev_addr = &route->addr.dev_addr;

	rdma_addr_get_dgid(dev_addr, (union ib_gid *)&resp->ib_route[0].dgid);
	rdma_addr_get_sgid(dev_addr, (union ib_gid *)&resp->ib_route[0].sgid);
}

/**
 * ucma_cmd_query_route - RDMA_USER_CM_CMD_QUERY_ROUTE
 * @file: the file
 * @inbuf: struct rdma_ucm_query
 * @in_len: its length from the header
 * @out_len: room for struct rdma_ucm_query_route_resp (older user space
 *	has no room for its last 8 bytes: it gets the rest)
 *
 * The addresses, and once the id has a device the device (node GUID,
 * index), the port and the route as the port's transport has it.
 *
 * Context: process context; sleeps.
 * Return: 0; -ENOSPC; -EFAULT; the errors of ucma_ctx_get().
 */
ssize_t ucma_cmd_query_route(struct ucma_file *file, const char __user *inbuf,
			     int in_len, int out_len)
{
	struct rdma_ucm_query_route_resp resp;
	struct rdma_ucm_query cmd;
	struct ucma_context *ctx;
	struct rdma_cm_id *cm_id;
	int ret = 0;

	if (out_len < offsetof(struct rdma_ucm_query_route_resp, ibdev_index))
		return -ENOSPC;
	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	ctx = ucma_ctx_get(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	memset(&resp, 0, sizeof(resp));
	mutex_lock(&ctx->mutex);
	cm_id = ctx->cm_id;
	ucma_copy_in6(&resp.src_addr, &cm_id->route.addr.src_addr);
	ucma_copy_in6(&resp.dst_addr, &cm_id->route.addr.dst_addr);
	if (cm_id->device) {
		resp.node_guid = (__force __u64)cm_id->device->node_guid;
		resp.ibdev_index = cm_id->device->index;
		resp.port_num = cm_id->port_num;
		if (rdma_cap_ib_sa(cm_id->device, cm_id->port_num))
			ucma_route_ib(&resp, &cm_id->route);
		else if (rdma_protocol_roce(cm_id->device, cm_id->port_num))
			ucma_route_roce(&resp, &cm_id->route);
		else if (rdma_protocol_iwarp(cm_id->device, cm_id->port_num))
			ucma_route_iw(&resp, &cm_id->route);
	}
	mutex_unlock(&ctx->mutex);
	if (copy_to_user(u64_to_user_ptr(cmd.response), &resp,
			 min_t(size_t, out_len, sizeof(resp))))
		ret = -EFAULT;
	ucma_ctx_put(ctx);
	return ret;
}

/* The device part of an address answer, once the id has a device. */
static void ucma_query_device_addr(struct rdma_cm_id *cm_id,
				   struct rdma_ucm_query_addr_resp *resp)
{
	u16 pkey;

	if (!cm_id->device)
		return;
	resp->node_guid = (__force __u64)cm_id->device->node_guid;
	resp->ibdev_index = cm_id->device->index;
	resp->port_num = cm_id->port_num;
	pkey = ib_addr_get_pkey(&cm_id->route.addr.dev_addr);
	resp->pkey = (__force __u16)cpu_to_be16(pkey);
}

/* RDMA_USER_CM_QUERY_ADDR: the addresses as they are, any family. */
static int ucma_query_addr(struct ucma_context *ctx, void __user *response,
			   int out_len)
{
	struct rdma_ucm_query_addr_resp resp;
	struct sockaddr *addr;

	if (out_len < offsetof(struct rdma_ucm_query_addr_resp, ibdev_index))
		return -ENOSPC;
	memset(&resp, 0, sizeof(resp));
	addr = (struct sockaddr *)&ctx->cm_id->route.addr.src_addr;
	resp.src_size = rdma_addr_size(addr);
	memcpy(&resp.src_addr, addr, resp.src_size);
	addr = (struct sockaddr *)&ctx->cm_id->route.addr.dst_addr;
	resp.dst_size = rdma_addr_size(addr);
	memcpy(&resp.dst_addr, addr, resp.dst_size);
	ucma_query_device_addr(ctx->cm_id, &resp);
	if (copy_to_user(response, &resp,
			 min_t(size_t, out_len, sizeof(resp))))
		return -EFAULT;
	return 0;
}

/*
 * RDMA_USER_CM_QUERY_PATH: the paths in the SA's wire form, as many as
 * fit after the header (an OPA path converted to IB's).
 */
static int ucma_query_path(struct ucma_context *ctx, void __user *response,
			   int out_len)
{
	struct rdma_ucm_query_path_resp *resp;
	struct rdma_route *route = &ctx->cm_id->route;
	int i, room, ret = 0;

	if (out_len < sizeof(*resp))
		return -ENOSPC;
	resp = kzalloc(out_len, GFP_KERNEL);
	if (!resp)
		return -ENOMEM;
	resp->num_paths = route->num_pri_alt_paths;
	room = (out_len - sizeof(*resp)) / sizeof(struct ib_path_rec_data);
	for (i = 0; i < resp->num_paths && i < room; i++) {
		struct sa_path_rec *rec = &route->path_rec[i];
		struct sa_path_rec ib;

		resp->path_data[i].flags = IB_PATH_GMP | IB_PATH_PRIMARY |
					   IB_PATH_BIDIRECTIONAL;
		if (rec->rec_type == SA_PATH_REC_TYPE_OPA) {
			ib = *rec;
			sa_convert_path_opa_to_ib(&ib, rec);
			rec = &ib;
		}
		ib_sa_pack_path(rec, &resp->path_data[i].path_rec);
	}
	if (copy_to_user(response, resp, struct_size(resp, path_data, i)))
		ret = -EFAULT;
	kfree(resp);
	return ret;
}

/*
 * RDMA_USER_CM_QUERY_GID: both ends as AF_IB addresses (GID, P_Key,
 * service ID), made from an IP id's GIDs and port.
 */
static int ucma_query_gid(struct ucma_context *ctx, void __user *response,
			  int out_len)
{
	struct rdma_cm_id *cm_id = ctx->cm_id;
	struct rdma_ucm_query_addr_resp resp;
	struct sockaddr_ib *sib;

	if (out_len < offsetof(struct rdma_ucm_query_addr_resp, ibdev_index))
		return -ENOSPC;
	memset(&resp, 0, sizeof(resp));
	ucma_query_device_addr(cm_id, &resp);

	sib = (struct sockaddr_ib *)&resp.src_addr;
	resp.src_size = sizeof(*sib);
	if (cm_id->route.addr.src_addr.ss_family == AF_IB) {
		memcpy(sib, &cm_id->route.addr.src_addr, sizeof(*sib));
	} else {
		sib->sib_family = AF_IB;
		sib->sib_pkey = (__force __be16)resp.pkey;
		rdma_read_gids(cm_id, (union ib_gid *)&sib->sib_addr, NULL);
		sib->sib_sid = rdma_get_service_id(cm_id, (struct sockaddr *)
						   &cm_id->route.addr.src_addr);
	}

	sib = (struct sockaddr_ib *)&resp.dst_addr;
	resp.dst_size = sizeof(*sib);
	if (cm_id->route.addr.dst_addr.ss_family == AF_IB) {
		memcpy(sib, &cm_id->route.addr.dst_addr, sizeof(*sib));
	} else {
		sib->sib_family = AF_IB;
		sib->sib_pkey = (__force __be16)resp.pkey;
		rdma_read_gids(cm_id, NULL, (union ib_gid *)&sib->sib_addr);
		sib->sib_sid = rdma_get_service_id(cm_id, (struct sockaddr *)
						   &cm_id->route.addr.dst_addr);
	}
	if (copy_to_user(response, &resp,
			 min_t(size_t, out_len, sizeof(resp))))
		return -EFAULT;
	return 0;
}

/**
 * ucma_cmd_query - RDMA_USER_CM_CMD_QUERY: addresses, paths or GIDs
 * @file: the file
 * @inbuf: struct rdma_ucm_query with the option
 * @in_len: its length from the header
 * @out_len: room at the response address
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; -ENOSPC; -ENOMEM; -ENOSYS for an unknown option;
 * the errors of ucma_ctx_get().
 */
ssize_t ucma_cmd_query(struct ucma_file *file, const char __user *inbuf,
		       int in_len, int out_len)
{
	struct rdma_ucm_query cmd;
	struct ucma_context *ctx;
	void __user *response;
	int ret;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	response = u64_to_user_ptr(cmd.response);
	ctx = ucma_ctx_get(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->mutex);
	switch (cmd.option) {
	case RDMA_USER_CM_QUERY_ADDR:
		ret = ucma_query_addr(ctx, response, out_len);
		break;
	case RDMA_USER_CM_QUERY_PATH:
		ret = ucma_query_path(ctx, response, out_len);
		break;
	case RDMA_USER_CM_QUERY_GID:
		ret = ucma_query_gid(ctx, response, out_len);
		break;
	default:
		ret = -ENOSYS;
		break;
	}
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/* ------------------------------------------------------------------
 * Connections
 */

/*
 * The kernel's parameters from user space's; the private data is in
 * @src, the kernel's copy of the request.  A Q_Key is taken only from
 * an AF_IB id (an IP id's is its port space's).
 */
static void ucma_conn_param(struct rdma_cm_id *cm_id,
			    struct rdma_conn_param *dst,
			    struct rdma_ucm_conn_param *src)
{
	dst->private_data = src->private_data;
	dst->private_data_len = src->private_data_len;
	dst->responder_resources = src->responder_resources;
	dst->initiator_depth = src->initiator_depth;
	dst->flow_control = src->flow_control;
	dst->retry_count = src->retry_count;
	dst->rnr_retry_count = src->rnr_retry_count;
	dst->srq = src->srq;
	dst->qp_num = src->qp_num & 0xFFFFFF;
	dst->qkey = cm_id->route.addr.src_addr.ss_family == AF_IB ?
		    src->qkey : 0;
}

/**
 * ucma_cmd_connect - RDMA_USER_CM_CMD_CONNECT
 * @file: the file
 * @inbuf: struct rdma_ucm_connect, with or without its ECE at the end
 * @in_len: its length from the header
 * @out_len: unused
 *
 * The outcome comes as an event (ESTABLISHED, or CONNECT_RESPONSE for an
 * id whose QP user space moves itself, REJECTED, UNREACHABLE, ...).
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL for a request shorter than the form without ECE or
 * without valid parameters; -EFAULT; the errors of ucma_ctx_get_dev()
 * and rdma_connect_ece().
 */
ssize_t ucma_cmd_connect(struct ucma_file *file, const char __user *inbuf,
			 int in_len, int out_len)
{
	struct rdma_conn_param conn_param;
	struct rdma_ucm_ece ece = {};
	struct rdma_ucm_connect cmd = {};
	struct ucma_context *ctx;
	size_t in_size;
	int ret;

	if (in_len < offsetofend(typeof(cmd), reserved))
		return -EINVAL;
	in_size = min_t(size_t, in_len, sizeof(cmd));
	if (copy_from_user(&cmd, inbuf, in_size))
		return -EFAULT;
	if (!cmd.conn_param.valid)
		return -EINVAL;
	ctx = ucma_ctx_get_dev(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ucma_conn_param(ctx->cm_id, &conn_param, &cmd.conn_param);
	if (offsetofend(typeof(cmd), ece) <= in_size)
		ece = cmd.ece;
	mutex_lock(&ctx->mutex);
	ret = rdma_connect_ece(ctx->cm_id, &conn_param, &ece);
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_listen - RDMA_USER_CM_CMD_LISTEN
 * @file: the file
 * @inbuf: struct rdma_ucm_listen
 * @in_len: its length from the header
 * @out_len: unused
 *
 * A backlog of 0 or over the net.rdma_ucm.max_backlog sysctl is that
 * sysctl's value.  Requests beyond the backlog that user space has not
 * read yet are refused.
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; the errors of ucma_ctx_get() and rdma_listen().
 */
ssize_t ucma_cmd_listen(struct ucma_file *file, const char __user *inbuf,
			int in_len, int out_len)
{
	unsigned int max = READ_ONCE(ucma_max_backlog);
	struct rdma_ucm_listen cmd;
	struct ucma_context *ctx;
	int ret;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	ctx = ucma_ctx_get(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (!cmd.backlog || cmd.backlog > max)
		cmd.backlog = max;
	atomic_set(&ctx->backlog, cmd.backlog);
	mutex_lock(&ctx->mutex);
	ret = rdma_listen(ctx->cm_id, cmd.backlog);
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_accept - RDMA_USER_CM_CMD_ACCEPT
 * @file: the file
 * @inbuf: struct rdma_ucm_accept, with or without its ECE at the end
 * @in_len: its length from the header
 * @out_len: unused
 *
 * With valid parameters: answer a request (the id's events reach user
 * space from now on, with the uid given).  Without: the active side of
 * an InfiniBand or RoCE connection whose QP user space moved after
 * CONNECT_RESPONSE, which sends the RTU.
 *
 * Context: process context; sleeps; takes the id's handler lock.
 * Return: 0; -EINVAL for a request shorter than the form without ECE;
 * -EFAULT; the errors of ucma_ctx_get_dev() and rdma_accept_ece().
 */
ssize_t ucma_cmd_accept(struct ucma_file *file, const char __user *inbuf,
			int in_len, int out_len)
{
	struct rdma_conn_param conn_param;
	struct rdma_ucm_ece ece = {};
	struct rdma_ucm_accept cmd = {};
	struct ucma_context *ctx;
	size_t in_size;
	int ret;

	if (in_len < offsetofend(typeof(cmd), reserved))
		return -EINVAL;
	in_size = min_t(size_t, in_len, sizeof(cmd));
	if (copy_from_user(&cmd, inbuf, in_size))
		return -EFAULT;
	ctx = ucma_ctx_get_dev(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (offsetofend(typeof(cmd), ece) <= in_size)
		ece = cmd.ece;

	mutex_lock(&ctx->mutex);
	rdma_lock_handler(ctx->cm_id);
	if (cmd.conn_param.valid) {
		ucma_conn_param(ctx->cm_id, &conn_param, &cmd.conn_param);
		ret = rdma_accept_ece(ctx->cm_id, &conn_param, &ece);
		/* with the handler locked: no event between the two */
		if (!ret)
			ctx->uid = cmd.uid;
	} else {
		ret = rdma_accept_ece(ctx->cm_id, NULL, &ece);
	}
	rdma_unlock_handler(ctx->cm_id);
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_reject - RDMA_USER_CM_CMD_REJECT
 * @file: the file
 * @inbuf: struct rdma_ucm_reject: private data and a reason (0: consumer
 *	defined)
 * @in_len: its length from the header
 * @out_len: unused
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; -EINVAL for a reason other than consumer defined
 * and "vendor option not supported" (ECE's); the errors of
 * ucma_ctx_get_dev() and rdma_reject().
 */
ssize_t ucma_cmd_reject(struct ucma_file *file, const char __user *inbuf,
			int in_len, int out_len)
{
	struct rdma_ucm_reject cmd;
	struct ucma_context *ctx;
	int ret;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	if (!cmd.reason)
		cmd.reason = IB_CM_REJ_CONSUMER_DEFINED;
	if (cmd.reason != IB_CM_REJ_CONSUMER_DEFINED &&
	    cmd.reason != IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED)
		return -EINVAL;
	ctx = ucma_ctx_get_dev(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->mutex);
	ret = rdma_reject(ctx->cm_id, cmd.private_data, cmd.private_data_len,
			  cmd.reason);
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_disconnect - RDMA_USER_CM_CMD_DISCONNECT
 * @file: the file
 * @inbuf: struct rdma_ucm_disconnect
 * @in_len: its length from the header
 * @out_len: unused
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; the errors of ucma_ctx_get_dev() and
 * rdma_disconnect().
 */
ssize_t ucma_cmd_disconnect(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len)
{
	struct rdma_ucm_disconnect cmd;
	struct ucma_context *ctx;
	int ret;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	ctx = ucma_ctx_get_dev(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->mutex);
	ret = rdma_disconnect(ctx->cm_id);
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_init_qp_attr - RDMA_USER_CM_CMD_INIT_QP_ATTR
 * @file: the file
 * @inbuf: struct rdma_ucm_init_qp_attr: the QP state wanted
 * @in_len: its length from the header
 * @out_len: room for struct ib_uverbs_qp_attr
 *
 * The attributes and mask with which user space moves its own QP to
 * that state for the id's connection (libibverbs' ibv_modify_qp()).
 *
 * Context: process context; sleeps.
 * Return: 0; -ENOSPC; -EFAULT; -EINVAL for a state past IB_QPS_ERR; the
 * errors of ucma_ctx_get_dev() and rdma_init_qp_attr().
 */
ssize_t ucma_cmd_init_qp_attr(struct ucma_file *file,
			      const char __user *inbuf, int in_len,
			      int out_len)
{
	struct rdma_ucm_init_qp_attr cmd;
	struct ib_uverbs_qp_attr resp;
	struct ib_qp_attr qp_attr;
	struct ucma_context *ctx;
	int mask = 0, ret;

	if (out_len < sizeof(resp))
		return -ENOSPC;
	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	if (cmd.qp_state > IB_QPS_ERR)
		return -EINVAL;
	ctx = ucma_ctx_get_dev(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	memset(&qp_attr, 0, sizeof(qp_attr));
	qp_attr.qp_state = cmd.qp_state;
	mutex_lock(&ctx->mutex);
	ret = rdma_init_qp_attr(ctx->cm_id, &qp_attr, &mask);
	mutex_unlock(&ctx->mutex);
	if (ret)
		goto out;
	/* (it zeroes the whole answer first, the mask too) */
	ib_copy_qp_attr_to_user(ctx->cm_id->device, &resp, &qp_attr);
	resp.qp_attr_mask = mask;
	if (copy_to_user(u64_to_user_ptr(cmd.response), &resp, sizeof(resp)))
		ret = -EFAULT;
out:
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_notify - RDMA_USER_CM_CMD_NOTIFY: a QP event for the CM
 * @file: the file
 * @inbuf: struct rdma_ucm_notify (IB_EVENT_COMM_EST matters)
 * @in_len: its length from the header
 * @out_len: unused
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; -EINVAL without a device; the errors of
 * ucma_ctx_get() and rdma_notify().
 */
ssize_t ucma_cmd_notify(struct ucma_file *file, const char __user *inbuf,
			int in_len, int out_len)
{
	struct rdma_ucm_notify cmd;
	struct ucma_context *ctx;
	int ret = -EINVAL;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	ctx = ucma_ctx_get(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->mutex);
	if (ctx->cm_id->device)
		ret = rdma_notify(ctx->cm_id, (enum ib_event_type)cmd.event);
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ret;
}

/* ------------------------------------------------------------------
 * Options
 */

/* Level RDMA_OPTION_ID; the caller holds the context's mutex. */
static int ucma_set_option_id(struct ucma_context *ctx, int optname,
			      void *optval, size_t optlen)
{
	switch (optname) {
	case RDMA_OPTION_ID_TOS:
		if (optlen != sizeof(u8))
			return -EINVAL;
		rdma_set_service_type(ctx->cm_id, *(u8 *)optval);
		return 0;
	case RDMA_OPTION_ID_REUSEADDR:
		if (optlen != sizeof(int))
			return -EINVAL;
		return rdma_set_reuseaddr(ctx->cm_id, *(int *)optval ? 1 : 0);
	case RDMA_OPTION_ID_AFONLY:
		if (optlen != sizeof(int))
			return -EINVAL;
		return rdma_set_afonly(ctx->cm_id, *(int *)optval ? 1 : 0);
	case RDMA_OPTION_ID_ACK_TIMEOUT:
		if (optlen != sizeof(u8))
			return -EINVAL;
		return rdma_set_ack_timeout(ctx->cm_id, *(u8 *)optval);
	default:
		return -ENOSYS;
	}
}

/*
 * RDMA_OPTION_IB_PATH: the route given by user space (ibacm's records):
 * the first general, primary, bidirectional record of the array is the
 * id's path, then ROUTE_RESOLVED is queued as rdma_cm would have.
 */
static int ucma_set_ib_path(struct ucma_context *ctx,
			    struct ib_path_rec_data *path_data, size_t optlen)
{
	struct rdma_cm_event event = {};
	struct sa_path_rec sa_path;
	int ret;

	if (optlen % sizeof(*path_data))
		return -EINVAL;
	for (; optlen; optlen -= sizeof(*path_data), path_data++)
		if (path_data->flags == (IB_PATH_GMP | IB_PATH_PRIMARY |
					 IB_PATH_BIDIRECTIONAL))
			break;
	if (!optlen)
		return -EINVAL;
	if (!ctx->cm_id->device)
		return -EINVAL;

	memset(&sa_path, 0, sizeof(sa_path));
	sa_path.rec_type = SA_PATH_REC_TYPE_IB;
	ib_sa_unpack_path(path_data->path_rec, &sa_path);
	mutex_lock(&ctx->mutex);
	if (rdma_cap_opa_ah(ctx->cm_id->device, ctx->cm_id->port_num)) {
		struct sa_path_rec opa = sa_path;

		sa_convert_path_ib_to_opa(&opa, &sa_path);
		ret = rdma_set_ib_path(ctx->cm_id, &opa);
	} else {
		ret = rdma_set_ib_path(ctx->cm_id, &sa_path);
	}
	mutex_unlock(&ctx->mutex);
	if (ret)
		return ret;

	event.event = RDMA_CM_EVENT_ROUTE_RESOLVED;
	rdma_lock_handler(ctx->cm_id);
	ret = ucma_event_handler(ctx->cm_id, &event);
	rdma_unlock_handler(ctx->cm_id);
	return ret;
}

static int ucma_set_option_level(struct ucma_context *ctx, int level,
				 int optname, void *optval, size_t optlen)
{
	int ret;

	switch (level) {
	case RDMA_OPTION_ID:
		mutex_lock(&ctx->mutex);
		ret = ucma_set_option_id(ctx, optname, optval, optlen);
		mutex_unlock(&ctx->mutex);
		return ret;
	case RDMA_OPTION_IB:
		if (optname != RDMA_OPTION_IB_PATH)
			return -ENOSYS;
		return ucma_set_ib_path(ctx, optval, optlen);
	default:
		return -ENOSYS;
	}
}

/**
 * ucma_cmd_set_option - RDMA_USER_CM_CMD_SET_OPTION
 * @file: the file
 * @inbuf: struct rdma_ucm_set_option: level, name, value's address and
 *	length
 * @in_len: its length from the header
 * @out_len: unused
 *
 * Level RDMA_OPTION_ID: TOS (u8), REUSEADDR and AFONLY (int), ACK_TIMEOUT
 * (u8); level RDMA_OPTION_IB: IB_PATH (struct ib_path_rec_data array).
 *
 * Context: process context; sleeps.
 * Return: 0; -EFAULT; -EINVAL for a length the option does not take (or
 * over KMALLOC_MAX_SIZE); -ENOSYS for an unknown level or name; the
 * errors of ucma_ctx_get() and of the option's rdma_cm call.
 */
ssize_t ucma_cmd_set_option(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len)
{
	struct rdma_ucm_set_option cmd;
	struct ucma_context *ctx;
	void *optval;
	int ret;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	if (unlikely(cmd.optlen > KMALLOC_MAX_SIZE))
		return -EINVAL;
	ctx = ucma_ctx_get(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	optval = memdup_user(u64_to_user_ptr(cmd.optval), cmd.optlen);
	if (IS_ERR(optval)) {
		ret = PTR_ERR(optval);
		goto out;
	}
	ret = ucma_set_option_level(ctx, cmd.level, cmd.optname, optval,
				    cmd.optlen);
	kfree(optval);
out:
	ucma_ctx_put(ctx);
	return ret;
}

/* ------------------------------------------------------------------
 * Multicast
 */

/* Both joins: a group of the context, numbered, joined through rdma_cm. */
static ssize_t ucma_join(struct ucma_file *file,
			 struct rdma_ucm_join_mcast *cmd, int out_len)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct sockaddr *addr = (struct sockaddr *)&cmd->addr;
	struct ucma_multicast *mc;
	struct ucma_context *ctx;
	u8 join_state;
	int ret;

	if (out_len < sizeof(resp))
		return -ENOSPC;
	if (cmd->addr_size != rdma_addr_size(addr))
		return -EINVAL;
	if (cmd->join_flags == RDMA_MC_JOIN_FLAG_FULLMEMBER)
		join_state = BIT(FULLMEMBER_JOIN);
	else if (cmd->join_flags == RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER)
		join_state = BIT(SENDONLY_FULLMEMBER_JOIN);
	else
		return -EINVAL;

	ctx = ucma_ctx_get_dev(file, cmd->id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mc = kzalloc(sizeof(*mc), GFP_KERNEL);
	if (!mc) {
		ret = -ENOMEM;
		goto err_put;
	}
	mc->ctx = ctx;
	mc->join_state = join_state;
	mc->uid = cmd->uid;
	memcpy(&mc->addr, addr, cmd->addr_size);

	/* a number, reserved (not found by LEAVE_MCAST) until joined */
	xa_lock(&ucma_mc_table);
	if (__xa_alloc(&ucma_mc_table, &mc->id, NULL, xa_limit_32b,
		       GFP_KERNEL)) {
		xa_unlock(&ucma_mc_table);
		kfree(mc);
		ret = -ENOMEM;
		goto err_put;
	}
	list_add_tail(&mc->list, &ctx->mc_list);
	xa_unlock(&ucma_mc_table);
	atomic_inc(&ucma_mc_alive);

	mutex_lock(&ctx->mutex);
	ret = rdma_join_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr,
				  join_state, mc);
	if (ret) {
		mutex_unlock(&ctx->mutex);
		goto err_erase;
	}
	resp.id = mc->id;
	if (copy_to_user(u64_to_user_ptr(cmd->response), &resp,
			 sizeof(resp))) {
		ret = -EFAULT;
		rdma_leave_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr);
		mutex_unlock(&ctx->mutex);
		ucma_mc_drop_events(mc);
		goto err_erase;
	}
	mutex_unlock(&ctx->mutex);
	xa_store(&ucma_mc_table, mc->id, mc, 0);
	ucma_ctx_put(ctx);
	return 0;

err_erase:
	xa_lock(&ucma_mc_table);
	list_del(&mc->list);
	__xa_erase(&ucma_mc_table, mc->id);
	xa_unlock(&ucma_mc_table);
	kfree(mc);
	atomic_dec(&ucma_mc_alive);
err_put:
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_join_ip_mcast - RDMA_USER_CM_CMD_JOIN_IP_MCAST
 * @file: the file
 * @inbuf: struct rdma_ucm_join_ip_mcast (IPv4 or IPv6 group)
 * @in_len: its length from the header
 * @out_len: room for struct rdma_ucm_create_id_resp (the group's number)
 *
 * A full member's join; its outcome comes as MULTICAST_JOIN or
 * MULTICAST_ERROR, with the uid given.
 *
 * Context: process context; sleeps.
 * Return: as ucma_cmd_join_mcast().
 */
ssize_t ucma_cmd_join_ip_mcast(struct ucma_file *file,
			       const char __user *inbuf, int in_len,
			       int out_len)
{
	struct rdma_ucm_join_ip_mcast cmd;
	struct rdma_ucm_join_mcast join = {};

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	join.response = cmd.response;
	join.uid = cmd.uid;
	join.id = cmd.id;
	join.addr_size = rdma_addr_size_in6(&cmd.addr);
	if (!join.addr_size)
		return -EINVAL;
	join.join_flags = RDMA_MC_JOIN_FLAG_FULLMEMBER;
	memcpy(&join.addr, &cmd.addr, join.addr_size);
	return ucma_join(file, &join, out_len);
}

/**
 * ucma_cmd_join_mcast - RDMA_USER_CM_CMD_JOIN_MCAST
 * @file: the file
 * @inbuf: struct rdma_ucm_join_mcast (any family, its size, join flags)
 * @in_len: its length from the header
 * @out_len: room for struct rdma_ucm_create_id_resp (the group's number)
 *
 * Context: process context; sleeps.
 * Return: 0; -ENOSPC; -EFAULT (the group is left again); -EINVAL for an
 * address whose size is not its family's or unknown join flags; -ENOMEM;
 * the errors of ucma_ctx_get_dev() and rdma_join_multicast().
 */
ssize_t ucma_cmd_join_mcast(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len)
{
	struct rdma_ucm_join_mcast cmd;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	if (!rdma_addr_size_kss(&cmd.addr))
		return -EINVAL;
	return ucma_join(file, &cmd, out_len);
}

/**
 * ucma_cmd_leave_mcast - RDMA_USER_CM_CMD_LEAVE_MCAST
 * @file: the file
 * @inbuf: struct rdma_ucm_destroy_id naming the group's number
 * @in_len: its length from the header
 * @out_len: room for struct rdma_ucm_destroy_id_resp
 *
 * Leaves the group, drops its events not read and answers how many were.
 *
 * Context: process context; sleeps.
 * Return: 0; -ENOSPC; -EFAULT (left all the same when only the answer
 * could not be written); -ENOENT for no such group; -EINVAL for another
 * file's; -ENXIO when its id went with its device.
 */
ssize_t ucma_cmd_leave_mcast(struct ucma_file *file, const char __user *inbuf,
			     int in_len, int out_len)
{
	struct rdma_ucm_destroy_id_resp resp = {};
	struct rdma_ucm_destroy_id cmd;
	struct ucma_multicast *mc;
	struct ucma_context *ctx;

	if (out_len < sizeof(resp))
		return -ENOSPC;
	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;

	xa_lock(&ucma_mc_table);
	mc = xa_load(&ucma_mc_table, cmd.id);
	if (!mc)
		mc = ERR_PTR(-ENOENT);
	else if (READ_ONCE(mc->ctx->file) != file)
		mc = ERR_PTR(-EINVAL);
	else if (!refcount_inc_not_zero(&mc->ctx->ref))
		mc = ERR_PTR(-ENXIO);
	if (IS_ERR(mc)) {
		xa_unlock(&ucma_mc_table);
		return PTR_ERR(mc);
	}
	list_del(&mc->list);
	__xa_erase(&ucma_mc_table, mc->id);
	xa_unlock(&ucma_mc_table);

	ctx = mc->ctx;
	mutex_lock(&ctx->mutex);
	rdma_leave_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr);
	mutex_unlock(&ctx->mutex);
	ucma_mc_drop_events(mc);
	ucma_ctx_put(ctx);

	resp.events_reported = mc->events_reported;
	kfree(mc);
	atomic_dec(&ucma_mc_alive);
	if (copy_to_user(u64_to_user_ptr(cmd.response), &resp, sizeof(resp)))
		return -EFAULT;
	return 0;
}
