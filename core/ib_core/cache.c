// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The GID and P_Key cache of every port.
 *
 * Each port has a GID table (struct ib_gid_table) and a P_Key table
 * (struct ib_pkey_cache); its LMC, state and subnet prefix are cached
 * next to them in ib_port_data.cache.  Lookups never call the driver.
 *
 * A GID table is one of two kinds:
 *
 *  - driver-owned (InfiniBand, OPA, iWARP): the cache is a copy of what
 *    ops.query_gid returns, made at registration and again on GID_CHANGE
 *    and CLIENT_REREGISTER events.  A zero GID is an empty slot.
 *
 *  - core-managed (RoCE): the core decides what is in the table and tells
 *    the hardware with ops.add_gid/del_gid (when the driver has them).
 *    The first slots are reserved for the default GIDs, one per RoCE
 *    version the port speaks, made from the MAC address of the port's net
 *    device (fe80::/64 with the modified EUI-64 interface identifier).
 *    Further GIDs come and go with ib_cache_gid_add/del.
 *
 * Entries are reference counted.  The table holds one reference on every
 * valid entry; lookups hand out more.  Deleting an entry marks it
 * deleted, tells the driver, and drops the table's reference; whoever
 * still holds the entry may keep reading it (its ndev then reads as NULL)
 * until the last rdma_put_gid_attr() frees it.  In a RoCE table the slot
 * stays taken until then, so a hardware GID index still used by a QP or an
 * AH is not handed out again; in a driver-owned table the slot is free at
 * once, because the driver decides what is at each index.
 *
 * The net device of an entry is held by the entry while it is valid and
 * released one RCU grace period after the entry is deleted, so readers of
 * gid_attr->ndev under rcu_read_lock() are safe.  Deletions are batched:
 * every path that deletes collects the references and drops them after a
 * single synchronize_rcu(), outside all locks.  No RCU callback and no
 * work item outlives the call that deleted, so nothing is left pending
 * when the module goes away.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/lockdep.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"

/**
 * struct ib_pkey_cache - a port's P_Key table
 * @table_len: number of entries
 * @table: the P_Keys, by index
 *
 * Never changed once published: a refresh builds a new table and swaps
 * the pointer under ib_device.cache_lock.
 */
struct ib_pkey_cache {
	int	table_len;
	u16	table[] __counted_by(table_len);
};

enum gid_entry_state {
	GID_ENTRY_NEW,		/* allocated, not yet in the table */
	GID_ENTRY_VALID,	/* in the table, found by lookups */
	GID_ENTRY_DELETED,	/* deleted, alive while references remain */
};

/*
 * The reference an entry holds on its net device.  Allocated with the
 * entry so that deleting never needs memory; on deletion it moves to the
 * caller's batch and is dropped after a grace period.
 */
struct gid_ndev_ref {
	struct list_head	list;
	struct net_device	*ndev;
	netdevice_tracker	tracker;
};

/**
 * struct ib_gid_table_entry - one GID of a port, as handed out to users
 * @kref: references: the table's while valid, plus every user's
 * @table: the table the entry belongs to
 * @attr: what users see; rdma_put_gid_attr() finds the entry from it
 * @context: the driver's context from ops.add_gid
 * @ndev_ref: the net device reference while the entry is valid
 * @state: see enum gid_entry_state; changed under the table's rwlock
 */
struct ib_gid_table_entry {
	struct kref		kref;
	struct ib_gid_table	*table;
	struct ib_gid_attr	attr;
	void			*context;
	struct gid_ndev_ref	*ndev_ref;
	enum gid_entry_state	state;
};

/**
 * struct ib_gid_table - the GID table of a port
 * @lock: serialises writers (add, delete, refresh, cleanup); they may
 *	sleep (driver calls).  Taken before @rwlock, and after
 *	roce_gid_mgmt.c's roce_devs_lock by the GID work items.
 * @rwlock: protects the @data_vec pointers and the entries' state.
 *	Writers hold @lock and take it for write with interrupts off;
 *	readers take it for read from any context.  The last put of a
 *	deleted entry takes it for write, without @lock, to free the slot.
 * @sz: number of slots (the port's immutable gid_tbl_len)
 * @default_gid_indices: bit n set: slot n is reserved for a default GID
 * @dead: set under @lock by cleanup; nothing is added afterwards
 * @data_vec: the slots; NULL is free
 *
 * A writer holding @lock may use a VALID entry without @rwlock: only a
 * writer can delete it, and the table's reference keeps it alive.  An
 * entry that is not VALID may be freed at any moment by its last put, so
 * it is only looked at under @rwlock.
 */
struct ib_gid_table {
	struct mutex		lock;	/* serialises writers, see above */
	rwlock_t		rwlock;
	u32			sz;
	unsigned long		default_gid_indices;
	bool			dead;
	struct ib_gid_table_entry *data_vec[] __counted_by(sz);
};

/* What a lookup compares; see struct gid_key. */
#define GID_MATCH_GID		BIT(0)
#define GID_MATCH_TYPE		BIT(1)
#define GID_MATCH_NDEV		BIT(2)
#define GID_MATCH_DEFAULT	BIT(3)

/**
 * struct gid_key - what to look for in a GID table
 * @gid: the GID (GID_MATCH_GID)
 * @gid_type: the type (GID_MATCH_TYPE)
 * @ndev: the net device, compared as a pointer (GID_MATCH_NDEV)
 * @is_default: in a default slot or not (GID_MATCH_DEFAULT)
 * @match: GID_MATCH_* bits: which of the above count
 */
struct gid_key {
	const union ib_gid	*gid;
	enum ib_gid_type	gid_type;
	const struct net_device	*ndev;
	bool			is_default;
	unsigned int		match;
};

static const char *const gid_type_names[IB_GID_TYPE_SIZE] = {
	/* IB and RoCE v1 share a name: user space knows only that one. */
	[IB_GID_TYPE_IB]		= "IB/RoCE v1",
	[IB_GID_TYPE_ROCE]		= "IB/RoCE v1",
	[IB_GID_TYPE_ROCE_UDP_ENCAP]	= "RoCE v2",
};

/**
 * ib_cache_gid_type_str - the name of a GID type, as sysfs shows it
 * @gid_type: the type
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: a constant string; "Invalid GID type" for an unknown type.
 */
const char *ib_cache_gid_type_str(enum ib_gid_type gid_type)
{
	if ((unsigned int)gid_type < ARRAY_SIZE(gid_type_names) &&
	    gid_type_names[gid_type])
		return gid_type_names[gid_type];
	return "Invalid GID type";
}
EXPORT_SYMBOL(ib_cache_gid_type_str);

/**
 * ib_cache_gid_parse_type_str - parse a GID type name
 * @buf: a name as ib_cache_gid_type_str() returns it, optionally followed
 *	by a newline
 *
 * "IB/RoCE v1" parses as IB_GID_TYPE_IB, the first type of that name.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the enum ib_gid_type value, or -EINVAL.
 */
int ib_cache_gid_parse_type_str(const char *buf)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gid_type_names); i++)
		if (gid_type_names[i] && sysfs_streq(buf, gid_type_names[i]))
			return i;
	return -EINVAL;
}
EXPORT_SYMBOL(ib_cache_gid_parse_type_str);

/**
 * rdma_is_zero_gid - whether a GID is all zeroes
 * @gid: the GID
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: true for ::, the GID of an empty table slot.
 */
bool rdma_is_zero_gid(const union ib_gid *gid)
{
	return !memcmp(gid, &zgid, sizeof(*gid));
}
EXPORT_SYMBOL(rdma_is_zero_gid);

static struct ib_gid_table *port_gid_table(struct ib_device *device, u32 port)
{
	return device->port_data[port].cache.gid;
}

static bool gid_index_is_default(const struct ib_gid_table *table, u32 ix)
{
	return ix < BITS_PER_LONG && test_bit(ix, &table->default_gid_indices);
}

static void gid_change_event(struct ib_device *device, u32 port)
{
	struct ib_event event = {
		.device = device,
		.element.port_num = port,
		.event = IB_EVENT_GID_CHANGE,
	};

	ib_dispatch_event(&event);
}

/* ------------------------------------------------------------------
 * Entries
 */

/* Drop the net device references of deleted entries; may sleep. */
static void gid_ndev_refs_drop(struct list_head *drop)
{
	struct gid_ndev_ref *ref, *tmp;

	if (list_empty(drop))
		return;

	/* Readers of gid_attr->ndev under RCU are done after this. */
	synchronize_rcu();
	list_for_each_entry_safe(ref, tmp, drop, list) {
		list_del(&ref->list);
		netdev_put(ref->ndev, &ref->tracker);
		kfree(ref);
	}
}

static struct ib_gid_table_entry *
gid_entry_alloc(struct ib_device *device, u32 port, struct ib_gid_table *table,
		u32 ix, const union ib_gid *gid, enum ib_gid_type gid_type,
		struct net_device *ndev)
{
	struct ib_gid_table_entry *entry;

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return NULL;

	if (ndev) {
		entry->ndev_ref = kzalloc(sizeof(*entry->ndev_ref), GFP_KERNEL);
		if (!entry->ndev_ref) {
			kfree(entry);
			return NULL;
		}
		netdev_hold(ndev, &entry->ndev_ref->tracker, GFP_KERNEL);
		entry->ndev_ref->ndev = ndev;
	}

	kref_init(&entry->kref);
	entry->table = table;
	entry->state = GID_ENTRY_NEW;
	entry->attr.device = device;
	entry->attr.port_num = port;
	entry->attr.index = ix;
	entry->attr.gid = *gid;
	entry->attr.gid_type = gid_type;
	RCU_INIT_POINTER(entry->attr.ndev, ndev);
	return entry;
}

/*
 * The last reference is gone.  May run in any context: it takes only the
 * table's rwlock.  A deleted entry gave its net device reference away at
 * deletion; one that never made it into the table still has it, and
 * nobody can have seen it, so it is dropped at once.
 */
static void gid_entry_release(struct kref *kref)
{
	struct ib_gid_table_entry *entry =
		container_of(kref, struct ib_gid_table_entry, kref);
	struct ib_gid_table *table = entry->table;
	unsigned long flags;

	write_lock_irqsave(&table->rwlock, flags);
	if (table->data_vec[entry->attr.index] == entry)
		table->data_vec[entry->attr.index] = NULL;
	write_unlock_irqrestore(&table->rwlock, flags);

	if (entry->ndev_ref) {
		netdev_put(entry->ndev_ref->ndev, &entry->ndev_ref->tracker);
		kfree(entry->ndev_ref);
	}
	kfree(entry);
}

static void gid_entry_put(struct ib_gid_table_entry *entry)
{
	kref_put(&entry->kref, gid_entry_release);
}

/* The valid entry in slot @ix or NULL.  table->lock held. */
static struct ib_gid_table_entry *gid_table_valid_entry(struct ib_gid_table *table,
							u32 ix)
{
	struct ib_gid_table_entry *entry;

	lockdep_assert_held(&table->lock);

	read_lock_irq(&table->rwlock);
	entry = table->data_vec[ix];
	if (entry && entry->state != GID_ENTRY_VALID)
		entry = NULL;
	read_unlock_irq(&table->rwlock);
	return entry;
}

/* The first valid entry matching @key, or -1.  table->rwlock held. */
static int gid_table_find(const struct ib_gid_table *table,
			  const struct gid_key *key)
{
	u32 ix;

	for (ix = 0; ix < table->sz; ix++) {
		const struct ib_gid_table_entry *entry = table->data_vec[ix];

		if (!entry || entry->state != GID_ENTRY_VALID)
			continue;
		if ((key->match & GID_MATCH_GID) &&
		    memcmp(key->gid, &entry->attr.gid, sizeof(*key->gid)))
			continue;
		if ((key->match & GID_MATCH_TYPE) &&
		    entry->attr.gid_type != key->gid_type)
			continue;
		if ((key->match & GID_MATCH_NDEV) &&
		    rcu_access_pointer(entry->attr.ndev) != key->ndev)
			continue;
		if ((key->match & GID_MATCH_DEFAULT) &&
		    gid_index_is_default(table, ix) != key->is_default)
			continue;
		return ix;
	}
	return -1;
}

/* A free slot of the wanted kind, or -1.  table->rwlock held. */
static int gid_table_free_slot(const struct ib_gid_table *table,
			       bool is_default)
{
	u32 ix;

	for (ix = 0; ix < table->sz; ix++)
		if (!table->data_vec[ix] &&
		    gid_index_is_default(table, ix) == is_default)
			return ix;
	return -1;
}

/*
 * Put a new entry for @gid into the free slot @ix, telling the driver
 * first for a RoCE port.  table->lock held.
 */
static int gid_table_add(struct ib_device *device, u32 port,
			 struct ib_gid_table *table, u32 ix,
			 const union ib_gid *gid, enum ib_gid_type gid_type,
			 struct net_device *ndev)
{
	struct ib_gid_table_entry *entry;
	int ret;

	lockdep_assert_held(&table->lock);

	if (rdma_protocol_roce(device, port) && !ndev)
		return -EINVAL;

	entry = gid_entry_alloc(device, port, table, ix, gid, gid_type, ndev);
	if (!entry)
		return -ENOMEM;

	if (rdma_cap_roce_gid_table(device, port)) {
		ret = device->ops.add_gid(&entry->attr, &entry->context);
		if (ret) {
			dev_warn(&device->dev,
				 "port %u: driver refused GID %pI6 at index %u: %d\n",
				 port, gid->raw, ix, ret);
			gid_entry_put(entry);
			return ret;
		}
	}

	dev_dbg(&device->dev, "port %u: GID %pI6 added at index %u\n",
		port, gid->raw, ix);

	write_lock_irq(&table->rwlock);
	entry->state = GID_ENTRY_VALID;
	table->data_vec[ix] = entry;
	write_unlock_irq(&table->rwlock);
	return 0;
}

/*
 * Delete the valid entry in slot @ix.  Its net device reference goes to
 * @drop; the caller drops the batch with gid_ndev_refs_drop() after
 * releasing table->lock.
 */
static void gid_table_del(struct ib_device *device, u32 port,
			  struct ib_gid_table *table, u32 ix,
			  struct list_head *drop)
{
	struct ib_gid_table_entry *entry = table->data_vec[ix];

	lockdep_assert_held(&table->lock);

	dev_dbg(&device->dev, "port %u: GID %pI6 deleted at index %u\n",
		port, entry->attr.gid.raw, ix);

	write_lock_irq(&table->rwlock);
	entry->state = GID_ENTRY_DELETED;
	if (!rdma_protocol_roce(device, port))
		table->data_vec[ix] = NULL;
	write_unlock_irq(&table->rwlock);

	/* The driver still sees the net device while it deletes. */
	if (rdma_cap_roce_gid_table(device, port))
		device->ops.del_gid(&entry->attr, &entry->context);

	if (entry->ndev_ref) {
		RCU_INIT_POINTER(entry->attr.ndev, NULL);
		list_add_tail(&entry->ndev_ref->list, drop);
		entry->ndev_ref = NULL;
	}

	/* The table's reference; users may still hold theirs. */
	gid_entry_put(entry);
}

/* Delete every valid entry and refuse additions from now on. */
static void gid_table_flush(struct ib_device *device, u32 port,
			    struct ib_gid_table *table, struct list_head *drop)
{
	u32 ix;

	mutex_lock(&table->lock);
	table->dead = true;
	for (ix = 0; ix < table->sz; ix++)
		if (gid_table_valid_entry(table, ix))
			gid_table_del(device, port, table, ix, drop);
	mutex_unlock(&table->lock);
}

/* ------------------------------------------------------------------
 * Driver-owned tables (IB, OPA, iWARP)
 */

/*
 * Make slot @ix hold @gid (the zero GID: nothing).  An entry that already
 * holds the same GID and net device is kept, so users holding it see no
 * change.  table->lock held.  Return: 1 if the slot changed, 0 if not, or
 * an error.
 */
static int gid_table_set(struct ib_device *device, u32 port,
			 struct ib_gid_table *table, u32 ix,
			 const union ib_gid *gid, struct net_device *ndev,
			 struct list_head *drop)
{
	struct ib_gid_table_entry *old = gid_table_valid_entry(table, ix);
	int ret;

	if (old) {
		if (!memcmp(&old->attr.gid, gid, sizeof(*gid)) &&
		    rcu_access_pointer(old->attr.ndev) == ndev)
			return 0;
		gid_table_del(device, port, table, ix, drop);
	}
	if (rdma_is_zero_gid(gid))
		return old ? 1 : 0;

	ret = gid_table_add(device, port, table, ix, gid, IB_GID_TYPE_IB, ndev);
	return ret ? ret : 1;
}

/*
 * Copy the first @len GIDs of a driver-owned table from the driver.  On
 * an iWARP port the entries carry the port's net device; without one the
 * port has no GIDs.  @prefix, when not NULL, receives the subnet prefix
 * of a non-zero GID 0.  Return: whether anything changed, or an error.
 */
static int gid_table_refresh(struct ib_device *device, u32 port, u32 len,
			     u64 *prefix)
{
	struct ib_gid_table *table = port_gid_table(device, port);
	struct net_device *ndev = NULL;
	bool changed = false;
	LIST_HEAD(drop);
	int ret = 0;
	u32 ix;

	if (!device->ops.query_gid)
		return 0;

	if (rdma_protocol_iwarp(device, port))
		ndev = ib_device_get_netdev(device, port);

	mutex_lock(&table->lock);
	if (table->dead)
		goto unlock;

	for (ix = 0; ix < min(len, table->sz); ix++) {
		union ib_gid gid = {};

		if (!rdma_protocol_iwarp(device, port) || ndev) {
			ret = device->ops.query_gid(device, port, ix, &gid);
			if (ret) {
				dev_warn(&device->dev,
					 "port %u: query_gid(%u) failed: %d\n",
					 port, ix, ret);
				break;
			}
		}

		if (ix == 0 && prefix && !rdma_is_zero_gid(&gid))
			*prefix = be64_to_cpu(gid.global.subnet_prefix);

		ret = gid_table_set(device, port, table, ix, &gid, ndev, &drop);
		if (ret < 0)
			break;
		changed |= ret;
		ret = 0;
	}
unlock:
	mutex_unlock(&table->lock);
	gid_ndev_refs_drop(&drop);
	dev_put(ndev);
	return ret ? ret : changed;
}

/* ------------------------------------------------------------------
 * Core-managed tables (RoCE)
 */

/*
 * Add @gid of @gid_type on @ndev unless it is there already; default
 * GIDs go to the reserved slots, others to the rest.  table->lock held.
 * Return: the index of the new entry, -EEXIST if it was there, or an
 * error.
 */
static int roce_gid_add_locked(struct ib_device *device, u32 port,
			       struct ib_gid_table *table,
			       const union ib_gid *gid,
			       enum ib_gid_type gid_type,
			       struct net_device *ndev, bool is_default)
{
	struct gid_key key = {
		.gid = gid,
		.gid_type = gid_type,
		.ndev = ndev,
		.is_default = is_default,
		.match = GID_MATCH_GID | GID_MATCH_TYPE | GID_MATCH_NDEV,
	};
	int found, slot, ret;

	if (is_default)
		key.match |= GID_MATCH_DEFAULT;

	read_lock_irq(&table->rwlock);
	found = gid_table_find(table, &key);
	slot = gid_table_free_slot(table, is_default);
	read_unlock_irq(&table->rwlock);

	if (found >= 0)
		return -EEXIST;
	if (slot < 0)
		return -ENOSPC;

	ret = gid_table_add(device, port, table, slot, gid, gid_type, ndev);
	return ret ? ret : slot;
}

/*
 * A port's net device is now @ndev (NULL: none): delete every entry of
 * another net device (the old one, VLANs and bonds over it), default GIDs
 * included.  The caller then scans the port for what belongs to @ndev.
 * table->lock held.
 */
static void roce_del_other_ndevs(struct ib_device *device, u32 port,
				 struct ib_gid_table *table,
				 struct net_device *ndev,
				 struct list_head *drop, bool *changed)
{
	u32 ix;

	for (ix = 0; ix < table->sz; ix++) {
		struct ib_gid_table_entry *entry =
			gid_table_valid_entry(table, ix);

		if (!entry || rcu_access_pointer(entry->attr.ndev) == ndev)
			continue;
		gid_table_del(device, port, table, ix, drop);
		*changed = true;
	}
}

/* The default GID of @ndev: fe80::/64 and the modified EUI-64 of its MAC. */
static bool make_default_gid(struct net_device *ndev, union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	gid->global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	return !addrconf_ifid_eui48(&gid->raw[8], ndev);
}

/**
 * ib_cache_gid_set_default_gid - add or delete the default GIDs of a net
 *	device
 * @ib_dev: the device
 * @port: a RoCE port
 * @ndev: the net device (the port's own, or a bonding master above it)
 * @gid_type_mask: BIT(enum ib_gid_type) of the types to add or delete;
 *	types the port does not speak are ignored
 * @mode: IB_CACHE_GID_DEFAULT_MODE_SET adds, for every type that has no
 *	default GID of @ndev yet, the GID made from @ndev's MAC address in
 *	a free default slot; IB_CACHE_GID_DEFAULT_MODE_DELETE deletes the
 *	default GIDs of @ndev of those types, whatever their value
 *
 * A GID_CHANGE event follows any change.  A default GID that finds no
 * free default slot (another net device's are there) is left out with a
 * warning.
 *
 * Context: Process context; sleeps. Takes the port GID table's mutex and
 * calls the driver's add_gid/del_gid under it.
 */
void ib_cache_gid_set_default_gid(struct ib_device *ib_dev, u32 port,
				  struct net_device *ndev,
				  unsigned long gid_type_mask,
				  enum ib_cache_gid_default_mode mode)
{
	struct gid_key key = {
		.ndev = ndev,
		.is_default = true,
		.match = GID_MATCH_TYPE | GID_MATCH_NDEV | GID_MATCH_DEFAULT,
	};
	struct ib_gid_table *table;
	bool changed = false;
	union ib_gid gid;
	unsigned int type;
	LIST_HEAD(drop);
	int ix, ret;

	if (!rdma_is_port_valid(ib_dev, port) ||
	    !rdma_protocol_roce(ib_dev, port))
		return;
	table = port_gid_table(ib_dev, port);
	if (!table)
		return;
	gid_type_mask &= roce_gid_type_mask_support(ib_dev, port);
	if (mode == IB_CACHE_GID_DEFAULT_MODE_SET &&
	    !make_default_gid(ndev, &gid))
		return;

	mutex_lock(&table->lock);
	if (table->dead)
		goto unlock;
	for_each_set_bit(type, &gid_type_mask, IB_GID_TYPE_SIZE) {
		key.gid_type = type;
		read_lock_irq(&table->rwlock);
		ix = gid_table_find(table, &key);
		read_unlock_irq(&table->rwlock);

		if (mode == IB_CACHE_GID_DEFAULT_MODE_DELETE) {
			if (ix >= 0) {
				gid_table_del(ib_dev, port, table, ix, &drop);
				changed = true;
			}
			continue;
		}
		if (ix >= 0)
			continue;
		ret = roce_gid_add_locked(ib_dev, port, table, &gid, type,
					  ndev, true);
		if (ret >= 0)
			changed = true;
		else if (ret != -EEXIST)
			ibdev_warn(ib_dev, "port %u: no default %s GID for %s: %d\n",
				   port, ib_cache_gid_type_str(type),
				   netdev_name(ndev), ret);
	}
unlock:
	mutex_unlock(&table->lock);
	gid_ndev_refs_drop(&drop);
	if (changed)
		gid_change_event(ib_dev, port);
}

/**
 * ib_cache_gid_del_all_netdev_gids - delete every GID of a net device
 * @ib_dev: the device
 * @port: a RoCE port
 * @ndev: the net device
 *
 * Default GIDs of @ndev go too.  A GID_CHANGE event follows any change.
 *
 * Context: Process context; sleeps. Takes the port GID table's mutex and
 * calls the driver's del_gid under it.
 *
 * Return: 0, or -EINVAL for a port that is not RoCE.
 */
int ib_cache_gid_del_all_netdev_gids(struct ib_device *ib_dev, u32 port,
				     struct net_device *ndev)
{
	struct ib_gid_table *table;
	bool changed = false;
	LIST_HEAD(drop);
	u32 ix;

	if (!rdma_is_port_valid(ib_dev, port) ||
	    !rdma_protocol_roce(ib_dev, port))
		return -EINVAL;
	table = port_gid_table(ib_dev, port);
	if (!table)
		return -EINVAL;

	mutex_lock(&table->lock);
	for (ix = 0; ix < table->sz; ix++) {
		struct ib_gid_table_entry *entry =
			gid_table_valid_entry(table, ix);

		if (!entry || rcu_access_pointer(entry->attr.ndev) != ndev)
			continue;
		gid_table_del(ib_dev, port, table, ix, &drop);
		changed = true;
	}
	mutex_unlock(&table->lock);
	gid_ndev_refs_drop(&drop);
	if (changed)
		gid_change_event(ib_dev, port);
	return 0;
}

static int __ib_cache_gid_add(struct ib_device *ib_dev, u32 port,
			      union ib_gid *gid, struct ib_gid_attr *attr)
{
	struct ib_gid_table *table = port_gid_table(ib_dev, port);
	struct net_device *ndev;
	int ret;

	/* The caller's own attr: no RCU involved. */
	ndev = rcu_dereference_protected(attr->ndev, true);

	mutex_lock(&table->lock);
	if (table->dead)
		ret = -ENODEV;
	else
		ret = roce_gid_add_locked(ib_dev, port, table, gid,
					  attr->gid_type, ndev, false);
	mutex_unlock(&table->lock);

	if (ret == -EEXIST)
		return 0;
	if (ret < 0)
		return ret;

	attr->device = ib_dev;
	attr->port_num = port;
	attr->index = ret;
	attr->gid = *gid;
	gid_change_event(ib_dev, port);
	return 0;
}

/**
 * ib_cache_gid_add - add a GID to a RoCE port's table
 * @ib_dev: the device
 * @port: the port, which must speak RoCE
 * @gid: the GID, not zero
 * @attr: its type (gid_type) and net device (ndev, required); on success
 *	device, port_num, index and gid are filled in
 *
 * Adding a GID that is already there (same type and net device) succeeds
 * without change.  Otherwise the GID goes to the first free slot that is
 * not reserved for a default GID, the driver's add_gid is called, and a
 * GID_CHANGE event is dispatched.  May sleep.
 *
 * Context: Process context; sleeps. Takes the port GID table's mutex, and
 * under it the table's rwlock for write (interrupts disabled) around slot
 * updates; the driver's add_gid op runs under the mutex. The GID_CHANGE event
 * is dispatched after the mutex is released.
 *
 * Return: 0, -EINVAL for a bad port, zero GID or missing net device,
 * -ENOSPC when the table is full, -ENODEV after cleanup, -ENOMEM, or the
 * driver's error.
 */
int ib_cache_gid_add(struct ib_device *ib_dev, u32 port, union ib_gid *gid,
		     struct ib_gid_attr *attr)
{
	int ret;

	if (!rdma_is_port_valid(ib_dev, port) ||
	    !rdma_protocol_roce(ib_dev, port) || rdma_is_zero_gid(gid))
		return -EINVAL;
	if (!port_gid_table(ib_dev, port))
		return -ENODEV;

	ret = __ib_cache_gid_add(ib_dev, port, gid, attr);
	if (ret)
		dev_warn_ratelimited(&ib_dev->dev,
				     "port %u: cannot add GID %pI6: %d\n",
				     port, gid->raw, ret);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ib_cache_gid_add);

/**
 * ib_cache_gid_del - delete a GID from a RoCE port's table
 * @ib_dev: the device
 * @port: the port, which must speak RoCE
 * @gid: the GID
 * @attr: its type (gid_type) and net device (ndev)
 *
 * Default GIDs are not deleted this way; they follow the port's net
 * device.  The driver's del_gid is called and a GID_CHANGE event is
 * dispatched; users holding the entry keep it until they put it.  May
 * sleep.
 *
 * Context: Process context; sleeps. Takes the port GID table's mutex, and
 * under it the table's rwlock; the driver's del_gid op runs under the mutex.
 * Net device references are dropped after one synchronize_rcu() with no lock
 * held, then the GID_CHANGE event is dispatched.
 *
 * Return: 0, or -EINVAL when no such (non-default) GID is in the table.
 */
int ib_cache_gid_del(struct ib_device *ib_dev, u32 port, union ib_gid *gid,
		     struct ib_gid_attr *attr)
{
	struct gid_key key = {
		.gid = gid,
		.gid_type = attr->gid_type,
		.ndev = rcu_dereference_protected(attr->ndev, true),
		.is_default = false,
		.match = GID_MATCH_GID | GID_MATCH_TYPE | GID_MATCH_NDEV |
			 GID_MATCH_DEFAULT,
	};
	struct ib_gid_table *table;
	LIST_HEAD(drop);
	int ix;

	if (!rdma_is_port_valid(ib_dev, port) ||
	    !rdma_protocol_roce(ib_dev, port))
		return -EINVAL;
	table = port_gid_table(ib_dev, port);
	if (!table)
		return -EINVAL;

	mutex_lock(&table->lock);
	read_lock_irq(&table->rwlock);
	ix = gid_table_find(table, &key);
	read_unlock_irq(&table->rwlock);
	if (ix >= 0)
		gid_table_del(ib_dev, port, table, ix, &drop);
	mutex_unlock(&table->lock);

	gid_ndev_refs_drop(&drop);
	if (ix < 0) {
		dev_dbg(&ib_dev->dev, "port %u: no GID %pI6 to delete\n",
			port, gid->raw);
		return -EINVAL;
	}
	gid_change_event(ib_dev, port);
	return 0;
}

/**
 * ib_cache_netdev_changed - the net device of a port changed
 * @device: a registered device
 * @port: the port
 *
 * On a RoCE port, the GIDs of every other net device (the old one, VLANs
 * and bonds over it) are deleted, and the port is scanned for the default
 * and address GIDs of the new one and the devices over it
 * (rdma_roce_rescan_port()).  On an iWARP port the table is copied from
 * the driver again with the new net device attached.  A GID_CHANGE event
 * follows any change.  May sleep; may be called with RTNL held.
 */
void ib_cache_netdev_changed(struct ib_device *device, u32 port)
{
	struct ib_gid_table *table;
	struct net_device *ndev;
	bool changed = false;
	LIST_HEAD(drop);

	if (!rdma_is_port_valid(device, port))
		return;
	table = port_gid_table(device, port);
	if (!table)
		return;

	if (!rdma_protocol_roce(device, port)) {
		if (rdma_protocol_iwarp(device, port) &&
		    gid_table_refresh(device, port, table->sz, NULL) > 0)
			gid_change_event(device, port);
		return;
	}

	ndev = ib_device_get_netdev(device, port);
	mutex_lock(&table->lock);
	if (!table->dead)
		roce_del_other_ndevs(device, port, table, ndev, &drop,
				     &changed);
	mutex_unlock(&table->lock);
	gid_ndev_refs_drop(&drop);
	dev_put(ndev);

	if (changed)
		gid_change_event(device, port);
	rdma_roce_rescan_port(device, port);
}

/* ------------------------------------------------------------------
 * Lookups
 */

/**
 * rdma_query_gid - read a GID from the cache
 * @device: the device
 * @port_num: the port
 * @index: the index in the port's GID table
 * @gid: filled with the GID
 *
 * No reference is taken: the entry may change right after.  Works for
 * every kind of port.
 *
 * Context: Any context; does not sleep. Takes the port GID table's rwlock for
 * read with interrupts saved.
 *
 * Return: 0, -EINVAL for a bad port or index, -ENOENT for an empty slot.
 */
int rdma_query_gid(struct ib_device *device, u32 port_num, int index,
		   union ib_gid *gid)
{
	struct ib_gid_table_entry *entry;
	struct ib_gid_table *table;
	unsigned long flags;
	int ret = 0;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	table = port_gid_table(device, port_num);
	if (!table || index < 0 || index >= table->sz)
		return -EINVAL;

	read_lock_irqsave(&table->rwlock, flags);
	entry = table->data_vec[index];
	if (entry && entry->state == GID_ENTRY_VALID)
		*gid = entry->attr.gid;
	else
		ret = -ENOENT;
	read_unlock_irqrestore(&table->rwlock, flags);
	return ret;
}
EXPORT_SYMBOL(rdma_query_gid);

/**
 * rdma_read_gid_hw_context - the driver's context of a GID entry
 * @attr: a GID entry the caller holds a reference on
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: what the driver's add_gid stored, or NULL.
 */
void *rdma_read_gid_hw_context(const struct ib_gid_attr *attr)
{
	return container_of(attr, struct ib_gid_table_entry, attr)->context;
}
EXPORT_SYMBOL(rdma_read_gid_hw_context);

/* Look up @key in one port; a found entry is returned with a reference. */
static const struct ib_gid_attr *gid_lookup(struct ib_gid_table *table,
					    const struct gid_key *key)
{
	const struct ib_gid_attr *attr = ERR_PTR(-ENOENT);
	unsigned long flags;
	int ix;

	read_lock_irqsave(&table->rwlock, flags);
	ix = gid_table_find(table, key);
	if (ix >= 0) {
		kref_get(&table->data_vec[ix]->kref);
		attr = &table->data_vec[ix]->attr;
	}
	read_unlock_irqrestore(&table->rwlock, flags);
	return attr;
}

/**
 * rdma_find_gid_by_port - find a GID in one port's table
 * @ib_dev: the device
 * @gid: the GID
 * @gid_type: its type
 * @port: the port
 * @ndev: the net device it must belong to, or NULL for any
 *
 * Context: Any context; does not sleep. Takes the port GID table's rwlock for
 * read with interrupts saved.
 *
 * Return: the entry with a reference (release it with
 * rdma_put_gid_attr()), or ERR_PTR(-ENOENT).
 */
const struct ib_gid_attr *rdma_find_gid_by_port(struct ib_device *ib_dev,
						const union ib_gid *gid,
						enum ib_gid_type gid_type,
						u32 port,
						struct net_device *ndev)
{
	struct gid_key key = {
		.gid = gid,
		.gid_type = gid_type,
		.ndev = ndev,
		.match = GID_MATCH_GID | GID_MATCH_TYPE,
	};
	struct ib_gid_table *table;

	if (!rdma_is_port_valid(ib_dev, port))
		return ERR_PTR(-ENOENT);
	table = port_gid_table(ib_dev, port);
	if (!table)
		return ERR_PTR(-ENOENT);

	if (ndev)
		key.match |= GID_MATCH_NDEV;
	return gid_lookup(table, &key);
}
EXPORT_SYMBOL(rdma_find_gid_by_port);

/**
 * rdma_find_gid - find a GID in any port of a device
 * @device: the device
 * @gid: the GID
 * @gid_type: its type
 * @ndev: the net device it must belong to, or NULL for any
 *
 * Ports are searched in order; the first match wins.
 *
 * Context: Any context; does not sleep. Takes each port GID table's rwlock for
 * read in turn, with interrupts saved.
 *
 * Return: the entry with a reference (release it with
 * rdma_put_gid_attr()), or ERR_PTR(-ENOENT).
 */
const struct ib_gid_attr *rdma_find_gid(struct ib_device *device,
					const union ib_gid *gid,
					enum ib_gid_type gid_type,
					struct net_device *ndev)
{
	struct gid_key key = {
		.gid = gid,
		.gid_type = gid_type,
		.ndev = ndev,
		.match = GID_MATCH_GID | GID_MATCH_TYPE,
	};
	u32 port;

	if (ndev)
		key.match |= GID_MATCH_NDEV;

	rdma_for_each_port(device, port) {
		struct ib_gid_table *table = port_gid_table(device, port);
		const struct ib_gid_attr *attr;

		if (!table)
			continue;
		attr = gid_lookup(table, &key);
		if (!IS_ERR(attr))
			return attr;
	}
	return ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL(rdma_find_gid);

/**
 * rdma_find_gid_by_filter - find a GID in a port, choosing with a filter
 * @device: the device
 * @gid: the GID
 * @port_num: the port
 * @filter: called for every valid entry holding @gid, in index order,
 *	in atomic context with the entry stable; returns true to take it
 * @context: passed to @filter
 *
 * Context: Any context; does not sleep. Holds the port GID table's rwlock for
 * read, interrupts saved, across the @filter calls, so @filter must not sleep,
 * must not touch the table (no rdma_put_gid_attr()) and must not take a lock
 * that is held around GID table updates.
 *
 * Return: the first entry @filter accepts, with a reference (release it
 * with rdma_put_gid_attr()); ERR_PTR(-EINVAL) for a bad port,
 * ERR_PTR(-ENOENT) when none is accepted.
 */
const struct ib_gid_attr *rdma_find_gid_by_filter(struct ib_device *device,
						  const union ib_gid *gid,
						  u32 port_num,
						  bool (*filter)(const union ib_gid *gid,
								 const struct ib_gid_attr *attr,
								 void *context),
						  void *context)
{
	const struct ib_gid_attr *res = ERR_PTR(-ENOENT);
	struct ib_gid_table *table;
	unsigned long flags;
	u32 ix;

	if (!rdma_is_port_valid(device, port_num))
		return ERR_PTR(-EINVAL);
	table = port_gid_table(device, port_num);
	if (!table)
		return ERR_PTR(-EINVAL);

	read_lock_irqsave(&table->rwlock, flags);
	for (ix = 0; ix < table->sz; ix++) {
		struct ib_gid_table_entry *entry = table->data_vec[ix];

		if (!entry || entry->state != GID_ENTRY_VALID ||
		    memcmp(gid, &entry->attr.gid, sizeof(*gid)))
			continue;
		if (filter(gid, &entry->attr, context)) {
			kref_get(&entry->kref);
			res = &entry->attr;
			break;
		}
	}
	read_unlock_irqrestore(&table->rwlock, flags);
	return res;
}
EXPORT_SYMBOL(rdma_find_gid_by_filter);

/**
 * rdma_get_gid_attr - take a reference on the GID entry at an index
 * @device: the device
 * @port_num: the port
 * @index: the index in the port's GID table
 *
 * Context: Any context; does not sleep. Takes the port GID table's rwlock for
 * read with interrupts saved.
 *
 * Return: the entry with a reference (release it with
 * rdma_put_gid_attr()); ERR_PTR(-EINVAL) for a bad port or index,
 * ERR_PTR(-ENODATA) for an empty slot.
 */
const struct ib_gid_attr *rdma_get_gid_attr(struct ib_device *device,
					    u32 port_num, int index)
{
	const struct ib_gid_attr *attr = ERR_PTR(-ENODATA);
	struct ib_gid_table_entry *entry;
	struct ib_gid_table *table;
	unsigned long flags;

	if (!rdma_is_port_valid(device, port_num))
		return ERR_PTR(-EINVAL);
	table = port_gid_table(device, port_num);
	if (!table || index < 0 || index >= table->sz)
		return ERR_PTR(-EINVAL);

	read_lock_irqsave(&table->rwlock, flags);
	entry = table->data_vec[index];
	if (entry && entry->state == GID_ENTRY_VALID) {
		kref_get(&entry->kref);
		attr = &entry->attr;
	}
	read_unlock_irqrestore(&table->rwlock, flags);
	return attr;
}
EXPORT_SYMBOL(rdma_get_gid_attr);

/**
 * rdma_query_gid_table - copy the valid GIDs of every port of a device
 * @device: the device
 * @entries: where to write them
 * @max_entries: room in @entries
 *
 * Context: Any context; does not sleep. Takes each port GID table's rwlock for
 * read in turn, with interrupts saved.
 *
 * Return: the number of entries written, or -EINVAL when they do not fit.
 */
ssize_t rdma_query_gid_table(struct ib_device *device,
			     struct ib_uverbs_gid_entry *entries,
			     size_t max_entries)
{
	size_t count = 0;
	u32 port;

	rdma_for_each_port(device, port) {
		struct ib_gid_table *table = port_gid_table(device, port);
		unsigned long flags;
		u32 ix;

		if (!table)
			continue;

		read_lock_irqsave(&table->rwlock, flags);
		for (ix = 0; ix < table->sz; ix++) {
			struct ib_gid_table_entry *entry = table->data_vec[ix];
			struct ib_uverbs_gid_entry *out;
			struct net_device *ndev;

			if (!entry || entry->state != GID_ENTRY_VALID)
				continue;
			if (count >= max_entries) {
				read_unlock_irqrestore(&table->rwlock, flags);
				return -EINVAL;
			}

			out = &entries[count++];
			memcpy(out->gid, entry->attr.gid.raw, sizeof(out->gid));
			out->gid_index = entry->attr.index;
			out->port_num = entry->attr.port_num;
			out->gid_type = entry->attr.gid_type;
			/* Stable: it changes only after the entry stops being valid. */
			ndev = rcu_dereference_protected(entry->attr.ndev,
							 lockdep_is_held(&table->rwlock));
			out->netdev_ifindex = ndev ? ndev->ifindex : 0;
		}
		read_unlock_irqrestore(&table->rwlock, flags);
	}
	return count;
}
EXPORT_SYMBOL(rdma_query_gid_table);

/**
 * rdma_put_gid_attr - drop a reference on a GID entry
 * @attr: an entry from rdma_get_gid_attr(), a find function or
 *	rdma_hold_gid_attr()
 *
 * May be called from any context.  Must be called before the device is
 * freed.
 *
 * Context: Any context; does not sleep. The last put takes the GID table's
 * rwlock for write (interrupts saved) and drops the entry's net device
 * reference, so the caller must not hold that table's rwlock.
 */
void rdma_put_gid_attr(const struct ib_gid_attr *attr)
{
	gid_entry_put(container_of(attr, struct ib_gid_table_entry, attr));
}
EXPORT_SYMBOL(rdma_put_gid_attr);

/**
 * ib_gid_attr_refcount - the references a GID entry has (suites)
 * @attr: an entry the caller holds a reference on
 *
 * The table's own while the entry is valid, the caller's, and every
 * other holder's: a suite proves with it that a user took and gave back
 * exactly its own.
 *
 * Context: Any context.
 * Return: the count.
 */
unsigned int ib_gid_attr_refcount(const struct ib_gid_attr *attr)
{
	return kref_read(&container_of(attr, struct ib_gid_table_entry,
				       attr)->kref);
}
EXPORT_SYMBOL_IF_KUNIT(ib_gid_attr_refcount);

/**
 * rdma_hold_gid_attr - take another reference on a GID entry
 * @attr: an entry the caller already holds a reference on
 *
 * Context: Any context; takes no lock and does not sleep.
 */
void rdma_hold_gid_attr(const struct ib_gid_attr *attr)
{
	struct ib_gid_table_entry *entry =
		container_of(attr, struct ib_gid_table_entry, attr);

	kref_get(&entry->kref);
}
EXPORT_SYMBOL(rdma_hold_gid_attr);

/**
 * rdma_read_gid_attr_ndev_rcu - the net device of a GID entry
 * @attr: an entry the caller holds a reference on
 *
 * Must be called under rcu_read_lock(); the result is valid until
 * rcu_read_unlock().
 *
 * Context: Under rcu_read_lock(), any context; does not sleep. Takes the GID
 * table's rwlock for read with interrupts saved.
 *
 * Return: the net device; ERR_PTR(-EINVAL) when the entry was deleted,
 * ERR_PTR(-ENODEV) when it has no net device (InfiniBand).
 */
struct net_device *rdma_read_gid_attr_ndev_rcu(const struct ib_gid_attr *attr)
{
	struct ib_gid_table_entry *entry =
		container_of(attr, struct ib_gid_table_entry, attr);
	struct ib_gid_table *table = entry->table;
	struct net_device *ndev = ERR_PTR(-EINVAL);
	unsigned long flags;

	read_lock_irqsave(&table->rwlock, flags);
	if (entry->state == GID_ENTRY_VALID) {
		ndev = rcu_dereference(attr->ndev);
		if (!ndev)
			ndev = ERR_PTR(-ENODEV);
	}
	read_unlock_irqrestore(&table->rwlock, flags);
	return ndev;
}
EXPORT_SYMBOL(rdma_read_gid_attr_ndev_rcu);

/* Stop at the first lower device: report its VLAN if it is one. */
static int first_lower_vlan(struct net_device *lower,
			    struct netdev_nested_priv *priv)
{
	u16 *vlan_id = priv->data;

	if (is_vlan_dev(lower))
		*vlan_id = vlan_dev_vlan_id(lower);
	return 1;
}

/**
 * rdma_read_gid_l2_fields - the VLAN and MAC address of a GID entry
 * @attr: an entry the caller holds a reference on
 * @vlan_id: if not NULL, the VLAN ID of the entry's net device, or of its
 *	first lower device when that is a VLAN; 0xffff for none
 * @smac: if not NULL, the net device's MAC address (ETH_ALEN bytes)
 *
 * Context: Any context; does not sleep. Takes rcu_read_lock() while it reads
 * the net device and walks its lower devices.
 *
 * Return: 0, or -ENODEV when the entry has no net device.
 */
int rdma_read_gid_l2_fields(const struct ib_gid_attr *attr,
			    u16 *vlan_id, u8 *smac)
{
	struct netdev_nested_priv priv = { .data = vlan_id };
	struct net_device *ndev;

	rcu_read_lock();
	ndev = rcu_dereference(attr->ndev);
	if (!ndev) {
		rcu_read_unlock();
		return -ENODEV;
	}
	if (smac)
		ether_addr_copy(smac, ndev->dev_addr);
	if (vlan_id) {
		*vlan_id = 0xffff;
		if (is_vlan_dev(ndev))
			*vlan_id = vlan_dev_vlan_id(ndev);
		else
			netdev_walk_all_lower_dev_rcu(ndev, first_lower_vlan,
						      &priv);
	}
	rcu_read_unlock();
	return 0;
}
EXPORT_SYMBOL(rdma_read_gid_l2_fields);

/* ------------------------------------------------------------------
 * P_Keys and port attributes
 */

/**
 * ib_get_cached_pkey - read a P_Key from the cache
 * @device: the device
 * @port_num: the port
 * @index: the index in the port's P_Key table
 * @pkey: filled with the P_Key
 *
 * Context: Any context; does not sleep. Takes the device's cache_lock for read
 * with interrupts saved.
 *
 * Return: 0, or -EINVAL for a bad port or index.
 */
int ib_get_cached_pkey(struct ib_device *device, u32 port_num, int index,
		       u16 *pkey)
{
	struct ib_pkey_cache *cache;
	unsigned long flags;
	int ret = -EINVAL;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;

	read_lock_irqsave(&device->cache_lock, flags);
	cache = device->port_data[port_num].cache.pkey;
	if (cache && index >= 0 && index < cache->table_len) {
		*pkey = cache->table[index];
		ret = 0;
	}
	read_unlock_irqrestore(&device->cache_lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_get_cached_pkey);

/*
 * Search a port's cached P_Keys.  @exact compares all 16 bits; otherwise
 * the membership bit (0x8000) is ignored and a full member is preferred
 * to the first limited one.
 */
static int find_cached_pkey(struct ib_device *device, u32 port_num, u16 pkey,
			    u16 *index, bool exact)
{
	struct ib_pkey_cache *cache;
	int limited = -1, found = -1;
	unsigned long flags;
	int ret = 0;
	int i;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;

	read_lock_irqsave(&device->cache_lock, flags);
	cache = device->port_data[port_num].cache.pkey;
	if (!cache) {
		ret = -EINVAL;
		goto out;
	}

	for (i = 0; i < cache->table_len; i++) {
		u16 entry = cache->table[i];

		if (exact) {
			if (entry == pkey) {
				found = i;
				break;
			}
		} else if ((entry & 0x7fff) == (pkey & 0x7fff)) {
			if (entry & 0x8000) {
				found = i;
				break;
			}
			if (limited < 0)
				limited = i;
		}
	}
	if (found < 0)
		found = limited;
	if (found < 0)
		ret = -ENOENT;
	else
		*index = found;
out:
	read_unlock_irqrestore(&device->cache_lock, flags);
	return ret;
}

/**
 * ib_find_cached_pkey - find a P_Key in the cache, ignoring membership
 * @device: the device
 * @port_num: the port
 * @pkey: the P_Key; its membership bit (0x8000) is not compared
 * @index: filled with the index found
 *
 * A full-member entry is preferred; otherwise the first limited-member
 * entry is returned.
 *
 * Context: Any context; does not sleep. Takes the device's cache_lock for read
 * with interrupts saved.
 *
 * Return: 0, -EINVAL for a bad port, -ENOENT when not found.
 */
int ib_find_cached_pkey(struct ib_device *device, u32 port_num, u16 pkey,
			u16 *index)
{
	return find_cached_pkey(device, port_num, pkey, index, false);
}
EXPORT_SYMBOL(ib_find_cached_pkey);

/**
 * ib_find_exact_cached_pkey - find a P_Key in the cache, all 16 bits
 * @device: the device
 * @port_num: the port
 * @pkey: the P_Key, membership bit included
 * @index: filled with the index found
 *
 * Context: Any context; does not sleep. Takes the device's cache_lock for read
 * with interrupts saved.
 *
 * Return: 0, -EINVAL for a bad port, -ENOENT when not found.
 */
int ib_find_exact_cached_pkey(struct ib_device *device, u32 port_num,
			      u16 pkey, u16 *index)
{
	return find_cached_pkey(device, port_num, pkey, index, true);
}
EXPORT_SYMBOL(ib_find_exact_cached_pkey);

/**
 * ib_get_cached_lmc - the cached LID mask count of a port
 * @device: the device
 * @port_num: the port
 * @lmc: filled with the LMC
 *
 * Context: Any context; does not sleep. Takes the device's cache_lock for read
 * with interrupts saved.
 *
 * Return: 0, or -EINVAL for a bad port.
 */
int ib_get_cached_lmc(struct ib_device *device, u32 port_num, u8 *lmc)
{
	unsigned long flags;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;

	read_lock_irqsave(&device->cache_lock, flags);
	*lmc = device->port_data[port_num].cache.lmc;
	read_unlock_irqrestore(&device->cache_lock, flags);
	return 0;
}
EXPORT_SYMBOL(ib_get_cached_lmc);

/**
 * ib_get_cached_port_state - the cached state of a port
 * @device: the device
 * @port_num: the port
 * @port_state: filled with the state
 *
 * Context: Any context; does not sleep. Takes the device's cache_lock for read
 * with interrupts saved.
 *
 * Return: 0, or -EINVAL for a bad port.
 */
int ib_get_cached_port_state(struct ib_device *device, u32 port_num,
			     enum ib_port_state *port_state)
{
	unsigned long flags;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;

	read_lock_irqsave(&device->cache_lock, flags);
	*port_state = device->port_data[port_num].cache.port_state;
	read_unlock_irqrestore(&device->cache_lock, flags);
	return 0;
}
EXPORT_SYMBOL(ib_get_cached_port_state);

/**
 * ib_get_cached_subnet_prefix - the cached subnet prefix of a port
 * @device: the device
 * @port_num: a valid port
 * @sn_pfx: filled with the prefix, in CPU byte order
 *
 * Context: Any context; does not sleep. Takes the device's cache_lock for read
 * with interrupts saved. Does not check @port_num.
 */
void ib_get_cached_subnet_prefix(struct ib_device *device, u32 port_num,
				 u64 *sn_pfx)
{
	unsigned long flags;

	read_lock_irqsave(&device->cache_lock, flags);
	*sn_pfx = device->port_data[port_num].cache.subnet_prefix;
	read_unlock_irqrestore(&device->cache_lock, flags);
}
EXPORT_SYMBOL(ib_get_cached_subnet_prefix);

static struct ib_pkey_cache *pkey_cache_read(struct ib_device *device,
					     u32 port, int len)
{
	struct ib_pkey_cache *cache;
	int i, ret;

	cache = kmalloc(struct_size(cache, table, len), GFP_KERNEL);
	if (!cache)
		return ERR_PTR(-ENOMEM);
	cache->table_len = len;

	for (i = 0; i < len; i++) {
		ret = ib_query_pkey(device, port, i, &cache->table[i]);
		if (ret) {
			dev_warn(&device->dev,
				 "port %u: query_pkey(%d) failed: %d\n",
				 port, i, ret);
			kfree(cache);
			return ERR_PTR(ret);
		}
	}
	return cache;
}

/*
 * Refresh the cache of a port from the driver: always the LMC, state and
 * subnet prefix; the GIDs of a driver-owned table if @gids; the P_Keys
 * if @pkeys and the port has any.
 */
static int ib_cache_update(struct ib_device *device, u32 port, bool gids,
			   bool pkeys)
{
	struct ib_pkey_cache *pkey_cache = NULL;
	struct ib_port_cache *pc;
	struct ib_port_attr attr;
	int ret;

	ret = ib_query_port(device, port, &attr);
	if (ret) {
		dev_warn(&device->dev, "port %u: query_port failed: %d\n",
			 port, ret);
		return ret;
	}

	if (gids && !rdma_protocol_roce(device, port)) {
		ret = gid_table_refresh(device, port, max(attr.gid_tbl_len, 0),
					&attr.subnet_prefix);
		if (ret < 0)
			return ret;
	}

	if (pkeys && attr.pkey_tbl_len) {
		pkey_cache = pkey_cache_read(device, port, attr.pkey_tbl_len);
		if (IS_ERR(pkey_cache))
			return PTR_ERR(pkey_cache);
	}

	pc = &device->port_data[port].cache;
	write_lock_irq(&device->cache_lock);
	if (pkey_cache)
		swap(pc->pkey, pkey_cache);
	pc->lmc = attr.lmc;
	pc->port_state = attr.state;
	pc->subnet_prefix = attr.subnet_prefix;
	write_unlock_irq(&device->cache_lock);

	/* The table that was replaced, if any. */
	kfree(pkey_cache);
	return 0;
}

/**
 * ib_cache_event - refresh the cache for an event before handlers see it
 * @event: the event
 *
 * PKEY_CHANGE reloads the P_Keys, GID_CHANGE and CLIENT_REREGISTER the
 * GIDs of a driver-owned table; these and PORT_ACTIVE, PORT_ERR and
 * LID_CHANGE all reload the LMC, state and subnet prefix.  Other events
 * do not touch the cache.
 *
 * Return: false when the refresh failed and the event must not be
 * delivered, true otherwise.
 */
bool ib_cache_event(const struct ib_event *event)
{
	struct ib_device *device = event->device;
	u32 port = event->element.port_num;

	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_GID_CHANGE:
		break;
	default:
		return true;
	}

	if (!rdma_is_port_valid(device, port))
		return false;
	/* A device whose cache is not (or no longer) set up. */
	if (!port_gid_table(device, port))
		return true;

	return !ib_cache_update(device, port,
				event->event == IB_EVENT_GID_CHANGE ||
				event->event == IB_EVENT_CLIENT_REREGISTER,
				event->event == IB_EVENT_PKEY_CHANGE);
}

/* ------------------------------------------------------------------
 * Device life cycle
 */

static struct ib_gid_table *gid_table_alloc(struct ib_device *device,
					    u32 port)
{
	int len = device->port_data[port].immutable.gid_tbl_len;
	struct ib_gid_table *table;
	u32 sz = max(len, 0);

	table = kzalloc(struct_size(table, data_vec, sz), GFP_KERNEL);
	if (!table)
		return NULL;

	table->sz = sz;
	mutex_init(&table->lock);
	rwlock_init(&table->rwlock);

	/* The first slots are for the default GIDs, one per RoCE version. */
	if (rdma_protocol_roce(device, port)) {
		unsigned long types = roce_gid_type_mask_support(device, port);
		u32 n = min_t(u32, hweight_long(types), sz);

		table->default_gid_indices = BIT(n) - 1;
	}
	return table;
}

static void gid_table_free(struct ib_device *device, u32 port,
			   struct ib_gid_table *table)
{
	u32 ix;

	if (!table)
		return;

	/* An entry left here is a reference somebody never put. */
	for (ix = 0; ix < table->sz; ix++)
		WARN_ONCE(table->data_vec[ix],
			  "%s port %u: GID index %u still referenced (%u)\n",
			  dev_name(&device->dev), port, ix,
			  kref_read(&table->data_vec[ix]->kref));

	mutex_destroy(&table->lock);
	kfree(table);
}

static void cache_flush_all(struct ib_device *device)
{
	LIST_HEAD(drop);
	u32 port;

	rdma_for_each_port(device, port) {
		struct ib_gid_table *table = port_gid_table(device, port);

		if (table)
			gid_table_flush(device, port, table, &drop);
	}
	gid_ndev_refs_drop(&drop);
}

static void cache_free_all(struct ib_device *device)
{
	u32 port;

	rdma_for_each_port(device, port) {
		struct ib_port_cache *pc = &device->port_data[port].cache;

		kfree(pc->pkey);
		pc->pkey = NULL;
		gid_table_free(device, port, pc->gid);
		pc->gid = NULL;
	}
}

/**
 * ib_cache_setup_one - build the cache of every port of a device
 * @device: a device being registered, with its port data set up
 *
 * Return: 0, or an error with nothing left behind.
 */
int ib_cache_setup_one(struct ib_device *device)
{
	u32 port;
	int ret;

	rdma_for_each_port(device, port) {
		struct ib_gid_table *table = gid_table_alloc(device, port);

		if (!table) {
			ret = -ENOMEM;
			goto err;
		}
		device->port_data[port].cache.gid = table;
	}

	rdma_for_each_port(device, port) {
		ret = ib_cache_update(device, port, true, true);
		if (ret)
			goto err;
	}

	/*
	 * RoCE ports follow the IP stack from now on; the scan adds what
	 * was there before (default GIDs, addresses, VLANs, bonds).
	 */
	ret = roce_gid_mgmt_add_device(device);
	if (ret)
		goto err;
	rdma_roce_rescan_device(device);
	return 0;

err:
	roce_gid_mgmt_del_device(device);
	cache_flush_all(device);
	cache_free_all(device);
	return ret;
}

/**
 * ib_cache_cleanup_one - empty the GID tables of a device
 * @device: a device being unregistered (or whose registration failed
 *	after ib_cache_setup_one())
 *
 * Every GID is deleted (the driver is told) and nothing is added any
 * more.  Entries still held stay readable until put.  The P_Key and port
 * attribute caches stay until ib_cache_release_one().
 */
void ib_cache_cleanup_one(struct ib_device *device)
{
	/* no GID work touches the device after this */
	roce_gid_mgmt_del_device(device);
	if (device->port_data)
		cache_flush_all(device);
}

/**
 * ib_cache_release_one - free the cache of a device
 * @device: the device, being freed; called whether or not the cache was
 *	ever set up
 */
void ib_cache_release_one(struct ib_device *device)
{
	if (device->port_data)
		cache_free_all(device);
}
