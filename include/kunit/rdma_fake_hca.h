/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_fake_hca (tools/testing/rdma/fake_hca/fake_hca*.c): an RDMA driver
 * without hardware, for the KUnit suites of ib_core and the integration
 * scenarios.  This is its API for the suites.
 *
 * A test describes the device it wants in a struct fake_hca_desc (ports,
 * link layers, port attributes, GID and P_Key tables, GUIDs, firmware
 * string, ...), creates it with fake_hca_create() and registers it with
 * fake_hca_register().  While the device lives, the test can change the
 * "hardware" (P_Keys, GIDs, LID, port state) and dispatch the event a real
 * driver would send, and it can make the Nth call of any driver op fail
 * with an error of its choice.  Every op call is counted.
 *
 * Ethernet ports are RoCE v2 ports with a core-managed GID table: the
 * fake records what the core asks it to program through add_gid/del_gid,
 * and binds a net device to the port (its own, or one the test passes).
 *
 * Locking: the fake's state is protected by an internal spinlock, so the
 * helpers below may be called while the core runs driver ops from other
 * contexts (event work, sysfs).  None of them may be called from atomic
 * context except fake_hca_op_calls() and fake_hca_faults_fired().
 */
#ifndef KUNIT_RDMA_FAKE_HCA_H
#define KUNIT_RDMA_FAKE_HCA_H

#include <linux/bits.h>
#include <linux/if_ether.h>
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>

struct kunit;

#define FAKE_HCA_MAX_PORTS	4
#define FAKE_HCA_MAX_TBL_LEN	128
/* IB_MGMT_MAD_SIZE: the MAD size of an IB or RoCE port */
#define FAKE_HCA_MAD_SIZE	256
/* ops.driver_id of the fake unless the description says otherwise */
#define FAKE_HCA_DRIVER_ID	RDMA_DRIVER_UNKNOWN

/* PortInfo:CapabilityMask bits the fake uses (IBTA 14.2.5.6) */
#define FAKE_HCA_PORT_SM_DISABLED	BIT(10)
#define FAKE_HCA_PORT_SYS_IMAGE_GUID	BIT(11)
#define FAKE_HCA_PORT_CM_SUP		BIT(16)
#define FAKE_HCA_PORT_CLIENT_REG_SUP	BIT(25)
#define FAKE_HCA_PORT_IP_BASED_GIDS	BIT(26)

/**
 * struct fake_hca_port_desc - one port of a fake device
 * @link_layer: IB_LINK_LAYER_INFINIBAND (IB port, GIDs served by
 *	query_gid) or IB_LINK_LAYER_ETHERNET (RoCE v2 port, and v1 with
 *	@roce_v1; core-managed GID table through add_gid/del_gid)
 * @state: port state reported by query_port
 * @phys_state: physical port state (enum ib_port_phys_state)
 * @lid: base LID
 * @sm_lid: LID of the subnet manager
 * @lmc: LID mask count
 * @sm_sl: service level to reach the SM
 * @port_cap_flags: PortInfo:CapabilityMask
 * @active_width: enum ib_port_width
 * @active_speed: enum ib_port_speed
 * @active_mtu: active MTU (max_mtu is IB_MTU_4096)
 * @gid_tbl_len: GID table length (1..FAKE_HCA_MAX_TBL_LEN)
 * @gids: initial GID table of an IB port, @num_gids entries, the rest
 *	zero; NULL gives GID 0 = fe80::(node_guid + port number)
 * @num_gids: entries in @gids
 * @pkey_tbl_len: P_Key table length (1..FAKE_HCA_MAX_TBL_LEN)
 * @pkeys: initial P_Key table, @num_pkeys entries, the rest zero; NULL
 *	gives the default P_Key 0xffff at index 0
 * @num_pkeys: entries in @pkeys
 * @netdev: Ethernet port: bind this net device (the caller keeps
 *	ownership and must keep it registered until the fake is destroyed)
 *	instead of creating one
 * @netdev_name: Ethernet port: name or name template of the net device
 *	the fake creates; NULL means "fkhca%d"
 * @mac: Ethernet port: MAC address of the created net device; all zero
 *	gives a random one
 * @no_netdev: Ethernet port without any net device
 * @roce_v1: Ethernet port: speaks RoCE v1 (IB/RoCE v1 GIDs) besides v2
 * @no_cm: the port has no connection manager (core_cap_flags without
 *	RDMA_CORE_CAP_IB_CM), as a port of an Ethernet NIC's raw QPs
 */
struct fake_hca_port_desc {
	enum rdma_link_layer	link_layer;
	enum ib_port_state	state;
	enum ib_port_phys_state	phys_state;
	u32			lid;
	u32			sm_lid;
	u8			lmc;
	u8			sm_sl;
	u32			port_cap_flags;
	u8			active_width;
	u16			active_speed;
	enum ib_mtu		active_mtu;
	int			gid_tbl_len;
	const union ib_gid	*gids;
	unsigned int		num_gids;
	int			pkey_tbl_len;
	const u16		*pkeys;
	unsigned int		num_pkeys;
	struct net_device	*netdev;
	const char		*netdev_name;
	u8			mac[ETH_ALEN];
	bool			no_netdev;
	bool			roce_v1;
	bool			no_cm;
};

/**
 * struct fake_hca_desc - what a fake device looks like
 * @name: name or name template given to ib_register_device(); NULL
 *	means "fake%d"
 * @num_ports: number of ports (1..FAKE_HCA_MAX_PORTS)
 * @port: the ports, @port[0] describing port 1
 * @node_guid: node GUID (host order)
 * @sys_image_guid: system image GUID (host order), reported by
 *	query_device
 * @fw_ver: firmware version string (get_dev_fw_str); NULL means no
 *	get_dev_fw_str op at all
 * @node_desc: node description
 * @hca_type: value of the driver's "hca_type" device attribute
 * @driver_id: ops.driver_id; 0 is RDMA_DRIVER_UNKNOWN
 * @dealloc_driver: provide ops.dealloc_driver, so the core frees the
 *	device itself after unregistration (needed for
 *	ib_unregister_driver(), ib_unregister_device_queued() and
 *	ib_unregister_device_and_put())
 * @no_kverbs: leave out the mandatory kernel verbs: the device is then
 *	not a kverbs provider
 * @allow_user_unreg: report IBK_ALLOW_USER_UNREG, so that user space may
 *	delete the device ("rdma link delete"); needs @dealloc_driver
 * @name_by_user: the name was chosen by user space
 *	(RDMA_NAME_ASSIGN_TYPE_USER in netlink)
 * @use_cq_dim: the device starts with adaptive CQ moderation on
 * @iwarp: an iWARP RNIC (fake_hca_desc_set_iwarp()) with the iw_* ops
 * @iw_driver_flags: ib_device.iw_driver_flags of an iWARP device
 * @hw_stats: hardware counters (enum fake_hca_stat) on the device and
 *	on every port, set with fake_hca_set_hw_stat()
 * @user_mmap: user contexts (so the device gets uverbsN), each with
 *	FAKE_HCA_UMAP_PAGES pages of "device memory" filled with
 *	FAKE_HCA_UMAP_BYTE, at page offset 0, which the mmap op maps with
 *	rdma_user_mmap_io() as a hardware driver maps its doorbells
 */
struct fake_hca_desc {
	const char		*name;
	u32			num_ports;
	struct fake_hca_port_desc port[FAKE_HCA_MAX_PORTS];
	u64			node_guid;
	u64			sys_image_guid;
	const char		*fw_ver;
	const char		*node_desc;
	const char		*hca_type;
	enum rdma_driver_id	driver_id;
	bool			dealloc_driver;
	bool			no_kverbs;
	bool			allow_user_unreg;
	bool			name_by_user;
	bool			use_cq_dim;
	bool			iwarp;
	u32			iw_driver_flags;
	bool			hw_stats;
	bool			user_mmap;
};

/* What a @user_mmap context offers at page offset 0 (fake_hca_user.c). */
#define FAKE_HCA_UMAP_PAGES	3
#define FAKE_HCA_UMAP_BYTE	0xa5

/**
 * enum fake_hca_stat - the hardware counters of a fake with @hw_stats
 * @FAKE_HCA_STAT_RX: "fake_rx_pkts"
 * @FAKE_HCA_STAT_TX: "fake_tx_pkts"
 * @FAKE_HCA_STAT_OPT: "fake_opt_drops", optional, off at first
 * @FAKE_HCA_NUM_STATS: their number
 */
enum fake_hca_stat {
	FAKE_HCA_STAT_RX,
	FAKE_HCA_STAT_TX,
	FAKE_HCA_STAT_OPT,
	FAKE_HCA_NUM_STATS
};

/**
 * enum fake_hca_op - driver ops the fake counts
 * @FAKE_HCA_OP_QUERY_DEVICE: ib_device_ops.query_device (can fail)
 * @FAKE_HCA_OP_QUERY_PORT: ib_device_ops.query_port (can fail)
 * @FAKE_HCA_OP_GET_PORT_IMMUTABLE: ib_device_ops.get_port_immutable (can
 *	fail)
 * @FAKE_HCA_OP_QUERY_GID: ib_device_ops.query_gid (can fail)
 * @FAKE_HCA_OP_QUERY_PKEY: ib_device_ops.query_pkey (can fail)
 * @FAKE_HCA_OP_ADD_GID: ib_device_ops.add_gid (can fail)
 * @FAKE_HCA_OP_DEL_GID: ib_device_ops.del_gid (can fail)
 * @FAKE_HCA_OP_MODIFY_DEVICE: ib_device_ops.modify_device (can fail)
 * @FAKE_HCA_OP_MODIFY_PORT: ib_device_ops.modify_port (can fail)
 * @FAKE_HCA_OP_ENABLE_DRIVER: ib_device_ops.enable_driver (can fail)
 * @FAKE_HCA_OP_GET_LINK_LAYER: ib_device_ops.get_link_layer (counted only)
 * @FAKE_HCA_OP_GET_DEV_FW_STR: ib_device_ops.get_dev_fw_str (counted only)
 * @FAKE_HCA_OP_DEALLOC_DRIVER: ib_device_ops.dealloc_driver (counted only)
 * @FAKE_HCA_OP_GET_HW_STATS: ib_device_ops.get_hw_stats (counted only)
 * @FAKE_HCA_OP_MODIFY_HW_STAT: ib_device_ops.modify_hw_stat (counted only)
 * @FAKE_HCA_OP_COUNT: number of counted ops, not an op
 * @FAKE_HCA_OP_ANY: for fake_hca_fail_nth(): the Nth call of any op that
 *	can fail
 *
 * The ops that can fail are made to with fake_hca_fail_nth(); they come
 * first, up to FAKE_HCA_OP_ENABLE_DRIVER (FAKE_HCA_NUM_FAILABLE_OPS).
 */
enum fake_hca_op {
	FAKE_HCA_OP_QUERY_DEVICE,
	FAKE_HCA_OP_QUERY_PORT,
	FAKE_HCA_OP_GET_PORT_IMMUTABLE,
	FAKE_HCA_OP_QUERY_GID,
	FAKE_HCA_OP_QUERY_PKEY,
	FAKE_HCA_OP_ADD_GID,
	FAKE_HCA_OP_DEL_GID,
	FAKE_HCA_OP_MODIFY_DEVICE,
	FAKE_HCA_OP_MODIFY_PORT,
	FAKE_HCA_OP_ENABLE_DRIVER,
	FAKE_HCA_OP_GET_LINK_LAYER,
	FAKE_HCA_OP_GET_DEV_FW_STR,
	FAKE_HCA_OP_DEALLOC_DRIVER,
	FAKE_HCA_OP_GET_HW_STATS,
	FAKE_HCA_OP_MODIFY_HW_STAT,
	FAKE_HCA_OP_COUNT,
	FAKE_HCA_OP_ANY = FAKE_HCA_OP_COUNT,
};

#define FAKE_HCA_NUM_FAILABLE_OPS	(FAKE_HCA_OP_ENABLE_DRIVER + 1)

/**
 * struct fake_hca_hw_gid - a GID the core programmed into a RoCE port
 * @valid: the entry was added and not deleted since
 * @gid: the GID
 * @gid_type: its type
 * @ifindex: ifindex of the GID's net device, 0 if none
 */
struct fake_hca_hw_gid {
	bool			valid;
	union ib_gid		gid;
	enum ib_gid_type	gid_type;
	int			ifindex;
};

struct fake_hca_port;
struct fake_hca_iw;

/**
 * struct fake_hca - a fake device
 * @ibdev: the RDMA device; first, as ib_alloc_device() wants
 *
 * The other members are the fake's own; use the helpers below.
 */
struct fake_hca {
	struct ib_device	ibdev;
	/* private: */
	struct fake_hca_desc	desc;
	char			*name;
	char			fw_ver[IB_FW_VERSION_NAME_MAX];
	char			hca_type[32];
	spinlock_t		lock;	/* ports, counters and faults */
	struct fake_hca_port	*ports;
	unsigned int		calls[FAKE_HCA_OP_COUNT];
	unsigned int		fail_nth[FAKE_HCA_OP_COUNT + 1];
	int			fail_err[FAKE_HCA_OP_COUNT + 1];
	unsigned int		faults_fired;
	bool			registered;
	bool			released;
	bool			demo;
	struct list_head	list;
	struct fake_hca_iw	*iw;
	u64			hw_stats[FAKE_HCA_MAX_PORTS + 1][FAKE_HCA_NUM_STATS];
	bool			hw_stat_on[FAKE_HCA_MAX_PORTS + 1];
};

static inline struct fake_hca *to_fake_hca(struct ib_device *ibdev)
{
	return container_of(ibdev, struct fake_hca, ibdev);
}

/* Descriptions */
void fake_hca_desc_init(struct fake_hca_desc *desc, u32 num_ports);
void fake_hca_desc_set_ib(struct fake_hca_desc *desc, u32 port);
void fake_hca_desc_set_eth(struct fake_hca_desc *desc, u32 port);

/* Life cycle */
struct fake_hca *fake_hca_create(const struct fake_hca_desc *desc);
int fake_hca_register(struct fake_hca *hca);
int fake_hca_register_as(struct fake_hca *hca, const char *name);
void fake_hca_unregister(struct fake_hca *hca);
void fake_hca_destroy(struct fake_hca *hca);
struct fake_hca *fake_hca_create_registered(const struct fake_hca_desc *desc);

/* KUnit: the device is destroyed when the test ends, unless released */
struct fake_hca *fake_hca_kunit_create(struct kunit *test,
				       const struct fake_hca_desc *desc);
struct fake_hca *fake_hca_kunit_create_registered(struct kunit *test,
						  const struct fake_hca_desc *desc);
void fake_hca_kunit_destroy(struct kunit *test, struct fake_hca *hca);
void fake_hca_kunit_forget(struct kunit *test, struct fake_hca *hca);
void fake_hca_kunit_add_action(struct kunit *test, void (*action)(void *),
			       void *ctx);

/* The "hardware": change it, then tell the core like a real driver */
int fake_hca_set_pkey(struct fake_hca *hca, u32 port, u16 index, u16 pkey);
int fake_hca_set_gid(struct fake_hca *hca, u32 port, int index,
		     const union ib_gid *gid);
int fake_hca_set_lid(struct fake_hca *hca, u32 port, u32 lid, u8 lmc);
int fake_hca_set_sm(struct fake_hca *hca, u32 port, u32 sm_lid, u8 sm_sl);
int fake_hca_set_port_state(struct fake_hca *hca, u32 port,
			    enum ib_port_state state,
			    enum ib_port_phys_state phys_state);
void fake_hca_dispatch_port_event(struct fake_hca *hca, u32 port,
				  enum ib_event_type type);
int fake_hca_set_hw_stat(struct fake_hca *hca, u32 port,
			 enum fake_hca_stat stat, u64 value);
bool fake_hca_hw_stat_on(struct fake_hca *hca, u32 port);

/* What the core programmed into a RoCE port */
bool fake_hca_hw_gid(struct fake_hca *hca, u32 port, unsigned int index,
		     struct fake_hca_hw_gid *out);
unsigned int fake_hca_hw_gid_count(struct fake_hca *hca, u32 port);
struct net_device *fake_hca_netdev(struct fake_hca *hca, u32 port);

/* Fault injection and call counters */
const char *fake_hca_op_name(enum fake_hca_op op);
void fake_hca_fail_nth(struct fake_hca *hca, enum fake_hca_op op,
		       unsigned int nth, int err);
void fake_hca_clear_faults(struct fake_hca *hca);
unsigned int fake_hca_op_calls(struct fake_hca *hca, enum fake_hca_op op);
unsigned int fake_hca_faults_fired(struct fake_hca *hca);
void fake_hca_reset_calls(struct fake_hca *hca);

/*
 * Driver ids for test devices: ib_unregister_driver() on one of these
 * touches no real driver's devices.  Values outside the uapi enum.
 */
#define FAKE_HCA_TEST_DRIVER_ID(n)	((enum rdma_driver_id)(0x4000 + (n)))

/*
 * Link type "fake": "rdma link add NAME type fake netdev DEV" creates a
 * device with one RoCE port bound to DEV, that user space may delete
 * again.  Such devices have this driver id, node and system image GUID
 * the EUI-64 of DEV's MAC address, no firmware version, and go away
 * with DEV or with the module.
 */
#define FAKE_HCA_LINK_TYPE		"fake"
#define FAKE_HCA_LINK_DRIVER_ID		FAKE_HCA_TEST_DRIVER_ID(0x3fff)

/* The description "rdma link add" uses, for tests that compare. */
void fake_hca_link_desc(struct fake_hca_desc *desc, struct net_device *ndev);

/* KUnit: fake_hca_desc_init() on test-managed memory, or NULL */
struct fake_hca_desc *fake_hca_kunit_desc(struct kunit *test, u32 num_ports);

/* KUnit: a net device of the test, freed when it ends */
struct net_device *fake_hca_kunit_netdev(struct kunit *test, const u8 *mac);

/* The same net device for a suite's shared bed, and its end */
struct net_device *fake_hca_netdev_new(const u8 *mac);
void fake_hca_netdev_free(struct net_device *ndev);

/*
 * fake_hca_netdev_new() up and with ARP (the fake's are NOARP), for a
 * suite's bed: 0 or an error; *@ndev is set once the device exists.
 */
static inline int fake_hca_netdev_new_arp(struct net_device **ndev,
					  const u8 *mac)
{
	struct net_device *nd = fake_hca_netdev_new(mac);
	int ret;

	if (IS_ERR(nd))
		return PTR_ERR(nd);
	*ndev = nd;
	rtnl_lock();
	ret = dev_change_flags(nd, (nd->flags | IFF_UP) & ~IFF_NOARP, NULL);
	rtnl_unlock();
	return ret;
}

/*
 * ib_device_try_get() and, if it worked, ib_device_put() at once: for
 * tests that expect it to fail, so that a core bug costs a failed
 * expectation and not a leaked reference that hangs unregistration.
 */
bool fake_hca_try_get_put(struct ib_device *ibdev);

/* KUnit: is /sys/class/infiniband/<name> there? */
bool fake_hca_sysfs_present(const char *name);

#define FAKE_HCA_EVENT_LOG_LEN	32

/**
 * struct fake_hca_event_log - an event handler that records what it gets
 * @handler: registered on the device
 * @lock: protects the rest
 * @wq: woken for every event
 * @count: events received so far (also beyond the log's length)
 * @events: the first FAKE_HCA_EVENT_LOG_LEN events, in order
 */
struct fake_hca_event_log {
	struct ib_event_handler	handler;
	spinlock_t		lock;	/* count and events */
	wait_queue_head_t	wq;
	unsigned int		count;
	struct ib_event		events[FAKE_HCA_EVENT_LOG_LEN];
};

struct fake_hca_event_log *fake_hca_kunit_event_log(struct kunit *test,
						    struct ib_device *ibdev);
void fake_hca_kunit_event_log_release(struct kunit *test,
				      struct fake_hca_event_log *log);
bool fake_hca_event_wait(struct fake_hca_event_log *log, unsigned int count,
			 unsigned int timeout_ms);
unsigned int fake_hca_event_count(struct fake_hca_event_log *log);

/**
 * struct fake_hca_failslab - failslab's knobs (fake_hca_kunit_failslab())
 * @times: failslab's "times"
 * @space: "space"
 * @probability: "probability"
 * @interval: "interval"
 * @verbose: "verbose"
 * @task_filter: "task-filter"
 * @ignore_gfp_wait: "ignore-gfp-wait"
 * @old_times: value found, put back when the test ends
 * @old_space: likewise
 * @old_probability: likewise
 * @old_interval: likewise
 * @old_verbose: likewise
 * @old_task_filter: likewise
 * @old_ignore_gfp_wait: likewise
 */
struct fake_hca_failslab {
	atomic_t	*times;
	atomic_t	*space;
	unsigned long	*probability;
	unsigned long	*interval;
	unsigned long	*verbose;
	bool		*task_filter;
	bool		*ignore_gfp_wait;
	/* the values found, put back when the test ends */
	int		old_times, old_space;
	unsigned long	old_probability, old_interval, old_verbose;
	bool		old_task_filter, old_ignore_gfp_wait;
};

/* KUnit: failslab for fail-nth (needs CONFIG_FAILSLAB and its debugfs) */
struct fake_hca_failslab *fake_hca_kunit_failslab(struct kunit *test);
void fake_hca_failslab_disarm(void);

/*
 * The iWARP flavour (tools/testing/rdma/fake_hca/fake_hca_iwarp.c): an RNIC
 * with the iw_* ops of the iWARP connection manager, recorded and controllable.
 */
struct iw_cm_id;
struct iw_cm_event;

/**
 * enum fake_hca_iw_op - iw ops the fake records
 * @FAKE_HCA_IW_CONNECT: ib_device_ops.iw_connect
 * @FAKE_HCA_IW_ACCEPT: ib_device_ops.iw_accept
 * @FAKE_HCA_IW_REJECT: ib_device_ops.iw_reject
 * @FAKE_HCA_IW_CREATE_LISTEN: ib_device_ops.iw_create_listen
 * @FAKE_HCA_IW_DESTROY_LISTEN: ib_device_ops.iw_destroy_listen
 * @FAKE_HCA_IW_GET_QP: ib_device_ops.iw_get_qp
 * @FAKE_HCA_IW_OP_COUNT: number of recorded ops, not an op
 */
enum fake_hca_iw_op {
	FAKE_HCA_IW_CONNECT,
	FAKE_HCA_IW_ACCEPT,
	FAKE_HCA_IW_REJECT,
	FAKE_HCA_IW_CREATE_LISTEN,
	FAKE_HCA_IW_DESTROY_LISTEN,
	FAKE_HCA_IW_GET_QP,
	FAKE_HCA_IW_OP_COUNT
};

#define FAKE_HCA_IW_MAX_QPS	8
#define FAKE_HCA_IW_PDATA_MAX	512

/**
 * struct fake_hca_iw_call - what one call of an iw op got
 * @cm_id: the id (NULL for get_qp)
 * @err: what the call returned (a failure the test asked for, or 0)
 * @backlog: create_listen's backlog
 * @qpn: connect/accept: the QP number; get_qp: the number asked
 * @ord: connect/accept: ord
 * @ird: connect/accept: ird
 * @provider_data: the id's provider_data at the call
 * @local: the id's m_local_addr at the call (what goes on the wire)
 * @remote: the id's m_remote_addr at the call
 * @pdata_len: private data length (connect, accept, reject)
 * @pdata: the private data
 */
struct fake_hca_iw_call {
	struct iw_cm_id		*cm_id;
	int			err;
	int			backlog;
	u32			qpn;
	u32			ord;
	u32			ird;
	void			*provider_data;
	struct sockaddr_storage	local;
	struct sockaddr_storage	remote;
	u16			pdata_len;
	u8			pdata[FAKE_HCA_IW_PDATA_MAX];
};

void fake_hca_desc_set_iwarp(struct fake_hca_desc *desc);
struct ib_qp *fake_hca_iw_add_qp(struct fake_hca *hca, u32 qpn);
enum ib_qp_state fake_hca_iw_qp_info(struct fake_hca *hca, u32 qpn,
				     int *refs, unsigned int *moves);
void fake_hca_iw_fail(struct fake_hca *hca, enum fake_hca_iw_op op, int err);
unsigned int fake_hca_iw_calls(struct fake_hca *hca, enum fake_hca_iw_op op);
bool fake_hca_iw_last(struct fake_hca *hca, enum fake_hca_iw_op op,
		      struct fake_hca_iw_call *out);
unsigned int fake_hca_iw_held(struct fake_hca *hca, struct iw_cm_id *cm_id);
bool fake_hca_iw_put_id(struct fake_hca *hca, struct iw_cm_id *cm_id);
int fake_hca_iw_event(struct iw_cm_id *cm_id, struct iw_cm_event *ev);

#endif /* KUNIT_RDMA_FAKE_HCA_H */
