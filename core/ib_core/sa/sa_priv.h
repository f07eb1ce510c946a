/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of ib_core's SA client share: the per-device and
 * per-port state (sa_client.c), a query in flight (sa_query.c), the
 * ClassPortInfo cache (sa_classport.c) and the hooks of the multicast
 * joins (sa_mcast_port.c).  Not API: ULPs use
 * <rdma/ib_sa.h>.
 */
#ifndef SA_PRIV_H
#define SA_PRIV_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>

/*
 * The address handle of a port's SA (the SM's LID and SL).  Queries
 * hold a reference while their MAD is out; the port holds one until the
 * next refresh.
 */
struct ib_sa_sm_ah {
	struct ib_ah	*ah;
	struct kref	ref;
	u16		pkey_index;	/* of the default (full) P_Key */
	u8		src_path_mask;	/* 2^LMC - 1 of the port */
};

struct sa_mcast_port;

enum rdma_class_port_info_type {
	RDMA_CLASS_PORT_INFO_IB,
	RDMA_CLASS_PORT_INFO_OPA
};

struct rdma_class_port_info {
	enum rdma_class_port_info_type type;
	union {
		struct ib_class_port_info ib;
		struct opa_class_port_info opa;
	};
};

/* The SA's ClassPortInfo as last read, and the retries of reading it. */
struct ib_sa_classport_cache {
	bool				valid;
	int				retry_cnt;
	struct rdma_class_port_info	data;
};

/**
 * struct ib_sa_port - the SA client on one port
 * @agent: GSI agent the queries go out on (NULL: no SA on this port)
 * @sm_ah: the SA's address handle, NULL until (re)built
 * @update_task: rebuilds @sm_ah (on ib_wq)
 * @classport_info: the cached ClassPortInfo
 * @ib_cpi_work: reads @classport_info (on ib_wq)
 * @classport_lock: protects @classport_info
 * @ah_lock: protects @sm_ah (taken with interrupts off)
 * @cpi_mutex: serialises @ib_cpi_work's post against @closing
 * @closing: the device is going: no more ClassPortInfo queries
 * @mcast: the port's multicast groups (sa_mcast_port.c); NULL when the
 *	port has no IB multicast
 * @port_num: the port
 */
struct ib_sa_port {
	struct ib_mad_agent		*agent;
	struct ib_sa_sm_ah		*sm_ah;
	struct work_struct		update_task;
	struct ib_sa_classport_cache	classport_info;
	struct delayed_work		ib_cpi_work;
	spinlock_t			classport_lock;	/* @classport_info */
	spinlock_t			ah_lock;	/* @sm_ah */
	struct mutex			cpi_mutex;	/* post vs @closing */
	bool				closing;
	struct sa_mcast_port		*mcast;
	u32				port_num;
};

/* The SA client's data of one device (ib_get_client_data()). */
struct ib_sa_device {
	int			start_port;
	int			end_port;
	struct ib_event_handler	event_handler;
	struct ib_sa_port	port[];
};

/* struct ib_sa_query's flags */
#define IB_SA_ENABLE_LOCAL_SERVICE	0x00000001
#define IB_SA_CANCEL			0x00000002
#define IB_SA_QUERY_OPA			0x00000004

/* At most this many path records of a local service answer are used. */
#define RDMA_PRIMARY_PATH_MAX_REC_NUM	3

/**
 * struct ib_sa_query - one query in flight
 * @callback: the kind's completion: status and the SA's MAD (NULL on
 *	errors without an answer); NULL when the caller gave none
 * @release: frees the kind's structure this one is embedded in
 * @client: the caller's client (a reference); NULL for the core's own
 * @port: the port it goes out of
 * @mad_buf: its send buffer; ->context[0] points back here
 * @sm_ah: the SA address handle it holds
 * @id: its number in the query xarray (what the caller may cancel)
 * @flags: IB_SA_*
 * @ls_callback: the records a local service answered with (path
 *	queries; @num_recs >= 1, IB records); NULL when the caller gave
 *	no callback
 * @ls_list: on sa_ls.c's list while the local service has the query
 * @ls_deadline: when (jiffies) the local service's time is up
 * @ls_seq: the netlink sequence number of its RESOLVE request
 * @ls_path_use: LS_RESOLVE_PATH_USE_* of the request
 * @ls_waiting: on sa_ls.c's list (not taken by one of its handlers)
 * @ls_cancelled: cancelled while the local service had it
 */
struct ib_sa_query {
	void (*callback)(struct ib_sa_query *query, int status,
			 struct ib_sa_mad *mad);
	void (*release)(struct ib_sa_query *query);
	struct ib_sa_client	*client;
	struct ib_sa_port	*port;
	struct ib_mad_send_buf	*mad_buf;
	struct ib_sa_sm_ah	*sm_ah;
	int			id;
	u32			flags;
	void (*ls_callback)(struct ib_sa_query *query,
			    struct sa_path_rec *recs, unsigned int num_recs);
	struct list_head	ls_list;
	unsigned long		ls_deadline;
	u32			ls_seq;
	u8			ls_path_use;
	bool			ls_waiting;
	bool			ls_cancelled;
};

static inline void ib_sa_client_get(struct ib_sa_client *client)
{
	atomic_inc(&client->users);
}

static inline void ib_sa_client_put(struct ib_sa_client *client)
{
	if (atomic_dec_and_test(&client->users))
		complete(&client->comp);
}

/* sa_client.c */
struct ib_sa_port *ib_sa_find_port(struct ib_device *device, u32 port_num);
void ib_sa_put_sm_ah(struct ib_sa_sm_ah *sm_ah);
u8 ib_sa_src_path_mask(struct ib_device *device, u32 port_num);

/* sa_query.c */
int ib_sa_query_prepare(struct ib_sa_query *query,
			struct ib_sa_client *client, u8 method, u16 attr_id,
			ib_sa_comp_mask comp_mask, gfp_t gfp_mask);
int ib_sa_query_start(struct ib_sa_query *query, unsigned long timeout_ms,
		      gfp_t gfp_mask, struct ib_sa_query **out);

/* Where a prepared query's attribute goes: its MAD's data. */
static inline void *ib_sa_query_data(struct ib_sa_query *query)
{
	struct ib_sa_mad *mad = query->mad_buf->mad;

	return mad->data;
}

void ib_sa_send_handler(struct ib_mad_agent *agent,
			struct ib_mad_send_wc *mad_send_wc);
void ib_sa_recv_handler(struct ib_mad_agent *agent,
			struct ib_mad_send_buf *send_buf,
			struct ib_mad_recv_wc *mad_recv_wc);
bool ib_sa_queries_idle(void);
void ib_sa_query_seed_tid(void);
void ib_sa_query_complete(struct ib_sa_query *query, int status);

/* sa_ls.c: the local service (RDMA_NL_LS) */
bool ib_sa_ls_send(struct ib_sa_query *query, gfp_t gfp_mask);
bool ib_sa_ls_cancel(struct ib_sa_query *query);
void ib_sa_ls_flush_port(struct ib_sa_port *port);
void ib_sa_ls_init(void);
void ib_sa_ls_cleanup(void);

/* sa_classport.c */
void ib_sa_cpi_work(struct work_struct *work);
void ib_sa_cpi_invalidate(struct ib_sa_port *port);
void ib_sa_cpi_stop(struct ib_sa_port *port);

/* sa_mcmember.c */
int ib_sa_mcmember_rec_query(struct ib_sa_client *client,
			     struct ib_device *device, u32 port_num, u8 method,
			     struct ib_sa_mcmember_rec *rec,
			     ib_sa_comp_mask comp_mask,
			     unsigned long timeout_ms, gfp_t gfp_mask,
			     void (*callback)(int status,
					      struct ib_sa_mcmember_rec *resp,
					      void *context),
			     void *context, struct ib_sa_query **sa_query);

/* sa_mcast_port.c */
int ib_sa_mcast_init(void);
void ib_sa_mcast_cleanup(void);
struct sa_mcast_port *ib_sa_mcast_port_new(struct ib_device *device,
					   u32 port_num);
void ib_sa_mcast_port_stop(struct sa_mcast_port *mport);
void ib_sa_mcast_port_gone(struct sa_mcast_port *mport);
void ib_sa_mcast_event(struct sa_mcast_port *mport, enum ib_event_type event);

#if IS_ENABLED(CONFIG_KUNIT)
void ib_sa_pack_mcmember(const struct ib_sa_mcmember_rec *rec,
			 void *attribute);
void ib_sa_unpack_mcmember(const void *attribute,
			   struct ib_sa_mcmember_rec *rec);
int ib_sa_sm_ah_attr(struct ib_device *device, u32 port_num,
		     struct rdma_ah_attr *ah_attr);
u32 ib_sa_agent_hi_tid(struct ib_device *device, u32 port_num);
int ib_sa_classport_info_get(struct ib_device *device, u32 port_num,
			     struct ib_class_port_info *info);
void ib_sa_ls_kunit_set_tap(int (*tap)(struct sk_buff *skb));
unsigned int ib_sa_ls_timeout_ms(void);
unsigned int ib_sa_ls_pending(void);
void ib_sa_mcast_kunit_flush(void);
/* How long a join or a leave waits for the SA (SA_MCAST_TIMEOUT_MS). */
extern unsigned int ib_sa_mcast_timeout_ms;
int ib_nl_handle_resolve_resp(struct sk_buff *skb, struct nlmsghdr *nlh,
			      struct netlink_ext_ack *extack);
int ib_nl_handle_set_timeout(struct sk_buff *skb, struct nlmsghdr *nlh,
			     struct netlink_ext_ack *extack);
#endif

#endif /* SA_PRIV_H */
