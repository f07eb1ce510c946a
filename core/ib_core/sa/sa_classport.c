// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SA's ClassPortInfo, which the client reads on its own: after an
 * event that may mean another SA (SM change, client reregistration,
 * LID change, port active) the cached copy is dropped and read again a
 * second later, with up to three more tries a second apart when that
 * fails.  Its CapabilityMask and CapabilityMask2 tell what the SA can
 * do (IB_SA_CAP_MASK2_SENDONLY_FULL_MEM_SUPPORT, OPA path records).
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_pack.h>
#include "../core_priv.h"
#include "sa_priv.h"

#define SA_CPI_TIMEOUT_MS	3000
#define SA_CPI_MAX_RETRIES	3
#define SA_CPI_RETRY_WAIT_MS	1000

/*
 * Bits @bits at bit @bit of 32-bit word @word: the member given last
 * (variadic only so that checkpatch sees it used once).
 */
#define CPI(word, bit, bits, ...)					\
	{ .struct_offset_bytes = offsetof(struct ib_class_port_info, __VA_ARGS__),	\
	  .struct_size_bytes = sizeof_field(struct ib_class_port_info, __VA_ARGS__),	\
	  .field_name = "ib_class_port_info:" #__VA_ARGS__,			\
	  .offset_words = (word), .offset_bits = (bit), .size_bits = (bits) }

/* ClassPortInfo (IBTA 13.4.8.1), 72 bytes. */
static const struct ib_field sa_cpi_fields[] = {
	CPI(0, 0, 8, base_version),
	CPI(0, 8, 8, class_version),
	CPI(0, 16, 16, capability_mask),
	CPI(1, 0, 32, cap_mask2_resp_time),
	CPI(2, 0, 128, redirect_gid),
	CPI(6, 0, 32, redirect_tcslfl),
	CPI(7, 0, 16, redirect_lid),
	CPI(7, 16, 16, redirect_pkey),
	CPI(8, 0, 32, redirect_qp),
	CPI(9, 0, 32, redirect_qkey),
	CPI(10, 0, 128, trap_gid),
	CPI(14, 0, 32, trap_tcslfl),
	CPI(15, 0, 16, trap_lid),
	CPI(15, 16, 16, trap_pkey),
	CPI(16, 0, 32, trap_hlqp),
	CPI(17, 0, 32, trap_qkey),
};

struct sa_cpi_query {
	struct completion	*done;
	struct ib_sa_query	sa_query;
};

/* Keep the answer (the first good one since the cache was dropped). */
static void sa_cpi_callback(struct ib_sa_query *sa_query, int status,
			    struct ib_sa_mad *mad)
{
	struct sa_cpi_query *query = container_of(sa_query,
						  struct sa_cpi_query,
						  sa_query);
	struct ib_sa_classport_cache *cache = &sa_query->port->classport_info;
	struct ib_class_port_info cpi;
	unsigned long flags;

	if (mad && !status) {
		ib_unpack(sa_cpi_fields, ARRAY_SIZE(sa_cpi_fields), mad->data,
			  &cpi);
		spin_lock_irqsave(&sa_query->port->classport_lock, flags);
		if (!cache->valid) {
			cache->data.type = RDMA_CLASS_PORT_INFO_IB;
			cache->data.ib = cpi;
			cache->valid = true;
		}
		spin_unlock_irqrestore(&sa_query->port->classport_lock, flags);
	}
	complete(query->done);
}

static void sa_cpi_release(struct ib_sa_query *sa_query)
{
	kfree(container_of(sa_query, struct sa_cpi_query, sa_query));
}

/* Send a Get(ClassPortInfo) to the SA of @port; @done when it ended. */
static int sa_cpi_query(struct ib_sa_port *port, struct completion *done)
{
	struct sa_cpi_query *query;
	int ret;

	query = kzalloc(sizeof(*query), GFP_KERNEL);
	if (!query)
		return -ENOMEM;
	query->done = done;
	query->sa_query.port = port;
	query->sa_query.callback = sa_cpi_callback;
	query->sa_query.release = sa_cpi_release;
	ret = ib_sa_query_prepare(&query->sa_query, NULL, IB_MGMT_METHOD_GET,
				  IB_SA_ATTR_CLASS_PORTINFO, 0, GFP_KERNEL);
	if (ret)
		goto err_free;
	ret = ib_sa_query_start(&query->sa_query, SA_CPI_TIMEOUT_MS,
				GFP_KERNEL, NULL);
	if (ret < 0)
		goto err_free;
	return 0;

err_free:
	kfree(query);
	return ret;
}

/**
 * ib_sa_cpi_work - read the SA's ClassPortInfo unless cached
 * @work: a port's ib_cpi_work
 *
 * Waits for the answer; when there is none, tries again later.
 *
 * Context: Process context (ib_wq); sleeps up to the query's timeout.
 */
void ib_sa_cpi_work(struct work_struct *work)
{
	struct ib_sa_port *port = container_of(to_delayed_work(work),
					       struct ib_sa_port, ib_cpi_work);
	DECLARE_COMPLETION_ONSTACK(done);
	unsigned long flags;
	bool valid;
	int ret;

	spin_lock_irqsave(&port->classport_lock, flags);
	valid = port->classport_info.valid;
	spin_unlock_irqrestore(&port->classport_lock, flags);
	if (valid)
		return;

	mutex_lock(&port->cpi_mutex);
	ret = port->closing ? -ENODEV : sa_cpi_query(port, &done);
	mutex_unlock(&port->cpi_mutex);
	if (!ret)
		wait_for_completion(&done);

	spin_lock_irqsave(&port->classport_lock, flags);
	if (!port->classport_info.valid && !port->closing &&
	    ++port->classport_info.retry_cnt <= SA_CPI_MAX_RETRIES)
		queue_delayed_work(ib_wq, &port->ib_cpi_work,
				   msecs_to_jiffies(SA_CPI_RETRY_WAIT_MS));
	spin_unlock_irqrestore(&port->classport_lock, flags);
}

/**
 * ib_sa_cpi_invalidate - drop the cached ClassPortInfo and read it anew
 * @port: the port
 *
 * Context: Any context; takes the port's classport_lock.
 */
void ib_sa_cpi_invalidate(struct ib_sa_port *port)
{
	unsigned long flags;

	spin_lock_irqsave(&port->classport_lock, flags);
	port->classport_info.valid = false;
	port->classport_info.retry_cnt = 0;
	if (!port->closing)
		queue_delayed_work(ib_wq, &port->ib_cpi_work,
				   msecs_to_jiffies(SA_CPI_RETRY_WAIT_MS));
	spin_unlock_irqrestore(&port->classport_lock, flags);
}

/**
 * ib_sa_cpi_stop - no more ClassPortInfo queries on a port
 * @port: the port, its device going
 *
 * A query already out still ends normally (the agent's unregistration
 * flushes it); the work then queues no other try.
 *
 * Context: Process context; takes the port's cpi_mutex.
 */
void ib_sa_cpi_stop(struct ib_sa_port *port)
{
	mutex_lock(&port->cpi_mutex);
	spin_lock_irq(&port->classport_lock);
	port->closing = true;
	spin_unlock_irq(&port->classport_lock);
	mutex_unlock(&port->cpi_mutex);
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * ib_sa_classport_info_get - the cached ClassPortInfo of a port's SA
 * @device: the device
 * @port_num: its port
 * @info: the copy
 *
 * Context: Any context.
 * Return: 0; -EAGAIN when there is none cached now; -ENODEV when the
 * port has no SA.
 */
int ib_sa_classport_info_get(struct ib_device *device, u32 port_num,
			     struct ib_class_port_info *info)
{
	struct ib_sa_port *port = ib_sa_find_port(device, port_num);
	unsigned long flags;
	int ret = -EAGAIN;

	if (!port)
		return -ENODEV;
	spin_lock_irqsave(&port->classport_lock, flags);
	if (port->classport_info.valid &&
	    port->classport_info.data.type == RDMA_CLASS_PORT_INFO_IB) {
		*info = port->classport_info.data.ib;
		ret = 0;
	}
	spin_unlock_irqrestore(&port->classport_lock, flags);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_classport_info_get);
#endif
