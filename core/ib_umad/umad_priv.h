/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ib_umad: management datagrams (MADs) for user space through
 * /dev/infiniband/umadN, and the IsSM bit through /dev/infiniband/issmN.
 *
 *   umad_main.c   the module, the ib_client, device numbers, the class
 *                 "infiniband_mad" and its sysfs attributes, creation
 *                 and removal of a port's character devices
 *   umad_file.c   open, release, read and poll of umadN; the MAD
 *                 layer's send and receive handlers that fill a file's
 *                 queue
 *   umad_send.c   write() of umadN: the user's MAD onto the wire
 *   umad_agent.c  the ioctls (agents, P_Key index mode, 32-bit compat)
 *   umad_sm.c     issmN
 *   umad_nl.c     nldev GET_CHARDEV: clients "umad" and "issm"
 *
 * Lock order (outermost first):
 *   ib_umad_port.file_mutex   the port's file list and ->ib_dev; held
 *                             around registration and unregistration
 *                             of agents
 *     ib_umad_file.mutex      the file's agents and its receive queue
 *       ib_umad_file.send_lock  the file's sends in flight
 * The MAD layer calls our handlers with none of these held; they take
 * file.mutex (receive queue) and send_lock only.
 */
#ifndef RDMA_CORE_UMAD_PRIV_H
#define RDMA_CORE_UMAD_PRIV_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_user_mad.h>

enum {
	/* ports ib_core allows a device (upstream's RDMA_MAX_PORTS) */
	IB_UMAD_MAX_PORTS = 8192,
	IB_UMAD_MAX_AGENTS = 32,

	IB_UMAD_MAJOR = 231,
	IB_UMAD_MINOR_BASE = 0,
	/* umad0..63 and issm0..63 use 231:0..127; the rest are dynamic */
	IB_UMAD_NUM_FIXED_MINOR = 64,
	IB_UMAD_NUM_DYNAMIC_MINOR = IB_UMAD_MAX_PORTS - IB_UMAD_NUM_FIXED_MINOR,
	IB_ISSM_MINOR_BASE = IB_UMAD_NUM_FIXED_MINOR,
};

/* Received MADs a file may hold before new ones are dropped. */
#define IB_UMAD_MAX_RECV_QUEUE	200000

struct ib_umad_device;

/**
 * struct ib_umad_port - the character devices of one port
 * @cdev: umadN
 * @dev: umadN's device (class infiniband_mad)
 * @sm_cdev: issmN
 * @sm_dev: issmN's device
 * @sm_sem: held by the one opener of issmN
 * @file_mutex: protects @file_list and @ib_dev
 * @file_list: open umadN files
 * @ib_dev: the device; NULL once it is being removed
 * @umad_dev: the device's set of ports (holds the memory)
 * @dev_num: N of umadN and issmN
 * @port_num: the port
 * @has_smi: issmN exists (the port has QP0)
 */
struct ib_umad_port {
	struct cdev		cdev;
	struct device		dev;
	struct cdev		sm_cdev;
	struct device		sm_dev;
	struct semaphore	sm_sem;
	struct mutex		file_mutex;	/* see above */
	struct list_head	file_list;
	struct ib_device	*ib_dev;
	struct ib_umad_device	*umad_dev;
	int			dev_num;
	u32			port_num;
	bool			has_smi;
};

/**
 * struct ib_umad_device - ib_umad's client data of an ib_device
 * @kref: the client's reference and one per registered struct device
 *	of a port (which open files keep through their cdev)
 * @ports: one per port of the device, in port order
 */
struct ib_umad_device {
	struct kref		kref;
	struct ib_umad_port	ports[];
};

/**
 * struct ib_umad_file - an open umadN
 * @mutex: protects @agent, @agents_dead, @recv_list and the P_Key flags
 * @port: the port
 * @recv_list: packets read() returns, oldest first
 * @recv_list_size: length of @recv_list
 * @send_list: sends posted and not completed (duplicate check)
 * @port_list: on the port's file list
 * @send_lock: protects @send_list
 * @recv_wait: readers and pollers wait here
 * @agent: registered agents by id
 * @agents_dead: closing or device gone: @agent holds stale pointers
 * @use_pkey_index: headers are struct ib_user_mad_hdr (else _old)
 * @already_used: an agent was registered once: the header format is
 *	fixed
 */
struct ib_umad_file {
	struct mutex		mutex;	/* see above */
	struct ib_umad_port	*port;
	struct list_head	recv_list;
	atomic_t		recv_list_size;
	struct list_head	send_list;
	struct list_head	port_list;
	spinlock_t		send_lock;	/* see above */
	wait_queue_head_t	recv_wait;
	struct ib_mad_agent	*agent[IB_UMAD_MAX_AGENTS];
	bool			agents_dead;
	bool			use_pkey_index;
	bool			already_used;
};

/**
 * struct ib_umad_packet - a send in flight or something for read()
 * @msg: the send buffer (sends)
 * @recv_wc: the received MAD (receives), NULL for a returned send
 * @list: on the file's send_list or recv_list
 * @length: bytes of MAD read() gives after the header
 * @mad: the user header and, for sends, the MAD's first
 *	IB_MGMT_RMPP_HDR bytes (allocated behind the packet)
 */
struct ib_umad_packet {
	struct ib_mad_send_buf	*msg;
	struct ib_mad_recv_wc	*recv_wc;
	struct list_head	list;
	int			length;
	struct ib_user_mad	mad;
};

/* The header size user space reads and writes on @file. */
static inline size_t umad_hdr_size(const struct ib_umad_file *file)
{
	return file->use_pkey_index ? sizeof(struct ib_user_mad_hdr) :
				      sizeof(struct ib_user_mad_hdr_old);
}

/* The agent of @id, or NULL; under file->mutex. */
static inline struct ib_mad_agent *umad_agent(struct ib_umad_file *file,
					      unsigned int id)
{
	return file->agents_dead ? NULL : file->agent[id];
}

/* umad_file.c */
extern const struct file_operations umad_fops;
void umad_send_handler(struct ib_mad_agent *agent,
		       struct ib_mad_send_wc *send_wc);
void umad_recv_handler(struct ib_mad_agent *agent,
		       struct ib_mad_send_buf *send_buf,
		       struct ib_mad_recv_wc *mad_recv_wc);
void umad_dequeue_send(struct ib_umad_file *file,
		       struct ib_umad_packet *packet);

/* umad_send.c */
ssize_t umad_write(struct file *filp, const char __user *buf, size_t count,
		   loff_t *pos);
#if IS_ENABLED(CONFIG_KUNIT)
bool umad_is_duplicate(struct ib_umad_file *file,
		       const struct ib_umad_packet *packet);
struct ib_ah *umad_create_ah(struct ib_umad_file *file,
			     struct ib_mad_agent *agent,
			     const struct ib_user_mad_hdr *hdr);
#endif

/* umad_agent.c */
long umad_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
long umad_compat_ioctl(struct file *filp, unsigned int cmd,
		       unsigned long arg);

/* umad_sm.c */
extern const struct file_operations umad_sm_fops;

/* umad_main.c: the client that owns the ports (client "umad") */
extern struct ib_client umad_client;

/* umad_nl.c */
struct ib_client_nl_info;
int umad_get_nl_info(struct ib_device *ibdev, void *client_data,
		     struct ib_client_nl_info *res);
/* client "issm": registered after umad_client, unregistered before */
extern struct ib_client umad_issm_client;

#endif /* RDMA_CORE_UMAD_PRIV_H */
